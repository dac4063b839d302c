// The three vector files as text, computed from the tables. Pure: no file is touched here,
// so the stale check in suites/vectors can compare this with what is committed.
import { buildSignatureFile } from './signature.ts';
import { buildCallbackUrlFile } from './callback-url.ts';
import { buildCallbackQueryFile } from './callback-query.ts';
import { formatJson } from './assemble.ts';

export const VECTOR_FILES = ['signature.json', 'callback-url.json', 'callback-query.json'] as const;
export type VectorFileName = (typeof VECTOR_FILES)[number];

export function generateVectorFiles(): Record<VectorFileName, string> {
  return {
    'signature.json': formatJson(buildSignatureFile()),
    'callback-url.json': formatJson(buildCallbackUrlFile()),
    'callback-query.json': formatJson(buildCallbackQueryFile()),
  };
}
