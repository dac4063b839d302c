// Targets after loading: secrets resolved from the environment, defaults applied, CA read.
import type { RejectionRule } from '../client/index.ts';
import type { TransactionIdShape } from '../ids/index.ts';
import type { LinePeer } from '../line-protocol/index.ts';
import type { ObserveSpec } from '../observe/index.ts';
import type { StatusEndpoint, StatusForm } from '../status/index.ts';

export interface ResolvedReceiverTarget {
  side: 'receiver';
  callbackUrl: string;
  callbackToken?: string;
  /**
   * How the harness sees the receiver's records: the test hooks (the file's `hooksUrl`), its
   * database or a command (the file's `observe`); absent for a black-box receiver.
   */
  observe?: ObserveSpec;
  timing: { replyDeadlineMs: number };
  /** PEM to trust for an https receiver (target key `"ca": {"file": …}`). */
  caCert?: string;
  /** The ids the receiver accepts (absent: the harness's own ids, template `{id}`). */
  transactionIds?: TransactionIdShape;
  /** The receiver confirms outcomes with the status endpoint before fulfilment (§6 rule 5); absent: it does not. */
  confirms?: ReceiverConfirms;
}

/**
 * Where the harness serves the status endpoint a confirming receiver calls (its port fixed: the
 * receiver is configured with it before the run), and the credentials its queries are signed with.
 */
export interface ReceiverConfirms {
  listener: { host: string; port: number; publicUrl: string | null };
  clientId: number;
  clientKey: string;
  secretKey: string;
  /** What the receiver calls: the target file's `status` over the suite's position. */
  status: StatusEndpoint;
  /** How the harness's endpoint spells its answers (the target file's `confirms.statusForm`); absent: REFERENCE_STATUS_FORM. */
  statusForm?: StatusForm;
}

export interface ResolvedServiceTarget {
  side: 'service';
  baseUrl: string;
  mode: 'sandbox' | 'production';
  clientId: number;
  clientKey: string;
  secretKey: string;
  callbackToken?: string;
  networkCode: string;
  customerNumbers: { whitelisted: string[]; failing?: string[]; notWhitelisted: string[] };
  sources?: { notWhitelisted?: { localAddress: string } | { proxy: string } };
  listener: { host: string; port: number; publicUrl: string | null; tls: boolean; plainPublicUrl?: string | null };
  timing: { callbackTimeoutMs: number; retryWindowMs: number };
  /** PEM to trust for an https baseUrl. */
  caCert?: string;
  /** The ids the service accepts (absent: the harness's own ids, template `{id}`). */
  transactionIds?: TransactionIdShape;
  /** How a 2xx answer says "rejected" (absent: DEFAULT_REJECTION of harness/client). */
  rejection?: RejectionRule[];
  /**
   * The transaction status endpoint (§4.2): the target file's `status` over the suite's position
   * (absent: STATUS_POSITION of harness/status); `false`: none the harness can query.
   */
  status?: StatusEndpoint | false;
}

/**
 * An SDK driven through its adapter (DESIGN.md "Client SDKs"): a command started through
 * `sh -c`, or, for the embedded default and the self-tests, the reference SDK's adapter in this
 * process (with its fault switches). The credentials are generated when the target is resolved:
 * the harness's own reference service knows them, the adapter receives them with every
 * request, and reports redact them like any secret.
 */
export type ResolvedClientTarget = ({ command: string; inProcess?: never } | { inProcess: InProcessAdapter; command?: never }) & {
  side: 'client';
  timing: { answerDeadlineMs: number };
  clientId: number;
  clientKey: string;
  secretKey: string;
  /** None on this side: the harness runs its own service (stated, so code reading any target may ask). */
  callbackToken?: undefined;
  transactionIds?: undefined;
  caCert?: undefined;
};

/**
 * The reference SDK's adapter in this process, with these fault switches on (names of
 * harness/reference-sdk); or, for the kit's own tests, an adapter of their making in this process
 * (a peer of the line protocol: the same lines and failure handling as a command, no child process).
 */
export type InProcessAdapter = { adapter: 'reference-sdk'; faults: readonly string[] } | { adapter: 'peer'; peer: LinePeer };

export type ResolvedTarget = ResolvedReceiverTarget | ResolvedServiceTarget | ResolvedClientTarget;

/** DESIGN.md defaults, applied when the target file leaves the key out. */
export const TARGET_DEFAULTS = {
  receiver: { timing: { replyDeadlineMs: 3000 } },
  service: {
    listener: { host: '127.0.0.1', port: 0, publicUrl: null, tls: false },
    timing: { callbackTimeoutMs: 10_000, retryWindowMs: 20_000 },
  },
  client: { timing: { answerDeadlineMs: 10_000 }, clientId: 2 },
} as const;

/** Keys whose values are `{"env": "NAME"}` references, never literal secrets. */
export const SECRET_KEYS = ['clientKey', 'secretKey', 'callbackToken'] as const;
export type SecretKey = (typeof SECRET_KEYS)[number];
/** The same, inside a receiver target's `confirms`. */
export const CONFIRMS_SECRET_KEYS = ['clientKey', 'secretKey'] as const;
