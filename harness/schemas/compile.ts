// Checking a value against a JSON Schema (2020-12) with ajv, and saying what is wrong by the
// JSON pointer of the bad field. Every schema the harness ships (target files, waivers,
// report.json, the reference servers' config files, golden vectors) is checked through here.
// ajv is loaded only when a schema is compiled: a schema checked at start-up is compiled by the
// build instead (`precompiled`), so the installed command starts without loading ajv or
// compiling (about 75 ms of every `run --target`).
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { Ajv2020, ErrorObject, Options } from 'ajv/dist/2020.js';
import { MAX_JSON_DEPTH, tooDeep } from './depth.ts';

const require = createRequire(import.meta.url);

/** One thing wrong with a value. */
export interface SchemaProblem {
  /**
   * JSON pointer of the bad field ('' for the whole document). An unknown key and a missing
   * property are named by their own path (`/timing/replyDeadline`), not the object's.
   */
  path: string;
  /** `must be integer`, `unknown key`, `is required`, `must be one of ["a","b"]`, `must be "x"`, else ajv's message. */
  message: string;
  /** The schema keyword that failed: `type`, `required`, `additionalProperties`, `enum`, … */
  keyword: string;
  /** Where in the schema it failed (`#/$defs/httpUrl/pattern`), for a rule worded its own way. */
  schemaPath: string;
  /** With `additionalProperties` and `required`: the key named. */
  key?: string;
  /** The value at `path` (undefined for a missing property). Never print it unchecked: it may be a secret. */
  value?: unknown;
  /** ajv's own wording (path of the object holding a key, "must have required property 'x'"), for messages users already rely on. */
  ajv: { path: string; message: string };
}

export interface CompileSchemaOptions {
  /** ajv strict mode: unknown keywords and formats are schema errors (default true). */
  strict?: boolean;
  /** Under strict mode, `required` naming a property the schema does not define is an error (default: as `strict`). */
  strictRequired?: boolean;
  /** `"type": ["string", "null"]` without strict-mode complaints (default false). */
  allowUnionTypes?: boolean;
  /** The ajv-formats formats (`date`, `uri`, …) (default true). */
  formats?: boolean;
  /**
   * Where the build writes this schema's check as standalone code (`writePrecompiledSchemas`),
   * beside the compiled module. Loaded instead of compiling when it is there, as in the installed
   * package; a checkout, which has none, compiles.
   */
  precompiled?: URL;
}

/** [] when the value is valid. */
export type SchemaCheck = (value: unknown) => SchemaProblem[];

type Validate = ReturnType<Ajv2020['compile']>;

/** A schema to be compiled by the build, with its options: every compileSchema given `precompiled`. */
export interface PrecompiledSchema {
  schema: object;
  options: CompileSchemaOptions & { precompiled: URL };
}

const toPrecompile: PrecompiledSchema[] = [];

/** The schemas registered with `precompiled` by the modules loaded so far. */
export function schemasToPrecompile(): readonly PrecompiledSchema[] {
  return toPrecompile;
}

/**
 * Compiles on first use (importing a module that owns a schema costs nothing), one Ajv instance
 * per schema so that two schemas with the same `$id` never clash.
 */
export function compileSchema(schema: object, options: CompileSchemaOptions = {}): SchemaCheck {
  const { precompiled } = options;
  if (precompiled) toPrecompile.push({ schema, options: { ...options, precompiled } });
  let validate: Validate | undefined;
  return (value) => {
    // Before ajv and every walk after it: a value nested this deep would overflow their stacks.
    const deep = tooDeep(value);
    if (deep) {
      const message = `nests arrays or objects more than ${MAX_JSON_DEPTH} levels deep; no file of this kit nests more than a few`;
      return [{ path: deep.path, message, keyword: 'maxDepth', schemaPath: '#', ajv: { path: deep.path, message } }];
    }
    validate ??= precompiled && existsSync(precompiled) ? require(fileURLToPath(precompiled)) as Validate : compile(schema, options);
    return validate(value) ? [] : problemsOf(validate.errors ?? []);
  };
}

/** The Ajv instance a schema is compiled with, at run time or (with `code`) by the build. */
export function ajvFor(options: CompileSchemaOptions, code?: Options['code']): Ajv2020 {
  const { Ajv2020 } = require('ajv/dist/2020.js') as typeof import('ajv/dist/2020.js');
  const ajv = new Ajv2020({
    allErrors: true,
    verbose: true, // gives each error its data, for `value`
    strict: options.strict ?? true,
    ...(options.strictRequired !== undefined ? { strictRequired: options.strictRequired } : {}),
    ...(options.allowUnionTypes ? { allowUnionTypes: true } : {}),
    ...(code ? { code } : {}),
  });
  if (options.formats ?? true) (require('ajv-formats') as typeof import('ajv-formats')).default(ajv);
  return ajv;
}

function compile(schema: object, options: CompileSchemaOptions): Validate {
  return ajvFor(options).compile(schema);
}

function problemsOf(errors: readonly ErrorObject[]): SchemaProblem[] {
  const seen = new Set<string>();
  const out: SchemaProblem[] = [];
  for (const e of errors) {
    if (e.keyword === 'if') continue; // "must match then schema": the then-errors say why
    const problem = toProblem(e);
    const key = `${problem.path}\u0000${problem.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(problem);
  }
  // "must match a schema in anyOf" adds nothing when its branches said why.
  const branch = (p: SchemaProblem) => p.keyword === 'anyOf' || p.keyword === 'oneOf';
  return out.filter((p) => !(branch(p) && out.some((q) => !branch(q) && within(q.path, p.path))));
}

function within(path: string, prefix: string): boolean {
  return path === prefix || path.startsWith(`${prefix}/`);
}

function toProblem(e: ErrorObject): SchemaProblem {
  const params = e.params as Record<string, unknown>;
  const ajvMessage = e.message ?? 'is invalid';
  const base = { keyword: e.keyword, schemaPath: e.schemaPath, ajv: { path: e.instancePath, message: ajvMessage } };
  switch (e.keyword) {
    case 'additionalProperties': {
      const key = String(params['additionalProperty']);
      const value = (e.data as Record<string, unknown> | undefined)?.[key];
      return { ...base, path: `${e.instancePath}/${escapePointer(key)}`, message: 'unknown key', key, value };
    }
    case 'required': {
      const key = String(params['missingProperty']);
      return { ...base, path: `${e.instancePath}/${escapePointer(key)}`, message: 'is required', key };
    }
    case 'enum':
      return { ...base, path: e.instancePath, message: `must be one of ${JSON.stringify(params['allowedValues'])}`, value: e.data };
    case 'const':
      return { ...base, path: e.instancePath, message: `must be ${JSON.stringify(params['allowedValue'])}`, value: e.data };
    default:
      return { ...base, path: e.instancePath, message: ajvMessage, value: e.data };
  }
}

/** RFC 6901: `~` → `~0`, `/` → `~1`. */
function escapePointer(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** `/timing/callbackTimeoutMs: must be integer` (the whole document is `/`). */
export function formatProblem(problem: Pick<SchemaProblem, 'path' | 'message'>): string {
  return `${problem.path || '/'}: ${problem.message}`;
}

/** `/a/b: must be integer; /c: unknown key` */
export function formatProblems(problems: ReadonlyArray<Pick<SchemaProblem, 'path' | 'message'>>): string {
  return problems.map(formatProblem).join('; ');
}
