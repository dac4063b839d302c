// What a case shows for its verdict (CaseResult.evidence), every key named with its own type and
// grouped by who writes it: every side (exchanges, deliveries, timing, notes), a receiver case
// (its records, the status queries it got), a client call (the signing stages, the adapter's
// lines, the scripted service), a vector (the vector, what was expected, what came back) and the
// storm (its counts, the ids that broke, the latency split). A key not named here does not
// compile (suites/results/evidence.test.ts), and reports/schema/report.schema.json names the same
// keys (the same test compares them).
//
// The shapes a producer's own module also uses (a record reading, a signer's answer, a scripted
// service answer, a storm second, percentiles) are defined here once and re-exported by that
// module under the same name, so this folder imports no other.

/**
 * How an exchange failed, as the diagnoses match it (the words are for people): no answer
 * within its limit, the connection reset or refused, an answer that is not HTTP, a TLS
 * failure, not sent at all (the case stopped while it waited, or the run gave up on the
 * command), or a line-protocol peer (an SDK's adapter) that would not start, crashed or broke
 * the protocol; `other` for anything else.
 */
export type FailureCode = 'timeout' | 'reset' | 'refused' | 'not-http' | 'tls' | 'not-sent' | 'start' | 'crashed' | 'protocol' | 'other';

export interface ExchangeFailure {
  code: FailureCode;
  /** In words, as the exchange's `error` says it. */
  message: string;
  /** The time limit that ran out (`timeout`). */
  limitMs?: number;
}

/** One HTTP exchange the harness made or saw, secrets already redacted. */
export interface Exchange {
  label?: string;
  request: {
    method: string;
    url: string;
    headers: Record<string, string | string[]>;
    body?: string;
    /** Source address the request was sent from, when not the default. */
    localAddress?: string;
  };
  response?: {
    status: number;
    headers?: Record<string, string | string[]>;
    /** The first bytes of the body. */
    bodyExcerpt?: string;
    /** The body went on past the harness's read limit (64 KiB): the rest was not read. */
    bodyTruncated?: boolean;
    /** From sending to the last byte of the answer read. */
    durationMs: number;
  };
  /** Set when no response came: time-out, reset, refused. */
  error?: string;
  /** The same, typed (its code and the limit that ran out). */
  failure?: ExchangeFailure;
  /** A command that reproduces the request (secrets replaced by environment variables). */
  curl?: string;
}

/** A callback the harness's listener received. */
export interface Delivery {
  /** Milliseconds since the case's first request. */
  atMs: number;
  method: string;
  /** The raw request target as received (`/cb?transaction_id=…`). */
  rawUrl: string;
  headers: Record<string, string | string[]>;
  /** What the listener answered. */
  answeredStatus: number;
  overHttps: boolean;
}

/** Offsets of deliveries and the intervals between them. */
export interface Timeline {
  offsetsMs: number[];
  intervalsMs: number[];
}

/** Count, p50, p99 and max of a set of times (ms). */
export interface Percentiles {
  samples: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

// A receiver's records (harness/observe).

/** The receiver's state as the suite judges it; `unmapped`: a value `states` does not map (neither terminal state). */
export type RecordState = 'pending' | 'SUCCESS' | 'FAILED' | 'unmapped';

/** One statement or request of the observation, for the evidence. */
export type ObservedStep =
  | { statement: 'seed' | 'read' | 'actions'; sql: string; parameters: Record<string, string>; rows?: Array<Record<string, unknown>>; rowCount?: number; ms: number }
  | { request: Record<string, unknown>; answer: unknown; ms: number };

/** One record as read. */
export interface RecordReading {
  transaction_id: string;
  state: RecordState;
  /** The receiver's own value, as read (null for SQL NULL). */
  value: string | null;
  /** Times an outcome was applied; absent when the target observes no actions. */
  actions?: number;
  /** How it was read (SQL: each statement, its parameters and rows; command: the lines). */
  read?: ObservedStep[];
}

/** A statement of the receiver's database that failed before it ran (no time to show). */
export interface FailedStatement {
  statement: 'seed' | 'read' | 'actions';
  sql: string;
  parameters: Record<string, string>;
}

/** A receiver's records as a case read them: the way, what seeding ran, the readings before and after, or the step that failed. */
export interface RecordsEvidence {
  /** `hooks`, `sql (postgres)`, `command …`; `none` for a black-box receiver. */
  way: string;
  seeded?: ObservedStep[];
  /** A reading, or what stood for one (`404 (no such record)`). */
  before?: RecordReading | string;
  after?: RecordReading | string;
  failed?: ObservedStep | FailedStatement;
}

// A client call through an SDK (harness/sdk, cases/client).

/** What the harness's service answered a request the SDK sent (harness/sdk). */
export type ServiceScript =
  /** The reference service checks the request and answers (accepted, or its documented refusal). */
  | { kind: 'reference' }
  /** A canned answer, whatever the request. */
  | { kind: 'answer'; status: number; contentType: string; body: string }
  /** No answer at all: the request is held open until the exchange ends. */
  | { kind: 'silent' };

/** The stages `collect-conformance sign` prints for a request's body as received, or why they could not be made. */
export type SigningEvidence =
  | { pairs: string[]; message: string; expectedSignature: string; presentedAuthorization: string | null }
  | { error: string };

// A golden vector (harness/vectors).

/** Stable codes for a signer that could not be driven (Bowtie's StartupFailed, ProtocolError …). */
export type SignerFailureCode = 'ERR_SIGNER_START' | 'ERR_SIGNER_PROTOCOL' | 'ERR_SIGNER_TIMEOUT' | 'ERR_SIGNER_CRASHED';

export type SignerAnswer =
  | { kind: 'signed'; message: string; signature: string }
  /** The signer refuses to sign this body (`{"id", "error"}`). */
  | { kind: 'refused'; error: string }
  /** The harness could not get an answer: an ERROR verdict, not the signer's opinion. */
  | { kind: 'failed'; code: SignerFailureCode; reason: string };

/** Where a signer's answer first departs from the suite's stages. */
export type DivergentStage = 'message' | 'signature';

/** A vector's expected result (vectors/*.json): as stated, refused, or one of several readings the suite accepts. */
export type VectorResult = 'valid' | 'invalid' | 'acceptable';

/** Where a vector's position comes from: the spec's text, the real service's public documentation, or the suite. */
export type PositionSource = 'spec' | 'service-docs' | 'suite';

/** The three callback parameters (§6), each as a vector states or a parser reads it. */
export interface CallbackValues {
  /** The value the receiver should act on: the last occurrence, because the service appends. */
  transaction_id?: string;
  status?: string;
  message?: string;
}

/** A callback's query as read: the three parameters, and every parameter in order of appearance, decoded. */
export interface ParsedCallbackQuery extends CallbackValues {
  all: Array<[name: string, value: string]>;
}

/** The vector a case ran, as much of it as a reader needs (the whole is in vectors/*.json). */
export type VectorShown =
  | { tcId: number; result: VectorResult; flags: string[]; body: string; source?: PositionSource }
  | { tcId: number; callbackUrl: string; params: Required<CallbackValues> }
  | { tcId: number; requestTarget: string };

// The storm (harness/storm, harness/artillery).

/**
 * The storm's counts: the outcomes and bad-token ids every case shows, the attempt counts of a
 * delivery log (absent when judged on Artillery's counters), and each case's own.
 */
export interface StormCounts {
  outcomes: number;
  badTokenIds: number;
  attempts?: number;
  validAttempts?: number;
  retries?: number;
  /** Valid attempts per valid outcome (K planned; more means retries). */
  retryAmplification?: number;
  plannedCopies?: number;
  /** Attempts by answer: the status, or `no reply (timeout)`. */
  answers?: Record<string, number>;
  /** How the records were read: many per statement or request, or one by one. */
  recordsRead?: 'many' | 'one by one';
  // storm.exactly-once
  appliedMoreThanOnce?: number;
  otherState?: number;
  // storm.none-lost (null: a cut-short Artillery run cannot tell them apart)
  lost?: number | null;
  notReached?: number | null;
  notDelivered?: number;
  pending?: number;
  // storm.bad-token-inert
  changed?: number;
  answered2xx?: number;
  // storm.shedding
  shedAnswers?: number;
  shedOutcomes?: number;
  /** Per cent of the valid attempts. */
  shedShare?: number;
  stillShed?: number;
  convergeMs?: number;
  // Artillery's counters (judged on its report)
  replays?: number;
  virtualUsers?: number;
  late?: number;
  noReply?: number;
  badTokenAnswered2xx?: number;
}

/** One id's whole history in the storm: what was sent, the record as read, every delivery. */
export interface IdHistory {
  transaction_id: string;
  /** The outcome sent, or `SUCCESS with bad tokens only`. */
  sent: string;
  /** The record as read after the storm: `SUCCESS, actions 1`. */
  record: string;
  deliveries: Array<{
    copy: number;
    attempt: number;
    /** The token kind sent (valid, or a kind of bad one). */
    token: string;
    /** Times from the storm's start (ms, 0.1 ms; null: never). */
    intendedMs: number | null;
    onWireMs: number | null;
    endMs: number | null;
    /** The status, or `no reply (timeout)`. */
    answer: number | string;
    retryAfterS?: number;
  }>;
}

/** Per second of intended send: attempts sent, their p99 (ms), and how many were not answered 2xx. */
export interface StormSecond {
  second: number;
  sent: number;
  p99Ms: number;
  notOk: number;
}

/** storm.reply-deadline's latency, split where it was spent. */
export interface LatencySplit {
  /** intended send → on the wire (the driver's schedule and its connection pool). */
  kitWait: Percentiles;
  /** on the wire → the reply's last byte. */
  onWire: Percentiles;
  /** intended send → handed to the HTTP client: the driver's own lateness. */
  driverLag: Percentiles;
  /** The driver's loop standing still: how often, the longest, and the ms of it inside attempts (summed). */
  driverStalls: { count: number; longestMs: number; withinAttemptsMs: number };
  /** p99 with the driver's own lateness, and its loop's stalls while the attempt was its own, taken out of each attempt. */
  p99WithoutDriverLagMs: number;
}

/** Artillery's summary of a histogram (its sketch: about 1 % relative error). */
export interface ArtillerySummary {
  count: number;
  p50: number;
  p99: number;
  max: number;
}

/** What an Artillery storm's report showed: the counters that matter and the two latency summaries. */
export interface ArtilleryEvidence {
  counters: Record<string, number>;
  'collect.delivery_ms'?: ArtillerySummary;
  'http.response_time'?: ArtillerySummary;
}

// The groups, and Evidence.

/** Written on every side. */
export interface CommonEvidence {
  exchanges?: Exchange[];
  deliveries?: Delivery[];
  /** Offsets of deliveries and the intervals between them, for retry cases. */
  timeline?: Timeline;
  /** Latency statistics, for latency cases. */
  latency?: Percentiles;
  /** Anything else a case wants to show, as plain facts. */
  notes?: string[];
}

/** Written by a receiver case (cases/receiver) and the receiver's preflight. */
export interface ReceiverEvidence {
  records?: RecordsEvidence;
  /** The status queries a confirming receiver sent about the case's ids (§4.2). */
  statusQueries?: Exchange[];
}

/** Written by a client case for each SDK call (cases/client evidenceOf). */
export interface ClientCallEvidence {
  /** For each request the SDK sent, the stages the suite signs it in. */
  signing?: SigningEvidence[];
  /** The adapter's request line and its answer line (null: none). */
  adapter?: { sent: string; answered: string | null };
  serviceScript?: ServiceScript;
}

/** Written by a vectors case (harness/vectors). */
export interface VectorEvidence {
  vector?: VectorShown;
  /** A signature vector's stages; a callback-url vector's URL; a callback-query vector's parameters. */
  expected?: { message: string; signature: string; mustDifferFrom?: string } | string | CallbackValues;
  /** The URL the built-in composer made (callback-url). */
  composed?: string;
  /** What the built-in parser read (callback-query). */
  parsed?: ParsedCallbackQuery;
  /** The signer's answer (signature). */
  answer?: SignerAnswer;
  stage?: DivergentStage;
  /** The labelled alternative the answer reproduces, when exactly one does. */
  alternative?: string;
  /** Every set of labelled alternatives that reproduces the answer (several: ambiguous). */
  fits?: string[][];
}

/** Written by the storm's judge (harness/storm) and Artillery's (harness/artillery). */
export interface StormEvidence {
  counts?: StormCounts;
  /** The first ids that broke the rule, each with its whole history. */
  firstIds?: IdHistory[];
  latencySplit?: LatencySplit;
  late?: number;
  timedOut?: number;
  replyDeadlineMs?: number;
  /** The driver's own event loop delay. */
  driverEventLoop?: { p99Ms: number; maxMs: number };
  perSecond?: StormSecond[];
  artillery?: ArtilleryEvidence;
}

export interface Evidence extends CommonEvidence, ReceiverEvidence, ClientCallEvidence, VectorEvidence, StormEvidence {}

/** Every key of Evidence, once, by group (suites/results/evidence.test.ts compares the list with the type and the schema). */
export const EVIDENCE_KEYS = [
  'exchanges', 'deliveries', 'timeline', 'latency', 'notes',
  'records', 'statusQueries',
  'signing', 'adapter', 'serviceScript',
  'vector', 'expected', 'composed', 'parsed', 'answer', 'stage', 'alternative', 'fits',
  'counts', 'firstIds', 'latencySplit', 'late', 'timedOut', 'replyDeadlineMs', 'driverEventLoop', 'perSecond', 'artillery',
] as const satisfies ReadonlyArray<keyof Evidence>;
