// What a client run drives, shared by its cases (they queue their exchanges anyway: the SDK
// handles one call at a time): the harness's reference service behind the recorder, and the
// adapter, started once and restarted after a failure. One bench per target, held by the run's
// RunResources, which closes it.
import { LineProcess } from '../../line-protocol/index.ts';
import type { Redactor } from '../../secrets/index.ts';
import { SdkAdapter, startSdkService, type AdapterLaunch, type SdkService } from '../../sdk/index.ts';
import type { ResolvedClientTarget } from '../../targets/index.ts';
import { TargetUnreachableError } from '../../tool/index.ts';

/** The customer number of every call: whitelisted by the harness's service, with its leading zero. */
export const CLIENT_CUSTOMER_NUMBER = '0244000001';
export const CLIENT_NETWORK_CODE = 'MTN';

export interface ClientBench {
  service: SdkService;
  adapter: SdkAdapter;
}

/**
 * The time limit of a client case. The adapter handles one call at a time, so cases started
 * together queue for it: a case may wait for every other client case's call, each bounded by
 * answerDeadlineMs (a hung adapter is killed then, and given up after three failures in a row).
 * The limit is only a backstop behind those bounds.
 */
export function clientCaseTimeoutMs(answerDeadlineMs: number): number {
  return (MAX_CLIENT_CALLS_AHEAD + 2) * answerDeadlineMs + 5000;
}

/** More than the calls of a run: the client cases (36), the preflight's two, the plain status call. */
const MAX_CLIENT_CALLS_AHEAD = 48;

/** How an in-process target's adapter is reached (a command's launch is the bench's: it may adopt the probe's process). */
export async function adapterLaunchOf(target: ResolvedClientTarget): Promise<AdapterLaunch> {
  if (target.inProcess?.adapter === 'peer') return { peer: target.inProcess.peer };
  if (target.inProcess) {
    // Loaded only for the embedded run's in-process reference SDK.
    const { referenceAdapterPeer, isReferenceSdkFault } = await import('../../reference-sdk/index.ts');
    const unknown = target.inProcess.faults.filter((f) => !isReferenceSdkFault(f));
    if (unknown.length > 0) throw new Error(`unknown reference SDK fault(s): ${unknown.join(', ')}`);
    return { peer: referenceAdapterPeer({ faults: target.inProcess.faults.filter(isReferenceSdkFault) }) };
  }
  return { command: target.command };
}

/**
 * The benches of one run's client targets (part of its RunResources): started on first use,
 * closed with the run. Also the adapter processes the start probe left running, for the bench
 * to adopt (the command starts once).
 */
export class ClientBenches {
  private readonly benches = new Map<ResolvedClientTarget, Promise<ClientBench>>();
  private readonly probed = new Map<ResolvedClientTarget, LineProcess>();

  /** The target's bench, started on first use. */
  of(target: ResolvedClientTarget, redactor: Redactor): Promise<ClientBench> {
    let bench = this.benches.get(target);
    if (!bench) {
      bench = (async () => {
        // Checked first: a target that cannot be launched (an unknown fault) leaves no service listening.
        await adapterLaunchOf(target);
        const service = await startSdkService({
          credentials: { clientId: target.clientId, clientKey: target.clientKey, secretKey: target.secretKey },
          customerNumbers: [CLIENT_CUSTOMER_NUMBER],
        });
        // Only now is the probe's process taken over (until then close() ends it).
        const adapter = new SdkAdapter(await this.launchOf(target), { answerDeadlineMs: target.timing.answerDeadlineMs, redactor });
        return { service, adapter };
      })();
      this.benches.set(target, bench);
      bench.catch(() => this.benches.delete(target));
    }
    return bench;
  }

  /** A command the start probe left running: the run's first call goes to it. */
  adopt(target: ResolvedClientTarget, started: LineProcess): void {
    this.probed.set(target, started);
  }

  private async launchOf(target: ResolvedClientTarget): Promise<AdapterLaunch> {
    const started = this.probed.get(target);
    this.probed.delete(target);
    const launch = await adapterLaunchOf(target);
    return started && 'command' in launch ? { ...launch, started } : launch;
  }

  /**
   * Exit status 3 found late: an adapter command that outlived the probe but never started (every
   * start ended before an answer, and the driver gave up on it). Undefined when it answered once.
   */
  async neverStarted(target: ResolvedClientTarget): Promise<string | undefined> {
    const bench = await this.benches.get(target)?.catch(() => undefined);
    const why = bench?.adapter.cannotStart;
    if (why === undefined) return undefined;
    return `the adapter command ${JSON.stringify(target.command)} cannot be started: every start ended before an answer (${why})`;
  }

  /** Stops every adapter and service (the end of the run). */
  async close(): Promise<void> {
    const probed = [...this.probed.values()];
    const benches = [...this.benches.values()];
    this.probed.clear();
    this.benches.clear();
    await Promise.all(probed.map((p) => p.close(1000)));
    await Promise.all(benches.map(async (bench) => {
      const { service, adapter } = await bench.catch(() => ({ service: undefined, adapter: undefined }));
      await adapter?.close();
      await service?.close();
    }));
  }
}

/** How long a command is watched after starting: one that ends within it, before any request, cannot start. */
export const ADAPTER_PROBE_MS = 500;

/**
 * Exit status 3 (DESIGN.md): an adapter command that ends right after starting, before it is
 * sent anything (not found, a syntax error, a missing module), cannot be reached at all. One
 * that stays up is kept for the run's first call.
 */
export async function probeAdapter(target: ResolvedClientTarget, redactor: Redactor, benches: ClientBenches, watchMs = ADAPTER_PROBE_MS): Promise<void> {
  if (!target.command) return;
  const end = new LineProcess(target.command);
  const event = await end.next(watchMs);
  if (event.type === 'exit') {
    throw new TargetUnreachableError(redactor.text(`the adapter command ${JSON.stringify(target.command)} cannot be started: it ${end.describeExit(event.exit)} right after starting, before any request (${end.lastStderr()})`));
  }
  // Still up (a line it wrote unasked is dropped): the run's first call goes to this process.
  benches.adopt(target, end);
}
