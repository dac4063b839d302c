// Checking a value against a JSON Schema (2020-12) with ajv, and saying what is wrong by the
// JSON pointer of the bad field. Every schema the harness ships (target files, waivers,
// report.json, the reference servers' config files, golden vectors) is checked through here.
import { Ajv2020, type ErrorObject } from 'ajv/dist/2020.js';
import ajvFormats from 'ajv-formats';

const addFormats = ajvFormats.default;

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
}

/** [] when the value is valid. */
export type SchemaCheck = (value: unknown) => SchemaProblem[];

/**
 * Compiles on first use (importing a module that owns a schema costs nothing), one Ajv instance
 * per schema so that two schemas with the same `$id` never clash.
 */
export function compileSchema(schema: object, options: CompileSchemaOptions = {}): SchemaCheck {
  let validate: ReturnType<Ajv2020['compile']> | undefined;
  return (value) => {
    validate ??= compile(schema, options);
    return validate(value) ? [] : problemsOf(validate.errors ?? []);
  };
}

function compile(schema: object, options: CompileSchemaOptions): ReturnType<Ajv2020['compile']> {
  const ajv = new Ajv2020({
    allErrors: true,
    verbose: true, // gives each error its data, for `value`
    strict: options.strict ?? true,
    ...(options.strictRequired !== undefined ? { strictRequired: options.strictRequired } : {}),
    ...(options.allowUnionTypes ? { allowUnionTypes: true } : {}),
  });
  if (options.formats ?? true) addFormats(ajv);
  return ajv.compile(schema);
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
