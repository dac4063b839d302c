// Target file → resolved target: JSON Schema (2020-12) first, then the environment for
// `{"env": …}` references, then defaults and the CA file.
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { DEFAULT_ID_TEMPLATE, shapeProblems, type TransactionIdShape } from '../ids/index.ts';
import { compileStatement, parseDatabaseUrl, type CompiledStatement, type Dialect } from '../database/index.ts';
import { statesProblems, type ObserveSpec, type StateMap } from '../observe/index.ts';
import { secretValueProblem } from '../secrets/index.ts';
import { REFERENCE_STATUS_FORM, STATUS_POSITION, type StatusEndpoint, type StatusForm } from '../status/index.ts';
import { compileSchema, parseJson, readJsonFile, type SchemaProblem } from '../schemas/index.ts';
import { TargetFileError } from './errors.ts';
import { generateClientCredentials } from './credentials.ts';
import { CONFIRMS_SECRET_KEYS, SECRET_KEYS, TARGET_DEFAULTS, type ReceiverConfirms, type ResolvedClientTarget, type ResolvedReceiverTarget, type ResolvedServiceTarget, type ResolvedTarget } from './types.ts';
import { rememberSecretRefs } from './redact.ts';
import { rememberDefaults } from './defaults.ts';

export const TARGET_SCHEMA_URL = new URL('./target.schema.json', import.meta.url);
export const TARGET_SCHEMA = JSON.parse(readFileSync(TARGET_SCHEMA_URL, 'utf8')) as Record<string, unknown>;

// Checked at every run's start: compiled by the build.
const checkTarget = compileSchema(TARGET_SCHEMA, {
  strictRequired: false, allowUnionTypes: true, precompiled: new URL('./target.schema.check.cjs', import.meta.url),
});

type Env = Record<string, string | undefined>;

export interface ParseTargetOptions {
  /** Where relative `ca.file` paths start, and an observe command runs (default: the current directory). */
  baseDir?: string;
  /** Named in error messages (the file path). */
  source?: string;
}

/** Reads, validates and resolves a target file. Throws TargetFileError (ERR_TARGET_INVALID). */
export function loadTargetFile(path: string, env: Env = process.env): ResolvedTarget {
  const read = readJsonFile(path);
  if (!read.ok) throw new TargetFileError([{ pointer: '', message: read.reason }], path);
  return resolveTarget(read.value, env, { baseDir: dirname(resolve(path)), source: path });
}

/** Validates and resolves a target given as JSON text or as an already parsed value. */
export function parseTarget(json: unknown, env: Env = process.env, options: ParseTargetOptions = {}): ResolvedTarget {
  if (typeof json !== 'string') return resolveTarget(json, env, options);
  const parsed = parseJson(json);
  if (!parsed.ok) throw new TargetFileError([{ pointer: '', message: parsed.reason }], options.source);
  return resolveTarget(parsed.value, env, options);
}

function resolveTarget(value: unknown, env: Env, options: ParseTargetOptions): ResolvedTarget {
  const literal = literalSecrets(value);
  if (literal.length > 0) throw new TargetFileError(literal, options.source);
  const problems = checkTarget(value);
  if (problems.length > 0) {
    const described = withoutAnyOfNoise(problems).map(describe);
    throw new TargetFileError(described.filter((p, i) => described.findIndex((q) => q.pointer === p.pointer && q.message === p.message) === i), options.source);
  }
  const file = value as Record<string, unknown>;
  const beyondSchema = [...urlCredentials(file), ...idShapeProblems(file)];
  if (beyondSchema.length > 0) throw new TargetFileError(beyondSchema, options.source);
  const secrets = resolveSecrets(file, env, options.source);
  const caCert = readCa(file, options);
  const observe = file.side === 'receiver' ? observeFrom(file, env, options) : undefined;
  const target = file.side === 'receiver' ? receiverFrom(file, secrets, caCert, confirmsFrom(file, env, options.source), observe)
    : file.side === 'client' ? clientFrom(file)
    : serviceFrom(file, secrets, caCert);
  rememberSecretRefs(target, file);
  rememberDefaults(target, file);
  return target;
}

/** A literal string where a `{"env": …}` reference belongs gets its own message (never echoing the value). */
function literalSecrets(value: unknown): Array<{ pointer: string; message: string }> {
  if (typeof value !== 'object' || value === null) return [];
  const file = value as Record<string, unknown>;
  const message = `secrets are not written in target files; use {"env": "NAME"} naming an environment variable`;
  const confirms = typeof file.confirms === 'object' && file.confirms !== null ? file.confirms as Record<string, unknown> : {};
  // A database URL carries its password: the same rule.
  const observe = typeof file.observe === 'object' && file.observe !== null ? file.observe as Record<string, unknown> : {};
  return [
    ...SECRET_KEYS.filter((key) => typeof file[key] === 'string').map((key) => ({ pointer: `/${key}`, message })),
    ...CONFIRMS_SECRET_KEYS.filter((key) => typeof confirms[key] === 'string').map((key) => ({ pointer: `/confirms/${key}`, message })),
    ...(typeof observe.database === 'string' ? [{ pointer: '/observe/database', message }] : []),
  ];
}

/**
 * `https://user:password@host/…` anywhere in the file (baseUrl, callbackUrl, hooksUrl,
 * sources.notWhitelisted.proxy, listener.publicUrl, and any URL key added later): a secret
 * written in the target file, shown by every exchange, curl line, progress line and
 * report.target. One rule for every string that is an http(s) URL; the value is never echoed.
 */
function urlCredentials(file: Record<string, unknown>): Array<{ pointer: string; message: string }> {
  const found: Array<{ pointer: string; message: string }> = [];
  const walk = (value: unknown, pointer: string): void => {
    if (typeof value === 'string') {
      if (!/^https?:\/\//i.test(value) || !URL.canParse(value)) return;
      const parsed = new URL(value);
      if (parsed.username === '' && parsed.password === '') return;
      found.push({
        pointer,
        message: 'must not carry a user name or password (user:password@): secrets are not written in target files, and the harness would not send them',
      });
    } else if (Array.isArray(value)) {
      value.forEach((v, i) => walk(v, `${pointer}/${i}`));
    } else if (typeof value === 'object' && value !== null) {
      for (const [k, v] of Object.entries(value)) walk(v, `${pointer}/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`);
    }
  };
  walk(file, '');
  return found;
}

/** `transactionIds`: placeholders known, and room in maxLength for the harness's own ids. */
function idShapeProblems(file: Record<string, unknown>): Array<{ pointer: string; message: string }> {
  const shape = idShapeOf(file);
  if (!shape) return [];
  return shapeProblems(shape).map((p) => ({ pointer: `/transactionIds/${p.field}`, message: p.message }));
}

function idShapeOf(file: Record<string, unknown>): TransactionIdShape | undefined {
  const given = file.transactionIds as Partial<TransactionIdShape> | undefined;
  if (!given) return undefined;
  return { template: given.template ?? DEFAULT_ID_TEMPLATE, ...(given.maxLength !== undefined ? { maxLength: given.maxLength } : {}) };
}

/**
 * `"status"` is `false` or an object: a wrong object is named by its own bad key, without the
 * other branch's "must be false" beside it.
 */
function withoutAnyOfNoise(problems: readonly SchemaProblem[]): SchemaProblem[] {
  return problems.filter((p) => !(p.keyword === 'const' && p.schemaPath.includes('statusEndpoint') && problems.some((q) => q.path.startsWith(`${p.path}/`))));
}

function describe(problem: SchemaProblem): { pointer: string; message: string } {
  // The shared wording, but for URLs: "must match pattern ^https?://…" says less than this.
  let message = problem.keyword === 'pattern' && problem.schemaPath.includes('httpUrl') ? 'must be an http:// or https:// URL' : problem.message;
  if (problem.schemaPath.includes('/rejection/items/') && (problem.keyword === 'minProperties' || problem.keyword === 'maxProperties')) {
    message = 'a rule is {"pointer", "in": [values that mean rejected]} or {"pointer", "notIn": [values that mean accepted]}: exactly one of "in" and "notIn"';
  }
  if (problem.keyword === 'pattern' && problem.schemaPath.includes('/rejection/')) message = 'must be a JSON pointer (RFC 6901): "" or "/name/…"';
  if (problem.keyword === 'pattern' && problem.schemaPath.includes('statusEndpoint')) {
    message = problem.path.endsWith('/pointer') ? 'must be a JSON pointer (RFC 6901): "" or "/name/…"' : 'must be a path under baseUrl, starting with /';
  }
  if (problem.schemaPath.includes('statusEndpoint') && (problem.keyword === 'const' || problem.keyword === 'type')) {
    message = 'must be false (no status endpoint) or {"method", "path", "pointer"}';
  }
  return { pointer: problem.path, message };
}

function resolveSecrets<K extends string>(
  file: Record<string, unknown>, env: Env, source?: string, keys: readonly K[] = SECRET_KEYS as unknown as readonly K[], at = '',
): Partial<Record<K, string>> {
  const resolved: Partial<Record<K, string>> = {};
  const problems: Array<{ pointer: string; message: string }> = [];
  for (const key of keys) {
    const ref = file[key] as { env: string } | undefined;
    if (!ref) continue;
    const value = env[ref.env];
    const problem = value === undefined ? `environment variable ${ref.env} is not set` : secretValueProblem(ref.env, value);
    if (problem !== undefined) problems.push({ pointer: `${at}/${key}`, message: problem });
    else resolved[key] = value as string;
  }
  if (problems.length > 0) throw new TargetFileError(problems, source);
  return resolved;
}

/** `confirms` with its keys read from the environment, and `status` over the suite's position (each key left out keeps it). */
function confirmsFrom(file: Record<string, unknown>, env: Env, source?: string): ReceiverConfirms | undefined {
  const given = file.confirms as { listener: { host?: string; port: number; publicUrl?: string | null }; clientId: number; statusForm?: Partial<StatusForm> } | undefined;
  if (!given) return undefined;
  const keys = resolveSecrets(given as unknown as Record<string, unknown>, env, source, CONFIRMS_SECRET_KEYS, '/confirms');
  return {
    listener: { host: given.listener.host ?? '127.0.0.1', port: given.listener.port, publicUrl: given.listener.publicUrl ?? null },
    clientId: given.clientId,
    clientKey: keys.clientKey!,
    secretKey: keys.secretKey!,
    status: { ...STATUS_POSITION, ...(file.status as Partial<StatusEndpoint> | undefined) },
    ...(given.statusForm ? { statusForm: { ...REFERENCE_STATUS_FORM, ...given.statusForm } } : {}),
  };
}

function readCa(file: Record<string, unknown>, options: ParseTargetOptions): string | undefined {
  const ca = file.ca as { file: string } | undefined;
  if (!ca) return undefined;
  const path = resolve(options.baseDir ?? process.cwd(), ca.file);
  let pem: string;
  try {
    pem = readFileSync(path, 'utf8');
  } catch (error) {
    throw new TargetFileError([{ pointer: '/ca/file', message: `cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? String(error)})` }], options.source);
  }
  if (!pem.includes('-----BEGIN CERTIFICATE-----')) {
    throw new TargetFileError([{ pointer: '/ca/file', message: `${path} holds no PEM certificate` }], options.source);
  }
  return pem;
}

/** The named parameters of `observe`'s statements (DESIGN.md): the only ones. */
export const OBSERVE_PARAMETERS = ['transaction_id', 'amount'] as const;

/**
 * `hooksUrl` as the hooks kind, or `observe`: its database URL from the environment (never
 * echoed), its statements compiled for that database, its states checked. Problems name the key.
 */
function observeFrom(file: Record<string, unknown>, env: Env, options: ParseTargetOptions): ObserveSpec | undefined {
  const source = options.source;
  const given = file.observe as Record<string, unknown> | undefined;
  if (typeof file.hooksUrl === 'string') {
    if (given !== undefined) {
      throw new TargetFileError([{ pointer: '/observe', message: 'hooksUrl and observe are alternatives (the test hooks, or the receiver\'s database or a command): name one of them' }], source);
    }
    return { kind: 'hooks', url: file.hooksUrl };
  }
  if (given === undefined) return undefined;
  const problems: Array<{ pointer: string; message: string }> = [];
  const states = given.states as StateMap | undefined;
  if (states) for (const problem of statesProblems(states)) problems.push({ pointer: '/observe/states', message: problem });
  if (typeof given.command === 'string') {
    if (problems.length > 0) throw new TargetFileError(problems, source);
    return { kind: 'command', command: given.command, ...(options.baseDir !== undefined ? { cwd: options.baseDir } : {}), ...(states ? { states } : {}) };
  }
  const ref = given.database as { env: string };
  const text = env[ref.env];
  const parsed = text === undefined ? undefined : parseDatabaseUrl(text);
  if (text === undefined) problems.push({ pointer: '/observe/database', message: `environment variable ${ref.env} is not set` });
  else if (!parsed!.ok) problems.push({ pointer: '/observe/database', message: `environment variable ${ref.env} ${parsed!.problem}` });
  else if (parsed!.value.password !== '') {
    const problem = secretValueProblem(`${ref.env} (its password)`, parsed!.value.password);
    if (problem) problems.push({ pointer: '/observe/database', message: problem });
  }
  const dialect: Dialect = parsed?.ok ? parsed.value.dialect : 'postgres';
  const compiled: Partial<Record<'seed' | 'read' | 'actions', CompiledStatement>> = {};
  for (const key of ['seed', 'read', 'actions'] as const) {
    const statement = given[key];
    if (typeof statement !== 'string') continue;
    const result = compileStatement(statement, dialect, OBSERVE_PARAMETERS);
    if (!result.ok) problems.push({ pointer: `/observe/${key}`, message: result.problem });
    else if (!result.statement.uses.includes('transaction_id')) {
      problems.push({ pointer: `/observe/${key}`, message: 'uses no :transaction_id: every transaction would get the same rows (the placeholders are :transaction_id and :amount)' });
    } else compiled[key] = result.statement;
  }
  if (problems.length > 0 || !parsed?.ok || !compiled.read) throw new TargetFileError(problems, source);
  return {
    kind: 'sql',
    database: parsed.value,
    read: compiled.read,
    ...(compiled.seed ? { seed: compiled.seed } : {}),
    ...(compiled.actions ? { actions: compiled.actions } : {}),
    ...(states ? { states } : {}),
  };
}

function receiverFrom(
  file: Record<string, unknown>, secrets: Partial<Record<string, string>>, caCert: string | undefined, confirms: ReceiverConfirms | undefined, observe: ObserveSpec | undefined,
): ResolvedReceiverTarget {
  const timing = (file.timing ?? {}) as Partial<ResolvedReceiverTarget['timing']>;
  const target: ResolvedReceiverTarget = {
    side: 'receiver',
    callbackUrl: file.callbackUrl as string,
    timing: { replyDeadlineMs: timing.replyDeadlineMs ?? TARGET_DEFAULTS.receiver.timing.replyDeadlineMs },
  };
  if (secrets.callbackToken !== undefined) target.callbackToken = secrets.callbackToken;
  if (observe) target.observe = observe;
  if (caCert !== undefined) target.caCert = caCert;
  const ids = idShapeOf(file);
  if (ids) target.transactionIds = ids;
  if (confirms) target.confirms = confirms;
  return target;
}

/** The credentials are the harness's own, generated per run: its reference service and the adapter share them. */
function clientFrom(file: Record<string, unknown>): ResolvedClientTarget {
  const timing = (file.timing ?? {}) as Partial<ResolvedClientTarget['timing']>;
  return {
    side: 'client',
    command: file.command as string,
    timing: { answerDeadlineMs: timing.answerDeadlineMs ?? TARGET_DEFAULTS.client.timing.answerDeadlineMs },
    ...generateClientCredentials(),
  };
}

function serviceFrom(file: Record<string, unknown>, secrets: Partial<Record<string, string>>, caCert?: string): ResolvedServiceTarget {
  const numbers = file.customerNumbers as { whitelisted: string[]; failing?: string[]; notWhitelisted?: string[] };
  const listener = (file.listener ?? {}) as Partial<ResolvedServiceTarget['listener']>;
  const timing = (file.timing ?? {}) as Partial<ResolvedServiceTarget['timing']>;
  const defaults = TARGET_DEFAULTS.service;
  const target: ResolvedServiceTarget = {
    side: 'service',
    baseUrl: file.baseUrl as string,
    mode: file.mode as ResolvedServiceTarget['mode'],
    clientId: file.clientId as number,
    clientKey: secrets.clientKey!,
    secretKey: secrets.secretKey!,
    networkCode: file.networkCode as string,
    customerNumbers: {
      whitelisted: [...numbers.whitelisted],
      notWhitelisted: [...(numbers.notWhitelisted ?? [])],
      ...(numbers.failing ? { failing: [...numbers.failing] } : {}),
    },
    listener: {
      host: listener.host ?? defaults.listener.host,
      port: listener.port ?? defaults.listener.port,
      publicUrl: listener.publicUrl ?? defaults.listener.publicUrl,
      tls: listener.tls ?? defaults.listener.tls,
      ...(listener.plainPublicUrl !== undefined ? { plainPublicUrl: listener.plainPublicUrl } : {}),
    },
    timing: {
      callbackTimeoutMs: timing.callbackTimeoutMs ?? defaults.timing.callbackTimeoutMs,
      retryWindowMs: timing.retryWindowMs ?? defaults.timing.retryWindowMs,
    },
  };
  if (secrets.callbackToken !== undefined) target.callbackToken = secrets.callbackToken;
  if (file.sources !== undefined) target.sources = structuredClone(file.sources) as ResolvedServiceTarget['sources'] & object;
  if (file.rejection !== undefined) target.rejection = structuredClone(file.rejection) as NonNullable<ResolvedServiceTarget['rejection']>;
  // Each key the file leaves out keeps the suite's position.
  if (file.status === false) target.status = false;
  else if (file.status !== undefined) target.status = { ...STATUS_POSITION, ...(file.status as Partial<StatusEndpoint>) };
  if (caCert !== undefined) target.caCert = caCert;
  const ids = idShapeOf(file);
  if (ids) target.transactionIds = ids;
  return target;
}
