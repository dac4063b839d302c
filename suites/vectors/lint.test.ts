// The Wycheproof-style lint: ids, counts, flags, formatting, comment length.
import { describe, expect, it } from 'vitest';
import { FILES, readJson, readVectorText } from './load.ts';

interface AnyFile {
  numberOfTests: number;
  notes: Record<string, unknown>;
  tests: Array<{ tcId: number; comment: string; flags: string[]; result: string }>;
}

const MAX_COMMENT = 70;

for (const file of FILES) {
  describe(`${file.name}: lint`, () => {
    const data = readJson(file.name) as AnyFile;

    it('tcIds are unique positive integers', () => {
      const ids = data.tests.map((t) => t.tcId);
      expect(new Set(ids).size).toBe(ids.length);
      for (const id of ids) expect(Number.isInteger(id) && id > 0, `tcId ${id}`).toBe(true);
    });
    it('tcIds ascend in file order', () => {
      const ids = data.tests.map((t) => t.tcId);
      expect(ids).toEqual([...ids].sort((a, b) => a - b));
    });
    it('numberOfTests equals the number of tests', () => {
      expect(data.numberOfTests).toBe(data.tests.length);
    });
    it(`holds at least ${file.minTests} tests`, () => {
      expect(data.tests.length).toBeGreaterThanOrEqual(file.minTests);
    });
    it('every flag used is defined in notes', () => {
      for (const t of data.tests) {
        for (const flag of t.flags) expect(Object.keys(data.notes), `tcId ${t.tcId} flag ${flag}`).toContain(flag);
      }
    });
    it('every note is used by a test', () => {
      const used = new Set(data.tests.flatMap((t) => t.flags));
      for (const flag of Object.keys(data.notes)) expect(used.has(flag), `note ${flag} unused`).toBe(true);
    });
    it('every test has at least one flag', () => {
      for (const t of data.tests) expect(t.flags.length, `tcId ${t.tcId}`).toBeGreaterThan(0);
    });
    it(`comments are short facts (1–${MAX_COMMENT} characters, no trailing period)`, () => {
      for (const t of data.tests) {
        expect([...t.comment].length, `tcId ${t.tcId}: ${t.comment}`).toBeLessThanOrEqual(MAX_COMMENT);
        expect(t.comment.length, `tcId ${t.tcId}`).toBeGreaterThan(0);
        expect(t.comment.endsWith('.'), `tcId ${t.tcId}: ${t.comment}`).toBe(false);
      }
    });
    it('is formatted canonically (JSON.stringify(x, null, 2) + newline)', () => {
      const text = readVectorText(file.name);
      expect(text).toBe(JSON.stringify(JSON.parse(text), null, 2) + '\n');
    });
    it('the schema file is formatted canonically', () => {
      const text = readVectorText(file.schema);
      expect(text).toBe(JSON.stringify(JSON.parse(text), null, 2) + '\n');
    });
  });
}

describe('signature.json: result mix', () => {
  const data = readJson('signature.json') as AnyFile & { tests: Array<{ alternatives: unknown[]; flags: string[] }> };
  it('has valid, invalid and acceptable tests', () => {
    const results = new Set(data.tests.map((t) => t.result));
    expect([...results].sort()).toEqual(['acceptable', 'invalid', 'valid']);
  });
  it('every test uses the one fake secret', () => {
    const secrets = new Set((data.tests as unknown as Array<{ secret: string }>).map((t) => t.secret));
    expect([...secrets]).toEqual(['vector-secret-key-not-a-real-one']);
  });
});
