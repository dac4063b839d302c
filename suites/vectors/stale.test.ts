// The committed vector files equal a fresh generation from the tables (run
// `npm run vectors:generate` after editing a table or the signer).
import { describe, expect, it } from 'vitest';
import { generateVectorFile, VECTOR_FILES } from '../../vectors/generate/generate.ts';
import { readVectorText } from './load.ts';

describe('committed vectors are not stale', () => {
  // Each file generated inside its own test, so a test names what it computed (mutation testing
  // runs a mutant against the tests that reached it).
  for (const name of VECTOR_FILES) {
    it(`${name} equals a fresh generation`, () => {
      expect(readVectorText(name) === generateVectorFile(name), `${name} is stale: run npm run vectors:generate`).toBe(true);
    });
  }
});
