// Secrets the server commands (`simulate`, `receiver`) read from the environment. Unset means
// "generate a test value"; set but empty is a mistake, not a request for one, and a value too
// short to redact would leak wherever it is echoed: both refused with exit 2, naming the variable.
import { secretValueProblem } from '../secrets/index.ts';
import { UsageError } from '../tool/index.ts';

export function refuseUnusableSecrets(env: NodeJS.ProcessEnv, names: readonly string[]): void {
  const problems = names.flatMap((name) => {
    const value = env[name];
    const problem = value === undefined ? undefined : secretValueProblem(name, value);
    return problem === undefined ? [] : [problem];
  });
  if (problems.length > 0) throw new UsageError(problems.join('; '), 'ERR_SECRET_ENV');
}

/**
 * DESIGN.md "simulate" (and a confirming `receiver`): COLLECT_CLIENT_ID, else the config file's
 * clientId, else 2 (the client id of the spec's example, the example target files and `pact verify`).
 */
export const DEFAULT_CLIENT_ID = 2;

export function clientIdFrom(env: NodeJS.ProcessEnv, fileClientId: number | undefined, code: string): number {
  const raw = env['COLLECT_CLIENT_ID'];
  if (raw === undefined || raw === '') return fileClientId ?? DEFAULT_CLIENT_ID;
  if (!/^[1-9]\d*$/.test(raw) || !Number.isSafeInteger(Number(raw))) {
    throw new UsageError(`COLLECT_CLIENT_ID: must be a positive integer (got ${JSON.stringify(raw)})`, code);
  }
  return Number(raw);
}
