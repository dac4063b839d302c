// Loading a golden vector file from the package's vectors/ folder (or another folder, for a
// newer set or a test fixture), validated against its JSON Schema when one ships beside it.
import { readFileSync, existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { compileSchema, formatProblems, readJsonFile, type SchemaCheck } from '../schemas/index.ts';
import type { VectorFileName, VectorFiles } from './types.ts';

export type VectorFileErrorCode = 'ERR_VECTOR_FILE_MISSING' | 'ERR_VECTOR_FILE_INVALID';

export class VectorFileError extends Error {
  override readonly name = 'VectorFileError';
  constructor(readonly code: VectorFileErrorCode, message: string) {
    super(message);
  }
}

/** The package's own vectors/ folder, found from this file so it works installed or checked out. */
export const PACKAGE_VECTORS_DIR = fileURLToPath(new URL('../../vectors/', import.meta.url));

export interface LoadVectorFileOptions {
  /** Folder holding `<name>.json` and `schemas/<name>.schema.json`; default the package's vectors/. */
  dir?: string;
}

export function loadVectorFile<N extends VectorFileName>(name: N, options: LoadVectorFileOptions = {}): VectorFiles[N] {
  const dir = options.dir ?? PACKAGE_VECTORS_DIR;
  const file = join(dir, `${name}.json`);
  if (!existsSync(file)) throw new VectorFileError('ERR_VECTOR_FILE_MISSING', `vector file ${file} does not exist`);
  const read = readJsonFile(file);
  if (!read.ok) throw new VectorFileError('ERR_VECTOR_FILE_INVALID', `${file}: ${read.reason}`);
  const data = read.value;
  const schemaFile = join(dir, 'schemas', `${name}.schema.json`);
  if (existsSync(schemaFile)) {
    const problems = checkerFor(schemaFile)(data);
    if (problems.length > 0) {
      throw new VectorFileError('ERR_VECTOR_FILE_INVALID', `${file}: ${formatProblems(problems.slice(0, 5))}`);
    }
  } else if (!isVectorFileShape(data)) {
    throw new VectorFileError('ERR_VECTOR_FILE_INVALID', `${file}: expected an object with a "tests" array`);
  }
  return data as VectorFiles[N];
}

function isVectorFileShape(data: unknown): boolean {
  return typeof data === 'object' && data !== null && Array.isArray((data as { tests?: unknown }).tests);
}

// One check (one Ajv) per schema file, so the same $id in a fixture set and the package's never
// clash. Not strict (as before): the schema may come from another set than the package's.
const checks = new Map<string, SchemaCheck>();

function checkerFor(schemaFile: string): SchemaCheck {
  let check = checks.get(schemaFile);
  if (!check) {
    check = compileSchema(JSON.parse(readFileSync(schemaFile, 'utf8')) as object, { strict: false });
    checks.set(schemaFile, check);
  }
  return check;
}
