// Entry point: `npm run vectors:generate` (writes vectors/*.json) or with `--check`
// (exits 1 and names the files that differ from a fresh generation, writes nothing).
import { readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateVectorFiles, VECTOR_FILES } from './generate.ts';

const vectorsDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const check = process.argv.includes('--check');
const files = generateVectorFiles();
const stale: string[] = [];

for (const name of VECTOR_FILES) {
  const path = join(vectorsDir, name);
  const current = await readFile(path, 'utf8').catch(() => '');
  if (current === files[name]) continue;
  stale.push(name);
  if (!check) await writeFile(path, files[name]);
}

if (check) {
  process.stdout.write(stale.length ? `stale: ${stale.join(', ')}\n` : 'vectors are up to date\n');
  process.exitCode = stale.length ? 1 : 0;
} else {
  process.stdout.write(stale.length ? `wrote ${stale.join(', ')}\n` : 'vectors are up to date\n');
}
