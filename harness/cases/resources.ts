// What one run holds for its cases and closes once, at its end, whatever way it ends (HOUSE.md
// "Change" 4): a client target's bench (the harness's service and the SDK's adapter), a service
// target's callback listener, a confirming receiver's status endpoint, a receiver's records as
// the run observes them (a database pool, an observer command) and how late it applies callbacks.
// Passed to every case in its context (CaseContext.resources), so no lifetime leaks into a
// module-level map or the caller.
import type { Observation } from '../observe/index.ts';
import type { ResolvedTarget } from '../targets/index.ts';
import { ClientBenches } from './client/bench.ts';
import { ApplyTimes } from './receiver/apply-times.ts';
import { StatusEndpoints } from './receiver/status-endpoint.ts';
import { ServiceListeners } from './service/listener-pool.ts';

export class RunResources {
  /** Each client target's bench, started on its first call. */
  readonly clients = new ClientBenches();
  /** Each service target's callback listener, opened on its first case. */
  readonly listeners = new ServiceListeners();
  /** Each confirming receiver target's status endpoint (unless its owner provides one). */
  readonly statusEndpoints = new StatusEndpoints();
  /** How long each receiver target took to apply a valid callback after answering it (nothing to close). */
  readonly applyTimes = new ApplyTimes();
  private readonly observations = new Map<ResolvedTarget, Promise<Observation>>();

  /**
   * How the receiver target's records are seen, opened once for the run by `open` (the first
   * asker's: the run opens it checked, before any case), and shared by its preflight and cases.
   */
  observation(target: ResolvedTarget, open: () => Promise<Observation>): Promise<Observation> {
    let observation = this.observations.get(target);
    if (!observation) {
      observation = open();
      this.observations.set(target, observation);
      // One that could not open is not the run's to close; the next asker tries again.
      observation.catch(() => this.observations.delete(target));
    }
    return observation;
  }

  /**
   * Closes everything the run holds, at once; the first failure to close is thrown after all were
   * tried. Each holder forgets what it closes, so closing again closes nothing twice.
   */
  async close(): Promise<void> {
    const observations = [...this.observations.values()];
    this.observations.clear();
    const settled = await Promise.allSettled([
      this.clients.close(),
      this.listeners.close(),
      this.statusEndpoints.close(),
      ...observations.map(async (o) => {
        const opened = await o.catch(() => undefined);
        await opened?.close();
      }),
    ]);
    const failed = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
    if (failed) throw failed.reason;
  }
}
