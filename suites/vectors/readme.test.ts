// vectors/README.md is what an SDK author reads first: its counts and labels must match the files.
import { describe, expect, it } from 'vitest';
import { FILES, readJson, readVectorText } from './load.ts';

interface AnyFile { tests: Array<{ result: string; alternatives: Array<{ label: string }> }> }

const readme = readVectorText('README.md');

describe('vectors/README.md matches the vector files', () => {
  for (const file of FILES) {
    const data = readJson(file.name) as AnyFile;
    const count = (r: string) => data.tests.filter((t) => t.result === r).length;

    it(`${file.name}: the results table gives the counts per result`, () => {
      expect(readme).toContain(`| \`${file.name}\` | ${count('valid')} | ${count('invalid')} | ${count('acceptable')} |`);
    });
    it(`${file.name}: the files table gives the number of tests`, () => {
      expect(readme).toMatch(new RegExp(`\\| \`${file.name.replace('.', '\\.')}\` \\| ${data.tests.length} \\|`));
    });
    it(`${file.name}: every alternative label is explained`, () => {
      for (const label of new Set(data.tests.flatMap((t) => t.alternatives.map((a) => a.label)))) {
        expect(readme, label).toContain(`| \`${label}\` |`);
      }
    });
  }
});
