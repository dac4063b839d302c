// What every client verdict carries (harness/cases/client/call.ts): where a body stops being
// UTF-8, and the evidence of a call (each request as received, its signing stages, the adapter's
// lines, a curl line with the credentials left to the environment). Known answers.
import { describe, expect, it } from 'vitest';
import { evidenceOf, notUtf8, type SdkCall } from '../../harness/cases/index.ts';
import type { ReceivedRequest } from '../../harness/sdk/index.ts';
import { observationOf } from './observations.ts';
import { signBody } from '../../harness/signing/index.ts';

describe('notUtf8: the first byte where the body stops being UTF-8', () => {
  it.each([
    ['ASCII', Buffer.from('{"a":"caf"}')],
    ['two, three and four byte sequences at their edges', Buffer.from('\u0080\u07ff\u0800\uffff\u{10000}\u{10ffff}é€😀')],
    ['nothing', Buffer.alloc(0)],
  ].map(([what, body]) => ({ what, body })))('$what: UTF-8', ({ body }) => {
    expect(notUtf8(body as Buffer)).toBeUndefined();
  });
  // Each edge of each sequence width, valid, then a byte that never is: the offset is past them all.
  it.each([
    ['U+0080 (c2 80)', [0xc2, 0x80]], ['U+07FF (df bf)', [0xdf, 0xbf]], ['U+0800 (e0 a0 80)', [0xe0, 0xa0, 0x80]],
    ['U+FFFF (ef bf bf)', [0xef, 0xbf, 0xbf]], ['U+10000 (f0 90 80 80)', [0xf0, 0x90, 0x80, 0x80]], ['U+10FFFF (f4 8f bf bf)', [0xf4, 0x8f, 0xbf, 0xbf]],
  ] as Array<[string, number[]]>)('%s read whole, the 0xff after it named', (_, bytes) => {
    expect(notUtf8(Buffer.from([...bytes, 0xff]))).toMatch(new RegExp(`^byte 0xff at offset ${bytes.length}, `));
  });
  it('continuation bytes with no lead, however many: the first named', () => {
    expect(notUtf8(Buffer.from([0x61, 0x80, 0x80, 0x80, 0x80, 0x41, 0xff]))).toBe('byte 0x80 at offset 1, after "a"');
    expect(notUtf8(Buffer.from([0x61, 0x80, 0x41]))).toBe('byte 0x80 at offset 1, after "a"');
  });
  it.each([
    ['Latin-1 é after text', Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x22]), 'byte 0xe9 at offset 3, after "caf"'],
    ['a lone continuation byte', Buffer.from([0x61, 0x80]), 'byte 0x80 at offset 1, after "a"'],
    ['an overlong lead 0xc1', Buffer.from([0x61, 0xc1, 0x81]), 'byte 0xc1 at offset 1, after "a"'],
    ['0xc2 with no continuation', Buffer.from([0x61, 0xc2, 0x41]), 'byte 0xc2 at offset 1, after "a"'],
    ['0xdf cut at the end', Buffer.from([0x61, 0x62, 0xdf]), 'byte 0xdf at offset 2, after "ab"'],
    ['0xe0 with one continuation then ASCII', Buffer.from([0x61, 0xe0, 0xa0, 0x41]), 'byte 0xe0 at offset 1, after "a"'],
    ['0xef cut after one continuation', Buffer.from([0x61, 0xef, 0xbf]), 'byte 0xef at offset 1, after "a"'],
    ['0xf0 with two continuations then ASCII', Buffer.from([0x61, 0xf0, 0x9f, 0x98, 0x41]), 'byte 0xf0 at offset 1, after "a"'],
    ['0xf4 cut after two continuations', Buffer.from([0x61, 0xf4, 0x8f, 0xbf]), 'byte 0xf4 at offset 1, after "a"'],
    ['0xf5, never a lead', Buffer.from([0x61, 0xf5, 0x80, 0x80, 0x80]), 'byte 0xf5 at offset 1, after "a"'],
    ['0xff', Buffer.from([0xff]), 'byte 0xff at offset 0, after ""'],
    ['after valid two, three and four byte sequences', Buffer.concat([Buffer.from('é€😀'), Buffer.from([0xe9])]), 'byte 0xe9 at offset 9, after "Ã©â\u0082¬ð\u009f\u0098\u0080"'],
    ['far in: only the last 12 bytes before it quoted', Buffer.concat([Buffer.from('0123456789abcdefghij'), Buffer.from([0xe9])]), 'byte 0xe9 at offset 20, after "89abcdefghij"'],
  ].map(([what, body, where]) => ({ what, body, where })))('$what: $where', ({ body, where }) => {
    expect(notUtf8(body as Buffer)).toBe(where);
  });
});

describe('evidenceOf: what a client verdict shows', () => {
  const secretKey = 'sk-evidence-secret-0001';
  const clientKey = 'ck-evidence-key-0001';
  const body = '{"amount":"1.00","client_id":2}';
  const signature = signBody(body, secretKey).signature;
  function request(overrides: Partial<ReceivedRequest> = {}): ReceivedRequest {
    return {
      atMs: 12, method: 'POST', target: '/api/v1.0/collect/',
      headers: { host: ['127.0.0.1:1'], 'content-length': [String(body.length)], connection: ['keep-alive'], 'content-type': ['application/json'], 'x-trace': ['a', 'b'], authorization: [`HMAC ${clientKey}:${signature}`] },
      rawHeaders: [['Host', '127.0.0.1:1'], ['Content-Type', 'application/json'], ['X-Trace', 'a'], ['X-Trace', 'b'], ['X-Trace', 'c'], ['Authorization', `HMAC ${clientKey}:${signature}`]],
      body: Buffer.from(body), bodyTruncated: false,
      answer: { status: 200, contentType: 'application/json', body: '{"success":true}', by: 'script', durationMs: 3 },
      ...overrides,
    };
  }
  function observation(requests: ReceivedRequest[], line = '{"id":"c1","outcome":"accepted"}'): SdkCall {
    return observationOf({ secretKey, clientKey }, { requests, answer: line === '' ? { kind: 'nothing', waitedMs: 10, line: '' } : { kind: 'outcome', outcome: 'accepted', line } });
  }

  it('each request as received (header names in their case and order, repeats kept), the answer, the signing stages, the adapter lines', () => {
    const evidence = evidenceOf(observation([request()]));
    const [exchange] = evidence.exchanges!;
    expect(exchange!.label).toBe('request the SDK sent (12 ms into the call)');
    expect(exchange!.request).toEqual({
      method: 'POST', url: 'http://127.0.0.1:1/api/v1.0/collect/', body,
      headers: { Host: '127.0.0.1:1', 'Content-Type': 'application/json', 'X-Trace': ['a', 'b', 'c'], Authorization: `HMAC ${clientKey}:${signature}` },
    });
    expect(exchange!.response).toEqual({ status: 200, headers: { 'content-type': 'application/json' }, bodyExcerpt: '{"success":true}', durationMs: 3 });
    expect(evidence.signing).toEqual([{
      pairs: ['amount = 1.00', 'client_id = 2'], message: 'amount=1.00&client_id=2', expectedSignature: signature,
      presentedAuthorization: `HMAC ${clientKey}:${signature}`,
    }]);
    expect(evidence.adapter).toEqual({ sent: '{"id":"c1","op":"collect"}', answered: '{"id":"c1","outcome":"accepted"}' });
    expect(evidence.serviceScript).toEqual({ kind: 'reference' });
    expect(evidence).not.toHaveProperty('notes');
  });
  it('the curl line: the headers but host, content-length and connection, repeats joined; the credentials from the environment', () => {
    const curl = evidenceOf(observation([request()])).exchanges![0]!.curl!;
    expect(curl).toMatch(/^curl -sS -i -X POST /);
    expect(curl).toContain("'content-type: application/json'");
    expect(curl).toContain("'x-trace: a, b'");
    expect(curl).toContain('COLLECT_CLIENT_KEY');
    expect(curl).not.toMatch(/host:|content-length:|connection:/i);
    expect(curl).not.toContain(clientKey);
  });
  it('notes when given; no Authorization, no answer, a body not JSON, a truncated body: each said so', () => {
    const held = request({ headers: { 'content-type': ['text/plain'] }, rawHeaders: [['Content-Type', 'text/plain']], body: Buffer.from('a=1'), answer: undefined });
    const evidence = evidenceOf(observation([held], ''), ['first note']);
    expect(evidence.notes).toEqual(['first note']);
    expect(evidence.adapter).toEqual({ sent: '{"id":"c1","op":"collect"}', answered: null });
    expect(evidence.exchanges![0]).not.toHaveProperty('response');
    expect(evidence.exchanges![0]!.error).toMatch(/^the harness held the request without answering/);
    expect(evidence.exchanges![0]!.response).toBeUndefined();
    expect((evidence.signing as unknown[])[0]).toEqual({ error: expect.stringMatching(/./) as unknown });
    const cut = evidenceOf(observation([request({ bodyTruncated: true, answer: { status: 503, body: 'down', by: 'script', durationMs: 1 } })])).exchanges![0]!;
    expect(cut.request!.body).toBe(`${body}… (truncated)`);
    expect(cut.response).toEqual({ status: 503, bodyExcerpt: 'down', durationMs: 1 });
    const unsigned = (evidenceOf(observation([request({ headers: { 'content-type': ['application/json'] } })])).signing as Array<Record<string, unknown>>)[0]!;
    expect(unsigned.presentedAuthorization).toBeNull();
  });
  it('an answer body is kept to its first 500 characters', () => {
    const long = evidenceOf(observation([request({ answer: { status: 200, body: 'x'.repeat(600), by: 'script', durationMs: 1 } })])).exchanges![0]!;
    expect(long.response).toEqual({ status: 200, bodyExcerpt: 'x'.repeat(500), durationMs: 1 });
  });
});
