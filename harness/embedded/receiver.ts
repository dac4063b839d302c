// The embedded receiver target: the reference receiver in-process on 127.0.0.1:0, with a
// generated token, hooks on and scaled time, resolved as a target file would be.
import { generateTestToken, startReceiver, type ReceiverConfig, type ReceiverFault, type RunningReceiver } from '../receiver/index.ts';
import type { TransactionIdShape } from '../ids/index.ts';
import type { ResolvedReceiverTarget } from '../targets/index.ts';

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
  /** Keep the records in this database instead of in memory (the receiver's SQL store). */
  store?: ReceiverConfig['store'];
}

export interface EmbeddedReceiver {
  target: ResolvedReceiverTarget;
  receiver: RunningReceiver;
  close(): Promise<void>;
}

export const EMBEDDED_RECEIVER_DEFAULTS = { timeScale: 0.02, replyDeadlineMs: 1000 } as const;

export async function startEmbeddedReceiver(options: EmbeddedReceiverOptions = {}): Promise<EmbeddedReceiver> {
  const callbackToken = generateTestToken();
  const config: Partial<ReceiverConfig> = {
    callbackToken,
    hooks: options.hooks ?? true,
    timeScale: options.timeScale ?? EMBEDDED_RECEIVER_DEFAULTS.timeScale,
    faults: options.faults ?? [],
    log: options.log ?? (() => {}),
    ...(options.tls ? { tls: { key: options.tls.key, cert: options.tls.cert } } : {}),
    ...(options.transactionIds ? { transactionIds: options.transactionIds } : {}),
    ...(options.store ? { store: options.store } : {}),
  };
  const receiver = await startReceiver(config, { host: '127.0.0.1', port: 0 });
  const target: ResolvedReceiverTarget = {
    side: 'receiver',
    callbackUrl: receiver.callbackUrl,
    timing: { replyDeadlineMs: options.replyDeadlineMs ?? EMBEDDED_RECEIVER_DEFAULTS.replyDeadlineMs },
  };
  if (options.tokenInTarget ?? true) target.callbackToken = callbackToken;
  if (receiver.hooksUrl) target.observe = { kind: 'hooks', url: receiver.hooksUrl };
  if (options.tls) target.caCert = options.tls.ca;
  if (options.transactionIds && (options.idsInTarget ?? true)) target.transactionIds = { ...options.transactionIds };
  return { target, receiver, close: () => receiver.close() };
}
