// Every vector file is valid against its JSON Schema (2020-12), and the schemas bite.
import { describe, expect, it } from 'vitest';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { FILES, readJson } from './load.ts';

function validatorFor(schemaName: string) {
  const ajv = new Ajv2020({ allErrors: true, strict: true });
  return ajv.compile(readJson(schemaName) as object);
}

describe('vector files are valid against their schemas', () => {
  for (const file of FILES) {
    it(`${file.name} is valid against ${file.schema}`, () => {
      const validate = validatorFor(file.schema);
      const ok = validate(readJson(file.name));
      expect(validate.errors ?? [], `${file.name}: ${JSON.stringify(validate.errors?.slice(0, 3))}`).toEqual([]);
      expect(ok).toBe(true);
    });
  }
});

describe('schemas refuse malformed vectors', () => {
  const signature = () => structuredClone(readJson('signature.json')) as { tests: Array<Record<string, unknown>> } & Record<string, unknown>;
  const validate = validatorFor('schemas/signature.schema.json');

  it('refuses an unknown top-level field', () => {
    expect(validate({ ...signature(), extra: 1 })).toBe(false);
  });
  it('refuses an unknown test field', () => {
    const file = signature();
    file.tests[0]!.note = 'x';
    expect(validate(file)).toBe(false);
  });
  it('refuses a result outside valid | invalid | acceptable', () => {
    const file = signature();
    file.tests[0]!.result = 'maybe';
    expect(validate(file)).toBe(false);
  });
  it('refuses upper-case hex in signature', () => {
    const file = signature();
    file.tests[0]!.signature = String(file.tests[0]!.signature).toUpperCase();
    expect(validate(file)).toBe(false);
  });
  it('refuses an invalid test without presentedSignature', () => {
    const file = signature();
    const invalid = file.tests.find((t) => t.result === 'invalid')!;
    delete invalid.presentedSignature;
    expect(validate(file)).toBe(false);
  });
  it('refuses presentedSignature on a valid test', () => {
    const file = signature();
    const valid = file.tests.find((t) => t.result === 'valid')!;
    valid.presentedSignature = 'ab';
    expect(validate(file)).toBe(false);
  });
  it('refuses a note without effect', () => {
    const file = signature() as unknown as { notes: Record<string, Record<string, string>> };
    delete Object.values(file.notes)[0]!.effect;
    expect(validate(file)).toBe(false);
  });
  it('refuses a callback-query alternative with an unknown parameter', () => {
    const v = validatorFor('schemas/callback-query.schema.json');
    const file = structuredClone(readJson('callback-query.json')) as { tests: Array<{ alternatives: Array<{ expected: Record<string, unknown> }> }> };
    const withAlt = file.tests.find((t) => t.alternatives.length > 0)!;
    withAlt.alternatives[0]!.expected.amount = '1';
    expect(v(file)).toBe(false);
  });
});
