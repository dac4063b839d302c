// Every property runs at least 1,000 times with a seed that is printed on failure and can be
// replayed: FC_SEED=<n> npx vitest run suites/properties
import fc from 'fast-check';

export const NUM_RUNS = Math.max(1000, Number(process.env.FC_NUM_RUNS ?? 0) || 0);

export function runSeed(): number {
  const fromEnv = process.env.FC_SEED;
  if (fromEnv !== undefined && fromEnv !== '') {
    const seed = Number(fromEnv);
    if (!Number.isInteger(seed)) throw new Error(`FC_SEED must be an integer, got ${JSON.stringify(fromEnv)}`);
    return seed;
  }
  return (Date.now() ^ Math.floor(Math.random() * 0x7fffffff)) | 0;
}

/** fc.assert with the seed logged and put first in the failure message. */
export function assertProperty<Ts>(property: fc.IProperty<Ts> | fc.IAsyncProperty<Ts>, numRuns = NUM_RUNS): void | Promise<void> {
  const seed = runSeed();
  const report = (error: unknown): never => {
    const line = `property failed with seed ${seed}; replay with FC_SEED=${seed}`;
    console.error(line);
    if (error instanceof Error) error.message = `${line}\n${error.message}`;
    throw error;
  };
  try {
    const result: unknown = fc.assert(property as fc.IProperty<Ts>, { seed, numRuns });
    if (result instanceof Promise) return (result as Promise<void>).catch(report);
  } catch (error) {
    report(error);
  }
}
