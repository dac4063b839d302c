// The shared JSON Schema check (harness/schemas): problems by JSON pointer, the shared wording,
// and the JSON file reader every file format uses.
import { describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compileSchema, formatProblems, parseJson, readJsonFile } from '../../harness/schemas/index.ts';

const SCHEMA = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  additionalProperties: false,
  required: ['side'],
  properties: {
    side: { enum: ['service', 'receiver'] },
    tool: { const: 'collect-conformance' },
    timing: { type: 'object', additionalProperties: false, properties: { callbackTimeoutMs: { type: 'integer' } } },
    'a/b': { type: 'string' },
    url: { anyOf: [{ type: 'string', pattern: '^https?://' }, { type: 'null' }] },
    day: { type: 'string', format: 'date' },
  },
};
const check = compileSchema(SCHEMA);
const lines = (value: unknown) => check(value).map((p) => `${p.path || '/'}: ${p.message}`);

describe('compileSchema: each problem names the JSON pointer of the bad field', () => {
  it('a wrong type names the field', () => {
    expect(lines({ side: 'service', timing: { callbackTimeoutMs: 1.5 } })).toEqual(['/timing/callbackTimeoutMs: must be integer']);
  });
  it('an unknown key is named by its own path, with ajv\'s object path kept aside', () => {
    const [p] = check({ side: 'service', timing: { replyDeadline: 5 } });
    expect(p).toMatchObject({ path: '/timing/replyDeadline', message: 'unknown key', keyword: 'additionalProperties', key: 'replyDeadline', value: 5 });
    expect(p?.ajv).toEqual({ path: '/timing', message: 'must NOT have additional properties' });
  });
  it('a missing property is named by its own path', () => {
    expect(lines({})).toEqual(['/side: is required']);
  });
  it('enum and const list what is allowed', () => {
    expect(lines({ side: 'client', tool: 'x' })).toEqual(['/side: must be one of ["service","receiver"]', '/tool: must be "collect-conformance"']);
  });
  it('a key with / or ~ is escaped as RFC 6901 says', () => {
    expect(lines({ side: 'service', 'a/b': 1, 'c~d': 1 })).toEqual(['/c~0d: unknown key', '/a~1b: must be string']);
  });
  it('"must match a schema in anyOf" is dropped when its branches said why', () => {
    expect(lines({ side: 'service', url: 'ftp://x' })).toEqual(['/url: must match pattern "^https?://"', '/url: must be null']);
  });
  it('formats are checked (ajv-formats)', () => {
    expect(lines({ side: 'service', day: '2026-13-40' })).toEqual(['/day: must match format "date"']);
  });
  it('the whole document is the empty pointer, shown as /', () => {
    expect(check([])[0]?.path).toBe('');
    expect(formatProblems(check([]))).toBe('/: must be object');
  });
  it('a valid value has no problems', () => {
    expect(check({ side: 'receiver', timing: { callbackTimeoutMs: 10 }, url: null })).toEqual([]);
  });
  it('formatProblems joins with "; "', () => {
    expect(formatProblems([{ path: '/a/b', message: 'must be integer' }, { path: '/c', message: 'unknown key' }])).toBe('/a/b: must be integer; /c: unknown key');
  });
  it('strict mode refuses a schema with an unknown keyword, unless strict is off', () => {
    expect(() => compileSchema({ type: 'object', frobnicate: true })({})).toThrow(/unknown keyword/);
    expect(compileSchema({ type: 'object', frobnicate: true }, { strict: false })({})).toEqual([]);
  });
});

describe('readJsonFile: one wording for an unreadable file and for text that is not JSON', () => {
  const dir = mkdtempSync(join(tmpdir(), 'schemas-'));
  it('reads and parses', () => {
    writeFileSync(join(dir, 'ok.json'), '{"a": [1]}');
    expect(readJsonFile(join(dir, 'ok.json'))).toEqual({ ok: true, value: { a: [1] } });
  });
  it('a missing file: cannot read the file (ENOENT)', () => {
    expect(readJsonFile(join(dir, 'missing.json'))).toEqual({ ok: false, reason: 'cannot read the file (ENOENT)' });
  });
  it('text that is not JSON: not JSON (…) with the parser\'s reason', () => {
    writeFileSync(join(dir, 'bad.json'), '{mode: sandbox}');
    const read = readJsonFile(join(dir, 'bad.json'));
    expect(read.ok).toBe(false);
    expect(!read.ok && read.reason).toMatch(/^not JSON \(.+\)$/);
    expect(parseJson('{"side": ')).toMatchObject({ ok: false, reason: expect.stringMatching(/^not JSON \(/) });
  });
});
