// The body reader of §5.1 step 1 (harness/signing/raw-json.ts): it reads RFC 8259 JSON whose top
// level is an object, keeping each value's text as it stands, and refuses anything else with a
// stable code (ERR_BODY_NOT_JSON, ERR_BODY_NOT_OBJECT, ERR_BODY_TOO_DEEP) and a message that
// says what was wrong, at which offset, and the text found there. A body the service would not
// read must not be signed by the kit either, so each refusal below is exact.
import { describe, expect, it } from 'vitest';
import { readRawJsonObject, MAX_NESTING_DEPTH, SigningError } from '../../harness/signing/index.ts';

/** The error readRawJsonObject throws on this body, as plain data. */
function refusal(body: string): { code: string; message: string; position: number | undefined } {
  try {
    readRawJsonObject(body);
  } catch (error) {
    expect(error).toBeInstanceOf(SigningError);
    const e = error as SigningError;
    return { code: e.code, message: e.message, position: e.position };
  }
  throw new Error(`body was read: ${body}`);
}

describe('the top level: an object, alone', () => {
  it('calls an empty or blank body empty', () => {
    expect(refusal('')).toEqual({ code: 'ERR_BODY_NOT_JSON', message: 'body is empty', position: 0 });
    expect(refusal('  \r\n')).toEqual({ code: 'ERR_BODY_NOT_JSON', message: 'body is empty', position: 0 });
  });
  it('calls a JSON value that is not an object by its kind', () => {
    expect(refusal(' "a" ')).toEqual({ code: 'ERR_BODY_NOT_OBJECT', message: 'body is a JSON string, not an object', position: 0 });
  });
  it('calls a value followed by more text not JSON at all (not a non-object)', () => {
    expect(refusal('1 2')).toEqual({
      code: 'ERR_BODY_NOT_JSON', message: 'unexpected text after the JSON value at offset 2 (near "2")', position: 2,
    });
  });
});

describe('a refusal names the offset and at most 12 characters found there', () => {
  it('quotes the 12 characters from the offset', () => {
    expect(refusal('{"a": x123456789012345}')).toEqual({
      code: 'ERR_BODY_NOT_JSON', message: 'unexpected character at offset 6 (near "x12345678901")', position: 6,
    });
  });
});

describe('objects: "key": value pairs separated by commas', () => {
  it('wants a colon after the key', () => {
    expect(refusal('{"a" 1}')).toEqual({ code: 'ERR_BODY_NOT_JSON', message: 'expected \':\' at offset 5 (near "1}")', position: 5 });
  });
  it('wants a string key', () => {
    expect(refusal('{a:1}')).toEqual({ code: 'ERR_BODY_NOT_JSON', message: 'expected a string key at offset 1 (near "a:1}")', position: 1 });
  });
});

describe('numbers: RFC 8259 §6, -? int frac? exp?', () => {
  it('refuses a leading plus as an unexpected character', () => {
    expect(refusal('{"a":+1}')).toEqual({ code: 'ERR_BODY_NOT_JSON', message: 'unexpected character at offset 5 (near "+1}")', position: 5 });
  });
  it('refuses a minus sign without digits as a malformed number', () => {
    expect(refusal('{"a":-}')).toEqual({ code: 'ERR_BODY_NOT_JSON', message: 'malformed number at offset 5 (near "-}")', position: 5 });
    expect(refusal('{"a":-a}')).toEqual({ code: 'ERR_BODY_NOT_JSON', message: 'malformed number at offset 5 (near "-a}")', position: 5 });
  });
});

describe('strings: no raw control characters, only JSON escapes, closed by a quote', () => {
  it('refuses a raw line feed inside a string, before or after other text', () => {
    expect(refusal('{"a":"\n"}')).toEqual({ code: 'ERR_BODY_NOT_JSON', message: 'control character in string at offset 6 (near "\\n\\"}")', position: 6 });
    expect(refusal('{"a":"x\ny"}')).toEqual({ code: 'ERR_BODY_NOT_JSON', message: 'control character in string at offset 7 (near "\\ny\\"}")', position: 7 });
  });
  it('refuses a string the body ends in', () => {
    expect(refusal('{"a":"abc')).toEqual({ code: 'ERR_BODY_NOT_JSON', message: 'unterminated string at offset 9 (near "")', position: 9 });
  });
  it('refuses an escape JSON does not have, even when four hex digits follow it', () => {
    expect(refusal('{"a":"\\x0041"}')).toEqual({
      code: 'ERR_BODY_NOT_JSON', message: 'bad escape in string at offset 6 (near "\\\\x0041\\"}")', position: 6,
    });
  });
  it('reads \\u escapes and simple escapes as the characters they stand for, keeping the text', () => {
    expect(readRawJsonObject('{"a":"\\u00e9\\/ b"}')).toEqual([
      { key: 'a', value: { kind: 'string', value: 'é/ b', raw: '"\\u00e9\\/ b"' } },
    ]);
  });
});

describe(`nesting: at most ${MAX_NESTING_DEPTH} levels deep, however many values stand side by side`, () => {
  // Depth counts the objects and arrays open at a point, not the ones already closed: 600
  // siblings at depth 2 are fine, whichever way each one is closed.
  const siblings = (item: string) => `{"a":[${Array.from({ length: 600 }, () => item).join(',')}]}`;
  it.each([['empty objects', '{}'], ['objects', '{"k":1}'], ['empty arrays', '[]'], ['arrays', '[1]']])('reads 600 %s side by side', (_, item) => {
    const [member] = readRawJsonObject(siblings(item));
    expect(member!.value.kind).toBe('array');
    expect((member!.value as { items: unknown[] }).items).toHaveLength(600);
  });
  it(`refuses ${MAX_NESTING_DEPTH + 1} levels`, () => {
    const body = '['.repeat(MAX_NESTING_DEPTH) + ']'.repeat(MAX_NESTING_DEPTH);
    expect(refusal(`{"a":${body}}`).code).toBe('ERR_BODY_TOO_DEEP');
  });
});
