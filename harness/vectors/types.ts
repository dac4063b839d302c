// The shapes of the golden vector files (vectors/*.json), as the shared brief fixes them.
// The JSON Schemas in vectors/schemas/ are the authority; these types follow them.

import type { CallbackValues, PositionSource, VectorResult } from '../results/index.ts';

// A vector case's evidence shows these as they are: named there (harness/results).
export type { PositionSource, VectorResult };

export interface FlagNote {
  bugType: string;
  description: string;
  effect?: string;
}

/** Common header of every vector file (Wycheproof style). */
export interface VectorFileHeader {
  algorithm: string;
  schema: string;
  version: string;
  specRef: string;
  numberOfTests: number;
  header: string[];
  notes: Record<string, FlagNote>;
  /** signature.json: what each test's `source` means. */
  sources?: Record<PositionSource, string>;
}

interface VectorBase {
  tcId: number;
  comment: string;
  flags: string[];
  specRef?: string;
  result: VectorResult;
}

export interface SignatureAlternative {
  label: string;
  message: string;
  signature: string;
}

export interface SignatureVector extends VectorBase {
  source?: PositionSource;
  secret: string;
  clientKey?: string;
  /** The raw JSON text, the bytes sent. */
  body: string;
  pairs: Array<[string, string]>;
  message: string;
  signature: string;
  authorization?: string;
  /** Only in `invalid` tests: the signature that must be refused. */
  presentedSignature?: string;
  alternatives?: SignatureAlternative[];
}

export interface CallbackUrlVector extends VectorBase {
  callbackUrl: string;
  params: { transaction_id: string; status: string; message: string };
  url: string;
  requestTarget?: string;
  alternatives?: Array<{ label: string; url: string }>;
}

export interface CallbackQueryVector extends VectorBase {
  requestTarget: string;
  expected: CallbackValues;
  all: Array<[string, string]>;
  alternatives?: Array<{ label: string; expected: CallbackValues }>;
}

export interface VectorFiles {
  signature: VectorFileHeader & { tests: SignatureVector[] };
  'callback-url': VectorFileHeader & { tests: CallbackUrlVector[] };
  'callback-query': VectorFileHeader & { tests: CallbackQueryVector[] };
}

export type VectorFileName = keyof VectorFiles;
export const VECTOR_FILE_NAMES: readonly VectorFileName[] = ['signature', 'callback-url', 'callback-query'];

/** `vectors.<file>.<tcId>` (DESIGN.md). */
export function vectorCaseId(file: VectorFileName, tcId: number): string {
  return `vectors.${file}.${tcId}`;
}
