import { idMatcher, SelectError } from '../select/index.ts';
import { UsageError } from '../tool/index.ts';

/** `--only` checked before anything starts: a pattern that names nothing is a usage error (exit 2). */
export function onlyMatcher(only: string | undefined): (id: string) => boolean {
  try {
    return idMatcher(only);
  } catch (error) {
    if (error instanceof SelectError) throw new UsageError(`--only: ${error.message}`, error.code);
    throw error;
  }
}

/** `only` as a list or comma-separated, as the one comma-separated text the runner selects by. */
export function onlyText(only: string | readonly string[] | undefined): string | undefined {
  return only === undefined || typeof only === 'string' ? only : only.join(',');
}
