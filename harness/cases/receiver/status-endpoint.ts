// The harness's status endpoint for a confirming receiver target (`confirms`): part of the run's
// RunResources, started before the first callback that needs it and closed, awaited, with the
// run; or provided by whoever started the receiver with an endpoint of its own (the embedded
// run: port 0, no free-port race), which then stays its owner's. Every callback a case sends is
// told to it, so it answers truthfully; each case's probe reads back the queries its callbacks caused.
import { queryExchange, startStatusEndpoint, type RunningStatusEndpoint } from '../../status/index.ts';
import type { Exchange } from '../../results/index.ts';
import type { ReceiverConfirms, ResolvedTarget } from '../../targets/index.ts';

/** The endpoint of a run, or why the harness could not serve it (a case then ERRORs naming it). */
export type HeldStatusEndpoint = { ok: true; endpoint: RunningStatusEndpoint } | { ok: false; reason: string };

/**
 * Endpoints started by a target's owner, keyed by the target's `confirms` (which a copy of the
 * target, `{...target, timing}`, shares): a fact about the target, for as long as its owner keeps it.
 */
const provided = new WeakMap<ReceiverConfirms, RunningStatusEndpoint>();

function confirmsOf(target: ResolvedTarget): ReceiverConfirms | undefined {
  // Only a receiver target has `confirms` (the target schema refuses it on the other sides).
  return (target as { confirms?: ReceiverConfirms }).confirms;
}

async function start(c: ReceiverConfirms): Promise<HeldStatusEndpoint> {
  try {
    const endpoint = await startStatusEndpoint({
      host: c.listener.host, port: c.listener.port, publicUrl: c.listener.publicUrl,
      clientId: c.clientId, clientKey: c.clientKey, secretKey: c.secretKey, endpoint: c.status, ...(c.statusForm ? { form: c.statusForm } : {}),
    });
    return { ok: true, endpoint };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? (error instanceof Error ? error.message : String(error));
    return { ok: false, reason: `the harness could not listen on ${c.listener.host}:${c.listener.port} (confirms.listener) to serve the status endpoint (${code})` };
  }
}

/** The status endpoints one run serves, one per confirming target. */
export class StatusEndpoints {
  private readonly held = new Map<ReceiverConfirms, Promise<HeldStatusEndpoint>>();

  /** The target's endpoint, started on first use; undefined when the target does not confirm. */
  of(target: ResolvedTarget): Promise<HeldStatusEndpoint> | undefined {
    const c = confirmsOf(target);
    if (!c) return undefined;
    const own = provided.get(c);
    if (own) return Promise.resolve({ ok: true, endpoint: own });
    let held = this.held.get(c);
    if (!held) {
      held = start(c);
      this.held.set(c, held);
    }
    return held;
  }

  /** Closes the endpoints this run started (a provided one stays its owner's). */
  async close(): Promise<void> {
    const held = [...this.held.values()];
    this.held.clear();
    await Promise.all(held.map(async (h) => {
      const endpoint = await h;
      if (endpoint.ok) await endpoint.endpoint.close();
    }));
  }
}

/** An endpoint started by the target's owner (the embedded receiver); it stays until the owner closes it. */
export function provideStatusEndpoint(target: ResolvedTarget, endpoint: RunningStatusEndpoint): void {
  const c = confirmsOf(target);
  if (c !== undefined) provided.set(c, endpoint);
}

/** Forgets a provided endpoint (its owner is closing it). */
export function withdrawStatusEndpoint(target: ResolvedTarget): void {
  const c = confirmsOf(target);
  if (c) provided.delete(c);
}

/** The queries that named these ids, as evidence (times from `origin`, performance.now()). */
export function statusQueryEvidence(endpoint: RunningStatusEndpoint, ids: Iterable<string>, origin: number): Exchange[] {
  return [...ids].flatMap((id) => endpoint.queriesFor(id)).sort((a, b) => a.at - b.at).map((q) => queryExchange(q, origin));
}
