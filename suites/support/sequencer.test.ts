// The start order of the suites (sequencer.ts): the longest files first on a fresh clone, from the
// committed durations, and from vitest's duration cache once a run has written one.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { TestSpecification, Vitest } from 'vitest/node';
import DurationSequencer, { FILE_DURATIONS, expectedMs, longestFirst } from './sequencer.ts';

const ROOT = join(import.meta.dirname, '..', '..');

/** A spec as the sequencer reads it: its module, its project's name and group. */
function spec(file: string, project = '', groupOrder = 0): TestSpecification {
  return { moduleId: join(ROOT, file), project: { name: project, config: { sequence: { groupOrder } } } } as unknown as TestSpecification;
}

/** A sequencer over a cache holding the given results (key `project:path`). */
function sequencer(cached: Record<string, { failed: boolean; duration: number }>, sizes: Record<string, number> = {}): DurationSequencer {
  const ctx = { config: { root: ROOT }, cache: { getFileTestResults: (key: string) => cached[key], getFileStats: (key: string) => (key in sizes ? { size: sizes[key] } : undefined) } } as unknown as Vitest;
  return new DurationSequencer(ctx);
}

const names = (specs: TestSpecification[]) => specs.map((s) => s.moduleId.slice(ROOT.length + 1));

describe('the start order: the longest files first, on a fresh clone too', () => {
  it('every file in file-durations.json exists (a renamed or removed file is taken out)', () => {
    const missing = Object.keys(FILE_DURATIONS).filter((f) => !existsSync(join(ROOT, f)));
    expect(missing).toEqual([]);
  });

  it('no cache: the committed durations order the files, longest first, whatever their size', async () => {
    // receiver/cli.test.ts is one of the longest but not among the largest files (vitest's fresh-clone order).
    const files = ['suites/report/markdown.test.ts', 'suites/receiver/cli.test.ts', 'suites/service/callback-answers.test.ts'];
    const sorted = names(await sequencer({}).sort(files.map((f) => spec(f))));
    expect(sorted).toEqual([...files].sort((a, b) => FILE_DURATIONS[b]! - FILE_DURATIONS[a]!));
    // The table reorders them (their durations change as files are sped up or split, so no file is named first).
    expect(sorted).not.toEqual(files);
  });

  it('a file in neither the cache nor the table (a new one) starts first, as vitest starts unknown files', async () => {
    const sorted = names(await sequencer({}).sort([spec('suites/service/callback-answers.test.ts'), spec('suites/new/brand-new.test.ts')]));
    expect(sorted).toEqual(['suites/new/brand-new.test.ts', 'suites/service/callback-answers.test.ts']);
  });

  it('two files known to neither: the larger first (vitest\'s order for them), both before the known ones', async () => {
    const sizes = { ':suites/new/small.test.ts': 100, ':suites/new/large.test.ts': 9000 };
    const sorted = names(await sequencer({}, sizes).sort(['suites/new/small.test.ts', 'suites/report/markdown.test.ts', 'suites/new/large.test.ts'].map((f) => spec(f))));
    expect(sorted).toEqual(['suites/new/large.test.ts', 'suites/new/small.test.ts', 'suites/report/markdown.test.ts']);
  });

  it('the cache, where it knows a file, overrides the table; a failed file goes first', async () => {
    const cached = { ':suites/report/markdown.test.ts': { failed: false, duration: 99_000 }, ':suites/cli/help.test.ts': { failed: true, duration: 10 } };
    const sorted = names(await sequencer(cached).sort(['suites/service/callback-answers.test.ts', 'suites/report/markdown.test.ts', 'suites/cli/help.test.ts'].map((f) => spec(f))));
    expect(sorted).toEqual(['suites/cli/help.test.ts', 'suites/report/markdown.test.ts', 'suites/service/callback-answers.test.ts']);
  });

  it('groups and projects keep their order before any duration (the end-to-end tier\'s timed group runs first)', async () => {
    const sorted = await sequencer({}).sort([spec('suites/cli/help.test.ts', 'busy', 1), spec('suites/report/markdown.test.ts', 'timed', 0)]);
    expect(sorted.map((s) => s.project.name)).toEqual(['timed', 'busy']);
  });

  it('expectedMs and longestFirst: the cache before the table, unknown before known, longer before shorter', () => {
    expect(expectedMs(5, 'a', { a: 7 })).toBe(5);
    expect(expectedMs(undefined, 'a', { a: 7 })).toBe(7);
    expect(expectedMs(undefined, 'b', { a: 7 })).toBeUndefined();
    expect(longestFirst(undefined, 3)).toBeLessThan(0);
    expect(longestFirst(3, undefined)).toBeGreaterThan(0);
    expect(longestFirst(undefined, undefined)).toBe(0);
    expect(longestFirst(9, 3)).toBeLessThan(0);
  });
});
