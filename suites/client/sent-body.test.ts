// What the body an SDK sent is (harness/cases/client/body.ts): a JSON object, a form, or neither,
// and the shared cause the preflight names when it is not JSON. Known answers: every rule that reads
// a form's keys judges what this reads, and the cause's words say what the SDK sent.
import { describe, expect, it } from 'vitest';
import { bodyNotJsonCause, readSentBody, type SentBody } from '../../harness/cases/index.ts';
import type { ReceivedRequest } from '../../harness/sdk/index.ts';
import { Redactor } from '../../harness/secrets/index.ts';

function sent(body: string, contentType?: string): ReceivedRequest {
  const headers: Record<string, string[]> = contentType === undefined ? {} : { 'content-type': [contentType] };
  return {
    atMs: 0, method: 'POST', target: '/api/v1.0/collect/', headers,
    rawHeaders: contentType === undefined ? [] : [['Content-Type', contentType]], body: Buffer.from(body), bodyTruncated: false,
  };
}

function notJson(body: SentBody): Exclude<SentBody, { kind: 'json' }> {
  if (body.kind === 'json') throw new Error('read as JSON');
  return body;
}

describe('a JSON object is read as JSON, whatever its Content-Type says', () => {
  it('its members, as the text stands', () => {
    const body = readSentBody(sent('{"amount":"15.00","client_id":2}', 'application/x-www-form-urlencoded'));
    expect(body.kind).toBe('json');
    expect(body.kind === 'json' && body.members.map((m) => [m.key, m.value.raw])).toEqual([['amount', '"15.00"'], ['client_id', '2']]);
  });
});

describe('a form: by its Content-Type, or by its key=value syntax alone', () => {
  it.each([
    ['Application/X-WWW-Form-URLEncoded; charset=UTF-8', 'case and parameters aside'],
    ['application/x-www-form-urlencoded ;charset=utf-8', 'a space before the parameters'],
  ])('Content-Type %s (%s): read as a form even where the syntax is loose', (contentType) => {
    const body = readSentBody(sent('a=1&flag&b=x+y%21', contentType));
    expect(body).toMatchObject({ kind: 'form', contentType, pairs: [['a', '1'], ['flag', ''], ['b', 'x y!']] });
    expect(body.kind === 'form' && body.members.map((m) => [m.key, m.value])).toEqual([
      ['a', { kind: 'string', value: '1', raw: '"1"' }], ['flag', { kind: 'string', value: '', raw: '""' }], ['b', { kind: 'string', value: 'x y!', raw: '"x y!"' }],
    ]);
  });
  it('an empty body sent as a form has no pairs', () => {
    expect(readSentBody(sent('', 'application/x-www-form-urlencoded'))).toMatchObject({ kind: 'form', pairs: [] });
  });
  it.each([
    ['ab=1', [['ab', '1']]],
    ['a=', [['a', '']]],
    ['a=12', [['a', '12']]],
    ['a==b', [['a', '=b']]],
    ['a=1&b=2&c=3', [['a', '1'], ['b', '2'], ['c', '3']]],
    ['amount=15.00&note=%E2%82%AC', [['amount', '15.00'], ['note', '€']]],
  ])('%s with no Content-Type: a form', (text, pairs) => {
    expect(readSentBody(sent(text))).toMatchObject({ kind: 'form', pairs, contentType: undefined });
  });
  it('key=value text under text/plain: a form all the same', () => {
    expect(readSentBody(sent('a=1&b=2', 'text/plain'))).toMatchObject({ kind: 'form', pairs: [['a', '1'], ['b', '2']], contentType: 'text/plain' });
  });
  it.each([
    ['a=1 junk', 'a space after the pairs'],
    ['junk a=1', 'a space before them'],
    ['a=1\n', 'a line end'],
    ['a=1&', 'an & with no pair after it'],
    ['=1', 'an empty key'],
    ['x', 'no ='],
    ['a=1&b"=2', 'a quote in a key'],
    ['{a=1', 'a brace'],
    ['hello world', 'prose'],
  ])('%j (%s) with no form Content-Type: neither JSON nor a form', (text) => {
    const body = readSentBody(sent(text, 'text/plain'));
    expect(body.kind).toBe('unreadable');
    expect(body.kind === 'unreadable' && body.problem.length).toBeGreaterThan(0);
  });
});

describe('the shared cause when the body is not JSON, for the preflight to name once', () => {
  const redactor = new Redactor(['s3cr3t-value']);
  const cause = (text: string, contentType?: string) => {
    const request = sent(text, contentType);
    return bodyNotJsonCause(request, notJson(readSentBody(request)), redactor);
  };
  it('a form sent as one: the media type named, the body quoted, a secret in it redacted', () => {
    const text = cause('a=1&key=s3cr3t-value', 'application/x-www-form-urlencoded; charset=utf-8');
    expect(text).toMatch(/^the SDK sends `application\/x-www-form-urlencoded`, not JSON: the plain call's body was `a=1&key=\[REDACTED\]` \(§4, §4\.1/);
    expect(text).toContain('share this one cause');
    expect(text).not.toContain('s3cr3t-value');
  });
  it('a form under another Content-Type, or none: that named', () => {
    expect(cause('a=1', 'text/plain')).toMatch(/^the SDK sends a form-encoded body \(Content-Type: text\/plain\), not JSON: the plain call's body was `a=1`/);
    expect(cause('a=1')).toMatch(/^the SDK sends a form-encoded body \(no Content-Type\), not JSON: /);
  });
  it('neither JSON nor a form: what the JSON reader said, and the Content-Type', () => {
    const plain = readSentBody(sent('hello world', 'text/plain'));
    const problem = notJson(plain).kind === 'unreadable' ? (plain as { problem: string }).problem : '';
    expect(cause('hello world', 'text/plain')).toMatch(new RegExp(`^the SDK sends a body that is not JSON \\(${problem.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(Content-Type: text/plain\\)\\): the plain call's body was \`hello world\``));
    expect(cause('hello world')).toContain(' (no Content-Type)): ');
  });
  it('a long body is cut', () => {
    const text = cause(`a=${'x'.repeat(1000)}`);
    expect(text.length).toBeLessThan(600);
    expect(text).toContain('x…`');
  });
});
