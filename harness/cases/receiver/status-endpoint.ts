// The harness's status endpoint for a confirming receiver target (`confirms`), one per target
// for as long as a run uses it: held by every runCases over the target (the preflight's and the
// cases', so it is up before the first callback and closed, awaited, after the last, on every
// exit path), or provided by whoever started the receiver with an endpoint of its own (the
// embedded run: port 0, no free-port race). Every callback a case sends is told to it, so it
// answers truthfully; each case's probe reads back the queries its callbacks caused.
import { queryExchange, startStatusEndpoint, type RunningStatusEndpoint } from '../../status/index.ts';
import type { Exchange } from '../../results/index.ts';
import type { ReceiverConfirms, ResolvedTarget } from '../../targets/index.ts';

/** The endpoint of a run, or why the harness could not serve it (a case then ERRORs naming it). */
export type HeldStatusEndpoint = { ok: true; endpoint: RunningStatusEndpoint } | { ok: false; reason: string };

interface Entry {
  held: Promise<HeldStatusEndpoint>;
  refs: number;
  /** Provided from outside: its owner closes it. */
  provided: boolean;
}

// Keyed by the target's `confirms`, which a copy of the target (`{...target, timing}`) shares.
const entries = new Map<ReceiverConfirms, Entry>();
/** Endpoints closing: a new hold of the same target waits, so the fixed port is free again. */
const closing = new Map<ReceiverConfirms, Promise<void>>();

function confirmsOf(target: ResolvedTarget): ReceiverConfirms | undefined {
  return target.side === 'receiver' ? target.confirms : undefined;
}

async function start(c: ReceiverConfirms): Promise<HeldStatusEndpoint> {
  await closing.get(c);
  try {
    const endpoint = await startStatusEndpoint({
      host: c.listener.host, port: c.listener.port, publicUrl: c.listener.publicUrl,
      clientId: c.clientId, clientKey: c.clientKey, secretKey: c.secretKey, endpoint: c.status,
    });
    return { ok: true, endpoint };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? (error instanceof Error ? error.message : String(error));
    return { ok: false, reason: `the harness could not listen on ${c.listener.host}:${c.listener.port} (confirms.listener) to serve the status endpoint (${code})` };
  }
}

/**
 * Holds the target's status endpoint for a run, starting it on the first hold; `release` closes
 * it once nothing holds it (awaited). A target that does not confirm holds nothing.
 */
export async function holdStatusEndpoint(target: ResolvedTarget): Promise<{ release(): Promise<void> }> {
  const c = confirmsOf(target);
  if (!c) return { release: async () => {} };
  let entry = entries.get(c);
  if (!entry) {
    entry = { held: start(c), refs: 0, provided: false };
    entries.set(c, entry);
  }
  entry.refs++;
  const current = entry;
  await current.held;
  let released = false;
  return {
    async release() {
      if (released) return;
      released = true;
      current.refs--;
      if (current.refs > 0 || current.provided || entries.get(c) !== current) return;
      entries.delete(c);
      const held = await current.held;
      if (!held.ok) return;
      const closed = held.endpoint.close().finally(() => closing.delete(c));
      closing.set(c, closed);
      await closed;
    },
  };
}

/** An endpoint started by the target's owner (the embedded receiver); it stays until the owner closes it. */
export function provideStatusEndpoint(target: ResolvedTarget, endpoint: RunningStatusEndpoint): void {
  const c = confirmsOf(target);
  if (c) entries.set(c, { held: Promise.resolve({ ok: true, endpoint }), refs: 0, provided: true });
}

/** Forgets a provided endpoint (its owner is closing it). */
export function withdrawStatusEndpoint(target: ResolvedTarget): void {
  const c = confirmsOf(target);
  if (c && entries.get(c)?.provided) entries.delete(c);
}

/** The endpoint a run holds for this target; undefined when the target does not confirm. */
export function statusEndpointOf(target: ResolvedTarget): Promise<HeldStatusEndpoint> | undefined {
  const c = confirmsOf(target);
  if (!c) return undefined;
  return entries.get(c)?.held ?? Promise.resolve({
    ok: false,
    reason: 'the harness\'s status endpoint is not running: the cases of a confirming receiver run through runCases or runChecked, which serve it',
  });
}

/** The queries that named these ids, as evidence (times from `origin`, performance.now()). */
export function statusQueryEvidence(endpoint: RunningStatusEndpoint, ids: Iterable<string>, origin: number): Exchange[] {
  return [...ids].flatMap((id) => endpoint.queriesFor(id)).sort((a, b) => a.at - b.at).map((q) => queryExchange(q, origin));
}
