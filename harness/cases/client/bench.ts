// What a client run drives, shared by its cases (they queue their exchanges anyway: the SDK
// handles one call at a time): the harness's reference service behind the recorder, and the
// adapter, started once and restarted after a failure. One bench per target; the run closes it.
import { LineProcess } from '../../line-protocol/index.ts';
import type { Redactor } from '../../secrets/index.ts';
import { SdkAdapter, startSdkService, type AdapterLaunch, type SdkService } from '../../sdk/index.ts';
import { TargetUnreachable, type ResolvedClientTarget } from '../../targets/index.ts';

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

/** More than the calls of a run: the client cases (35), the preflight's two, the plain status call. */
const MAX_CLIENT_CALLS_AHEAD = 48;

const benches = new Map<ResolvedClientTarget, Promise<ClientBench>>();

/** Adapter processes the start probe left running, for the bench to adopt (the command starts once). */
const probed = new Map<ResolvedClientTarget, LineProcess>();

export async function adapterLaunchOf(target: ResolvedClientTarget): Promise<AdapterLaunch> {
  if (target.inProcess) {
    // Loaded only for the embedded run's in-process reference SDK.
    const { referenceAdapterPeer, isReferenceSdkFault } = await import('../../reference-sdk/index.ts');
    const unknown = target.inProcess.faults.filter((f) => !isReferenceSdkFault(f));
    if (unknown.length > 0) throw new Error(`unknown reference SDK fault(s): ${unknown.join(', ')}`);
    return { peer: referenceAdapterPeer({ faults: target.inProcess.faults.filter(isReferenceSdkFault) }) };
  }
  const started = probed.get(target);
  probed.delete(target);
  return { command: target.command, ...(started ? { started } : {}) };
}

/** The target's bench, started on first use. */
export function benchOf(target: ResolvedClientTarget, redactor: Redactor, onNotice?: (line: string) => void): Promise<ClientBench> {
  let bench = benches.get(target);
  if (!bench) {
    bench = (async () => {
      const service = await startSdkService({
        credentials: { clientId: target.clientId, clientKey: target.clientKey, secretKey: target.secretKey },
        customerNumbers: [CLIENT_CUSTOMER_NUMBER],
      });
      const adapter = new SdkAdapter(await adapterLaunchOf(target), {
        answerDeadlineMs: target.timing.answerDeadlineMs,
        redactor,
        ...(onNotice ? { onNotice } : {}),
      });
      return { service, adapter };
    })();
    benches.set(target, bench);
    bench.catch(() => benches.delete(target));
  }
  return bench;
}

/**
 * Exit status 3 found late: an adapter command that outlived the probe but never started (every
 * start ended before an answer, and the driver gave up on it). Undefined when it answered once.
 */
export async function adapterNeverStarted(target: ResolvedClientTarget): Promise<string | undefined> {
  const bench = await benches.get(target)?.catch(() => undefined);
  const reason = bench?.adapter.cannotStart;
  if (reason === undefined) return undefined;
  const why = /^the adapter command cannot be started \((.*)\)$/s.exec(reason)?.[1] ?? reason;
  return `the adapter command ${JSON.stringify(target.command)} cannot be started: every start ended before an answer (${why})`;
}

/** Stops the adapter and the service of a target (the end of its run). */
export async function closeClientBench(target: ResolvedClientTarget): Promise<void> {
  await probed.get(target)?.close(1000);
  probed.delete(target);
  const bench = benches.get(target);
  if (!bench) return;
  benches.delete(target);
  const { service, adapter } = await bench.catch(() => ({ service: undefined, adapter: undefined }));
  await adapter?.close();
  await service?.close();
}

/** How long a command is watched after starting: one that ends within it, before any request, cannot start. */
export const ADAPTER_PROBE_MS = 500;

/**
 * Exit status 3 (DESIGN.md): an adapter command that ends right after starting, before it is
 * sent anything (not found, a syntax error, a missing module), cannot be reached at all. One
 * that stays up is kept for the run's first call.
 */
export async function probeAdapter(target: ResolvedClientTarget, redactor: Redactor, watchMs = ADAPTER_PROBE_MS): Promise<void> {
  if (!target.command) return;
  const end = new LineProcess(target.command);
  const event = await end.next(watchMs);
  if (event.type === 'exit') {
    throw new TargetUnreachable(redactor.text(`the adapter command ${JSON.stringify(target.command)} cannot be started: it ${end.describeExit(event.exit)} right after starting, before any request (${end.lastStderr()})`));
  }
  // Still up (a line it wrote unasked is dropped): the run's first call goes to this process.
  probed.set(target, end);
}
