// Secrets the server commands (`simulate`, `receiver`) read from the environment. Unset means
// "generate a test value"; set but empty is a mistake, not a request for one, and a value too
// short to redact would leak wherever it is echoed: both refused with exit 2, naming the variable.
import { secretValueProblem } from '../secrets/index.ts';
import { UsageError } from './errors.ts';

export function refuseUnusableSecrets(env: NodeJS.ProcessEnv, names: readonly string[]): void {
  const problems = names.flatMap((name) => {
    const value = env[name];
    const problem = value === undefined ? undefined : secretValueProblem(name, value);
    return problem === undefined ? [] : [problem];
  });
  if (problems.length > 0) throw new UsageError(problems.join('; '), 'ERR_SECRET_ENV');
}
