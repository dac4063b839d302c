// What of a target may leave the process: everything but the secret values.
import type { ObserveSpec } from '../observe/index.ts';
import { REDACTED } from '../secrets/index.ts';
import { CONFIRMS_SECRET_KEYS, SECRET_KEYS, type ResolvedTarget } from './types.ts';

/** The `{"env": …}` references a loaded target came from, to show them instead of the values. */
const refsOf = new WeakMap<ResolvedTarget, Partial<Record<string, { env: string }>>>();

/** The key of `observe.database`'s reference among a target's refs. */
const DATABASE_REF = 'observe.database';

export function rememberSecretRefs(target: ResolvedTarget, file: Record<string, unknown>): void {
  const refs: Partial<Record<string, { env: string }>> = {};
  for (const key of SECRET_KEYS) {
    const ref = file[key] as { env: string } | undefined;
    if (ref) refs[key] = { env: ref.env };
  }
  const confirms = file.confirms as Record<string, { env: string } | undefined> | undefined;
  for (const key of CONFIRMS_SECRET_KEYS) {
    const ref = confirms?.[key];
    if (ref) refs[`confirms.${key}`] = { env: ref.env };
  }
  const database = (file.observe as { database?: { env: string } } | undefined)?.database;
  if (database) refs[DATABASE_REF] = { env: database.env };
  refsOf.set(target, refs);
}

/** The secret values of a target, for a Redactor: a database URL's password with the token. */
export function secretsOf(target: ResolvedTarget): string[] {
  const values = target.side === 'receiver'
    ? [target.callbackToken, target.confirms?.clientKey, target.confirms?.secretKey, ...(target.observe?.kind === 'sql' ? target.observe.database.secrets : [])]
    : [target.clientKey, target.secretKey, target.callbackToken];
  return values.filter((v): v is string => typeof v === 'string' && v.length > 0);
}

/**
 * The target for report.target: secrets become the `{"env": …}` reference they were loaded
 * from (or "[REDACTED]" for a target built in memory), a CA becomes its size.
 */
export function redactTarget(target: ResolvedTarget): Record<string, unknown> {
  const copy = structuredClone(target) as unknown as Record<string, unknown>;
  const refs = refsOf.get(target) ?? {};
  for (const key of SECRET_KEYS) {
    if (copy[key] !== undefined) copy[key] = refs[key] ? { env: refs[key].env, value: REDACTED } : REDACTED;
  }
  const confirms = copy.confirms as Record<string, unknown> | undefined;
  for (const key of CONFIRMS_SECRET_KEYS) {
    const ref = refs[`confirms.${key}`];
    if (confirms?.[key] !== undefined) confirms[key] = ref ? { env: ref.env, value: REDACTED } : REDACTED;
  }
  if (typeof copy.caCert === 'string') copy.caCert = `(PEM, ${copy.caCert.length} characters)`;
  if (target.side === 'receiver' && target.observe) copy.observe = shownObserve(target.observe, refs[DATABASE_REF]?.env);
  // The hooks are shown as the file names them.
  if (target.side === 'receiver' && target.observe?.kind === 'hooks') {
    delete copy.observe;
    copy.hooksUrl = target.observe.url;
  }
  return copy;
}

/**
 * The environment variable a secret of a loaded target came from (for reproducible curl
 * lines); undefined for a target built in memory.
 */
export function secretEnvName(target: ResolvedTarget, key: (typeof SECRET_KEYS)[number]): string | undefined {
  return refsOf.get(target)?.[key]?.env;
}

/** `observe` as the file wrote it: the database as its reference, statements as written. */
function shownObserve(observe: ObserveSpec, databaseEnv: string | undefined): Record<string, unknown> {
  switch (observe.kind) {
    case 'hooks':
      return { hooksUrl: observe.url };
    case 'command':
      return { command: observe.command, ...(observe.states ? { states: observe.states } : {}) };
    case 'sql':
      return {
        database: databaseEnv ? { env: databaseEnv, value: REDACTED } : REDACTED,
        ...(observe.seed ? { seed: observe.seed.source } : {}),
        read: observe.read.source,
        ...(observe.actions ? { actions: observe.actions.source } : {}),
        ...(observe.states ? { states: observe.states } : {}),
      };
  }
}
