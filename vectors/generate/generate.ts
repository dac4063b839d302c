// The three vector files as text, computed from the tables. Pure: no file is touched here,
// so the stale check in suites/vectors can compare this with what is committed.
import { buildSignatureFile } from './signature.ts';
import { buildCallbackUrlFile } from './callback-url.ts';
import { buildCallbackQueryFile } from './callback-query.ts';
import { formatJson } from './assemble.ts';

export const VECTOR_FILES = ['signature.json', 'callback-url.json', 'callback-query.json'] as const;
export type VectorFileName = (typeof VECTOR_FILES)[number];

const BUILDERS: Record<VectorFileName, () => unknown> = {
  'signature.json': buildSignatureFile,
  'callback-url.json': buildCallbackUrlFile,
  'callback-query.json': buildCallbackQueryFile,
};

/** One vector file as text. */
export function generateVectorFile(name: VectorFileName): string {
  return formatJson(BUILDERS[name]());
}

export function generateVectorFiles(): Record<VectorFileName, string> {
  return Object.fromEntries(VECTOR_FILES.map((name) => [name, generateVectorFile(name)])) as Record<VectorFileName, string>;
}
