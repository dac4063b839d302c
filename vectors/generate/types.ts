// Shapes of the input tables (plain data, edited by hand) and of the generated vector files.
// The tables hold only what a person decides; every computed stage comes from harness/.

export type VectorResult = 'valid' | 'invalid' | 'acceptable';

export type BugType =
  | 'BASIC'            // the rule as the spec states it
  | 'EDGE_CASE'        // the stated rule at an edge (escapes, big input, odd characters)
  | 'INTERPRETIVE'     // the spec is silent; the suite takes a position
  | 'MODIFIED_BODY'    // the body changed after signing
  | 'MODIFIED_SIGNATURE' // the signature changed or was made wrongly
  | 'PROPERTY';        // a property of the canonical form itself

export interface Note {
  bugType: BugType;
  /** What rule the flag exercises. */
  description: string;
  /** What an implementation that gets it wrong does or risks. */
  effect: string;
}

interface RowBase {
  /** Stable forever: never renumber, never reuse. */
  tcId: number;
  /** A present-tense fact, under about 70 characters. */
  comment: string;
  flags: string[];
  specRef: string;
  result: VectorResult;
}

/** How the presented signature of an `invalid` test is made. */
export type Tamper =
  | { kind: 'signed-body'; body: string }           // the signature of another (e.g. the untampered) body
  | { kind: 'wrong-secret'; secret: string }        // the right message under another secret
  | { kind: 'upper-case' }                          // the right signature in upper-case hex
  | { kind: 'truncate'; length: number }            // a prefix of the right signature
  | { kind: 'flip-last' }                           // the last hex digit changed
  | { kind: 'alternative'; label: string }          // what a signer following a labelled alternative presents
  | { kind: 'signed-message'; message: string };    // the HMAC of a hand-written (wrong) message

/** Where a position comes from: the spec's text, the real service's public documentation, or the suite. */
export type PositionSource = 'spec' | 'service-docs' | 'suite';

export interface SignatureRow extends RowBase {
  /** Default: sourceOfRow() in the table. */
  source?: PositionSource;
  /** The raw JSON text, exactly the bytes sent. */
  body: string;
  tamper?: Tamper;
}

export interface CallbackUrlRow extends RowBase {
  callbackUrl: string;
  params: { transaction_id: string; status: string; message: string };
}

export interface CallbackQueryRow extends RowBase {
  /** Path and query as they reach the receiver (never a fragment). */
  requestTarget: string;
}

export interface FileHeader {
  algorithm: string;
  schema: string;
  version: string;
  specRef: string;
  header: string[];
  notes: Record<string, Note>;
}

export interface SignatureVector {
  tcId: number;
  comment: string;
  flags: string[];
  specRef: string;
  secret: string;
  clientKey: string;
  body: string;
  pairs: Array<[string, string]>;
  message: string;
  signature: string;
  authorization: string;
  presentedSignature?: string;
  alternatives: Array<{ label: string; message: string; signature: string }>;
  result: VectorResult;
  source: PositionSource;
}

export interface CallbackParamsOut {
  transaction_id: string;
  status: string;
  message: string;
}

export interface CallbackUrlVector {
  tcId: number;
  comment: string;
  flags: string[];
  specRef: string;
  callbackUrl: string;
  params: CallbackParamsOut;
  url: string;
  requestTarget: string;
  alternatives: Array<{ label: string; url: string }>;
  result: VectorResult;
}

export interface CallbackQueryVector {
  tcId: number;
  comment: string;
  flags: string[];
  specRef: string;
  requestTarget: string;
  expected: CallbackParamsOut;
  all: Array<[string, string]>;
  /** null: that parser does not find the parameter at all. */
  alternatives: Array<{ label: string; expected: { [K in keyof CallbackParamsOut]: string | null } }>;
  result: VectorResult;
}

export interface VectorFile<T> extends FileHeader {
  numberOfTests: number;
  tests: T[];
}
