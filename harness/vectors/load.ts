// Loading a golden vector file from the package's vectors/ folder (or another folder, for a
// newer set or a test fixture), validated against its JSON Schema when one ships beside it.
import { readFileSync, existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import ajvFormats from 'ajv-formats';
import type { VectorFileName, VectorFiles } from './types.ts';

const addFormats = ajvFormats.default;

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
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new VectorFileError('ERR_VECTOR_FILE_INVALID', `${file}: not JSON (${(error as Error).message})`);
  }
  const schemaFile = join(dir, 'schemas', `${name}.schema.json`);
  if (existsSync(schemaFile)) {
    const problems = validateAgainst(schemaFile, data);
    if (problems.length > 0) {
      throw new VectorFileError('ERR_VECTOR_FILE_INVALID', `${file}: ${problems.slice(0, 5).join('; ')}`);
    }
  } else if (!isVectorFileShape(data)) {
    throw new VectorFileError('ERR_VECTOR_FILE_INVALID', `${file}: expected an object with a "tests" array`);
  }
  return data as VectorFiles[N];
}

function isVectorFileShape(data: unknown): boolean {
  return typeof data === 'object' && data !== null && Array.isArray((data as { tests?: unknown }).tests);
}

const validators = new Map<string, ReturnType<Ajv2020['compile']>>();

function validateAgainst(schemaFile: string, data: unknown): string[] {
  let validate = validators.get(schemaFile);
  if (!validate) {
    const ajv = new Ajv2020({ allErrors: true, strict: false });
    addFormats(ajv);
    const schema = JSON.parse(readFileSync(schemaFile, 'utf8')) as Record<string, unknown>;
    // One Ajv per schema file, so the same $id in a fixture set and the package's never clash.
    validate = ajv.compile(schema);
    validators.set(schemaFile, validate);
  }
  if (validate(data)) return [];
  return (validate.errors ?? []).map((e) => `${e.instancePath || '/'}: ${e.message ?? 'invalid'}`);
}
