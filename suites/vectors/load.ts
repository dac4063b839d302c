// Reads the committed vector files and their schemas, as an SDK author would: plain JSON.
import { readFileSync } from 'node:fs';
import type {
  CallbackQueryVector, CallbackUrlVector, SignatureVector, VectorFile,
} from '../../vectors/generate/types.ts';

export const VECTORS_DIR = new URL('../../vectors/', import.meta.url);

export function readVectorText(name: string): string {
  return readFileSync(new URL(name, VECTORS_DIR), 'utf8');
}

export function readJson(name: string): unknown {
  return JSON.parse(readVectorText(name));
}

export const signatureFile = () => readJson('signature.json') as VectorFile<SignatureVector>;
export const callbackUrlFile = () => readJson('callback-url.json') as VectorFile<CallbackUrlVector>;
export const callbackQueryFile = () => readJson('callback-query.json') as VectorFile<CallbackQueryVector>;

/** Each vector file with its schema and the minimum number of tests issue 2 asks for. */
export const FILES = [
  { name: 'signature.json', schema: 'schemas/signature.schema.json', minTests: 80 },
  { name: 'callback-url.json', schema: 'schemas/callback-url.schema.json', minTests: 30 },
  { name: 'callback-query.json', schema: 'schemas/callback-query.schema.json', minTests: 20 },
] as const;
