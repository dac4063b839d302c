// What `npm run mutation` measures (suites/mutation/units.ts): every source file of the folders
// whose branches are verdicts is mutated by exactly one unit (a file left out would never be
// measured, a file in two would be counted twice), every test file a unit names exists, and the
// names on the command line select what they say.
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { MUTATION_UNITS, unitsNamed } from './units.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

function filesUnder(dir: string): string[] {
  return readdirSync(join(ROOT, dir)).flatMap((name) => {
    const path = join(dir, name);
    return statSync(join(ROOT, path)).isDirectory() ? filesUnder(path) : [path];
  });
}
/** Stryker's globs as they are used here: `**` any folders, `*` within a name, `!` to leave out. */
function globRegex(glob: string): RegExp {
  const source = glob.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*\*\//g, '\u0000').replace(/\*/g, '[^/]*').replace(/\u0000/g, '(?:.*/)?');
  return new RegExp(`^${source}$`);
}
function matched(globs: readonly string[], files: readonly string[]): string[] {
  const take = globs.filter((g) => !g.startsWith('!')).map(globRegex);
  const leave = globs.filter((g) => g.startsWith('!')).map((g) => globRegex(g.slice(1)));
  return files.filter((f) => take.some((r) => r.test(f)) && !leave.some((r) => r.test(f)));
}

describe('the units cover the checks whole', () => {
  const sources = ['signing', 'callback', 'diagnoses', 'preflight', 'cases', 'runner'].flatMap((folder) => filesUnder(`harness/${folder}`)).filter((f) => f.endsWith('.ts'));
  it('each source file of harness/{signing,callback,diagnoses,preflight,cases,runner} is mutated by exactly one unit', () => {
    const owners = new Map(sources.map((f) => [f, MUTATION_UNITS.filter((u) => matched(u.mutate, [f]).length > 0).map((u) => u.name)]));
    expect([...owners].filter(([, units]) => units.length !== 1)).toEqual([]);
  });
  it('each unit mutates something, and each test file it names exists', () => {
    const tests = filesUnder('suites').map((f) => relative(ROOT, join(ROOT, f)));
    for (const unit of MUTATION_UNITS) {
      expect(matched(unit.mutate, sources).length, unit.name).toBeGreaterThan(0);
      for (const glob of unit.tests) expect(matched([glob], tests).length, `${unit.name}: ${glob}`).toBeGreaterThan(0);
    }
  });
});

describe('unitsNamed: what a name on the command line selects', () => {
  const names = (n: string[]) => unitsNamed(n).map((u) => u.name);
  it('a unit by its name; a side by its prefix; a folder by its name; nothing for an unknown name', () => {
    expect(names(['cases/client'])).toEqual(['cases/client']);
    expect(names(['cases/service'])).toEqual(['cases/service-auth', 'cases/service-request', 'cases/service-callback', 'cases/service-status']);
    expect(names(['cases/receiver'])).toEqual(['cases/receiver-kit', 'cases/receiver-rules', 'cases/receiver-confirm']);
    expect(names(['cases'])).toEqual(MUTATION_UNITS.filter((u) => u.folder === 'cases').map((u) => u.name));
    expect(names(['cases/nothing'])).toEqual([]);
    expect(names([])).toEqual(MUTATION_UNITS.map((u) => u.name));
  });
});
