// The order the main and end-to-end tiers start their files in. vitest starts the longest files
// first when its duration cache (node_modules/.vite/vitest/results.json) knows them; a fresh
// clone has no cache, and vitest then starts the largest files first, so the slowest files start
// late and make the run's tail (receiver/cli.test.ts, the longest, was 58th by size). This
// sequencer gives a fresh clone the warm order: each file's duration from the cache when it has
// one, else from suites/support/file-durations.json (committed: vitest's per-file durations of
// one `npm test` on an idle two-core machine; a file changed later re-estimated from its own
// runs before and after), and a file in neither (a new one, an end-to-end one) first, the larger
// of two such first, as vitest does. Failed files still go first. Only the order matters: a stale number costs a little of the tail, never a test.
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** The committed durations, in ms, by path from the checkout's root. */
export const FILE_DURATIONS: Readonly<Record<string, number>> = JSON.parse(
  readFileSync(new URL('./file-durations.json', import.meta.url), 'utf8'),
);

/** What a file is expected to take: its cached duration, else its committed one, else unknown (undefined). */
export function expectedMs(cached: number | undefined, file: string, committed: Readonly<Record<string, number>> = FILE_DURATIONS): number | undefined {
  return cached ?? committed[file];
}

/** Longest first; unknown (undefined) before every known one; ties keep their order. */
export function longestFirst(a: number | undefined, b: number | undefined): number {
  if (a === undefined || b === undefined) return a === undefined && b !== undefined ? -1 : b === undefined && a !== undefined ? 1 : 0;
  return b - a;
}

export default class DurationSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const cache = this.ctx.cache;
    const root = this.ctx.config.root;
    const known = (spec: TestSpecification) => {
      const path = relative(root, spec.moduleId).split('\\').join('/');
      const key = `${spec.project.name}:${path}`;
      const state = cache.getFileTestResults(key);
      return { failed: state?.failed === true, ms: expectedMs(state?.duration, path), size: cache.getFileStats(key)?.size ?? 0 };
    };
    return [...files]
      .map((spec) => ({ spec, ...known(spec) }))
      .sort((a, b) => {
        const group = a.spec.project.config.sequence.groupOrder - b.spec.project.config.sequence.groupOrder;
        if (group !== 0) return group;
        if (a.spec.project.name !== b.spec.project.name) return a.spec.project.name < b.spec.project.name ? -1 : 1;
        if (a.failed !== b.failed) return a.failed ? -1 : 1;
        // Two files known to neither: the larger first, as vitest orders them.
        return longestFirst(a.ms, b.ms) || (a.ms === undefined && b.ms === undefined ? b.size - a.size : 0);
      })
      .map(({ spec }) => spec);
  }
}
