// The line protocol's two codecs (DESIGN.md "Signers in other languages"): one request is one
// line for any line reader, and every malformed answer line gets a reason naming what is wrong.
import { describe, expect, it } from 'vitest';
import { encodeRequestLine, parseAnswerLine } from '../../harness/vectors/index.ts';

describe('request line: one JSON object, one line, whatever the body holds', () => {
  const body = '{"note":"a\nb\r\nc\u2028d\u2029e\u0085f\\u2028"}';
  const line = encodeRequestLine({ id: 'vectors.signature.1', body, secret: 's' });

  it('ends in one \\n and holds no other line terminator (\\r, U+2028, U+2029, U+0085)', () => {
    expect(line.endsWith('\n')).toBe(true);
    expect(line.slice(0, -1)).not.toMatch(/[\n\r\u2028\u2029\u0085]/);
    // Python's str.splitlines is the widest common splitter.
    expect(line.slice(0, -1).split(/\r\n|[\n\r\v\f\x1c-\x1e\x85\u2028\u2029]/)).toHaveLength(1);
  });
  it('decodes back to the exact body, id and secret', () => {
    expect(JSON.parse(line)).toEqual({ id: 'vectors.signature.1', body, secret: 's' });
  });
});

describe('answer line: a signed answer, a refusal, or a problem naming the field', () => {
  it.each([
    ['{"id":"x","message":"a=1","signature":"ab"}', { ok: true, answer: { id: 'x', message: 'a=1', signature: 'ab' } }],
    ['{"id":"x","error":"no nested values"}', { ok: true, answer: { id: 'x', error: 'no nested values' } }],
  ])('%s', (text, parsed) => {
    expect(parseAnswerLine(text)).toEqual(parsed);
  });
  it.each([
    ['not json', /not JSON/],
    ['[1]', /not a JSON object/],
    ['{"message":"a","signature":"b"}', /"id" is missing/],
    ['{"id":"x","signature":"b"}', /"message" is missing/],
    ['{"id":"x","message":"a"}', /"signature" is missing/],
    ['{"id":"x","message":1,"signature":"b"}', /"message" must be a string/],
    ['{"id":"x","error":false}', /"error" must be a string/],
  ])('%s is refused', (text, problem) => {
    const parsed = parseAnswerLine(text);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.problem).toMatch(problem);
  });
});
