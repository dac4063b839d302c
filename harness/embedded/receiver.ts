// The embedded receiver target: the reference receiver in-process on 127.0.0.1:0, with a
// generated token, hooks on and scaled time, resolved as a target file would be.
import { provideStatusEndpoint, withdrawStatusEndpoint } from '../cases/index.ts';
import { generateTestToken, startReceiver, type ReceiverConfigInput, type ReceiverFault, type RunningReceiver } from '../receiver/index.ts';
import type { TransactionIdShape } from '../ids/index.ts';
import { STATUS_POSITION, startStatusEndpoint, type RunningStatusEndpoint } from '../status/index.ts';
import { generateClientCredentials, type ResolvedReceiverTarget } from '../targets/index.ts';

export interface EmbeddedReceiverOptions {
  faults?: ReceiverFault[];
  /** Multiplies the receiver's delays (default 0.02: 5 s of fulfilment work becomes 100 ms). */
  timeScale?: number;
  /** The target's reply deadline (default 1000 ms: ten times the scaled work, far above loopback latency). */
  replyDeadlineMs?: number;
  hooks?: boolean;
  /** Without a token in the target, the token cases SKIP (the receiver still has one). */
  tokenInTarget?: boolean;
  /** Receiver log lines (default: dropped, the run prints its own progress). */
  log?: (line: string) => void;
  tls?: { key: string; cert: string; ca: string };
  /** The receiver accepts only ids of this shape (a correct mode, not a fault). */
  transactionIds?: TransactionIdShape;
  /** Whether the target file states that shape (default true); false shows a target that does not. */
  idsInTarget?: boolean;
  /**
   * The receiver confirms outcomes with the status endpoint (§6 rule 5), and the target says
   * `confirms`. `true`: the harness's endpoint starts with it (port 0, provided to the runs of
   * this target). `{port}`: the receiver calls 127.0.0.1:port, where each run serves the endpoint
   * itself, as for a target file.
   */
  confirms?: boolean | { port: number };
  /** A confirming receiver confirms FAILED outcomes too (a correct choice either way; default false). */
  confirmsFailed?: boolean;
  /** Keep the records in this database instead of in memory (the receiver's SQL store). */
  store?: ReceiverConfigInput['store'];
  /** The receiver sheds load with 503 + Retry-After (a correct mode), and its volume sizes (DESIGN.md "A callback storm"). */
  shedding?: boolean;
  volume?: ReceiverConfigInput['volume'];
}

export interface EmbeddedReceiver {
  target: ResolvedReceiverTarget;
  receiver: RunningReceiver;
  close(): Promise<void>;
}

export const EMBEDDED_RECEIVER_DEFAULTS = { timeScale: 0.02, replyDeadlineMs: 1000 } as const;

export async function startEmbeddedReceiver(options: EmbeddedReceiverOptions = {}): Promise<EmbeddedReceiver> {
  const callbackToken = generateTestToken();
  const replyDeadlineMs = options.replyDeadlineMs ?? EMBEDDED_RECEIVER_DEFAULTS.replyDeadlineMs;
  const credentials = generateClientCredentials();
  const endpoint: RunningStatusEndpoint | undefined = options.confirms === true
    ? await startStatusEndpoint({ host: '127.0.0.1', port: 0, ...credentials })
    : undefined;
  const statusPort = typeof options.confirms === 'object' ? options.confirms.port : endpoint ? Number(new URL(endpoint.url).port) : undefined;
  const config: ReceiverConfigInput = {
    callbackToken,
    hooks: options.hooks ?? true,
    timeScale: options.timeScale ?? EMBEDDED_RECEIVER_DEFAULTS.timeScale,
    faults: options.faults ?? [],
    log: options.log ?? (() => {}),
    ...(options.tls ? { tls: { key: options.tls.key, cert: options.tls.cert } } : {}),
    ...(options.transactionIds ? { transactionIds: options.transactionIds } : {}),
    // Its own time limit on a status query: half the reply deadline, so a slow endpoint still
    // leaves time to answer within it (§6 rule 3).
    ...(statusPort !== undefined
      ? { confirms: { baseUrl: `http://127.0.0.1:${statusPort}`, ...credentials, timeoutMs: replyDeadlineMs / 2, failed: options.confirmsFailed ?? false } }
      : {}),
    ...(options.store ? { store: options.store } : {}),
    ...(options.shedding ? { shedding: true } : {}),
    ...(options.volume ? { volume: options.volume } : {}),
  };
  let receiver: RunningReceiver;
  try {
    receiver = await startReceiver(config, { host: '127.0.0.1', port: 0 });
  } catch (error) {
    await endpoint?.close();
    throw error;
  }
  const target: ResolvedReceiverTarget = {
    side: 'receiver',
    callbackUrl: receiver.callbackUrl,
    timing: { replyDeadlineMs },
  };
  if (options.tokenInTarget ?? true) target.callbackToken = callbackToken;
  if (receiver.hooksUrl) target.observe = { kind: 'hooks', url: receiver.hooksUrl };
  if (options.tls) target.caCert = options.tls.ca;
  if (options.transactionIds && (options.idsInTarget ?? true)) target.transactionIds = { ...options.transactionIds };
  if (statusPort !== undefined) target.confirms = { listener: { host: '127.0.0.1', port: statusPort, publicUrl: null }, ...credentials, status: { ...STATUS_POSITION } };
  if (endpoint) provideStatusEndpoint(target, endpoint);
  return {
    target,
    receiver,
    async close() {
      // The endpoint first: a query it still holds would keep the receiver's handler waiting.
      if (endpoint) {
        withdrawStatusEndpoint(target);
        await endpoint.close();
      }
      await receiver.close();
    },
  };
}
