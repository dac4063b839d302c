// The committed vector files equal a fresh generation from the tables (run
// `npm run vectors:generate` after editing a table or the signer).
import { describe, expect, it } from 'vitest';
import { generateVectorFiles, VECTOR_FILES } from '../../vectors/generate/generate.ts';
import { readVectorText } from './load.ts';

describe('committed vectors are not stale', () => {
  const fresh = generateVectorFiles();
  for (const name of VECTOR_FILES) {
    it(`${name} equals a fresh generation`, () => {
      expect(readVectorText(name) === fresh[name], `${name} is stale: run npm run vectors:generate`).toBe(true);
    });
  }
});
