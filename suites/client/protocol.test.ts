// The SDK adapter line protocol (harness/sdk/README.md): the request line carries the fields as
// the case wrote them (a number's own text), one object per line for any reader; every answer
// line is checked, and anything else is a protocol error naming what is wrong.
import { describe, expect, it } from 'vitest';
import { encodeCollectLine, encodeStatusLine, parseAdapterLine, startSdkService } from '../../harness/sdk/index.ts';
import { request } from 'undici';

describe('the request line', () => {
  const line = encodeCollectLine({
    id: 'c1', baseUrl: 'http://127.0.0.1:1', credentials: { clientId: 2, clientKey: 'ck_12345678', secretKey: 'sk_12345678' },
    fields: [['amount', '3.3000000000000003'], ['big', '12345678901234567890'], ['exp', '1e3'], ['note', JSON.stringify('a\u2028b')]],
  });
  it('keeps each number as its text, in the order given', () => {
    expect(line).toContain('"fields":{"amount":3.3000000000000003,"big":12345678901234567890,"exp":1e3,"note":');
  });
  it('is one line for any reader: U+2028 escaped, one newline at the end', () => {
    expect(line).toContain('"note":"a\\u2028b"');
    expect(line.indexOf('\n')).toBe(line.length - 1);
    expect(JSON.parse(line)).toMatchObject({ id: 'c1', op: 'collect', credentials: { clientId: 2 } });
  });
});

describe('answer lines', () => {
  it('accepts an outcome with or without detail, and an error', () => {
    expect(parseAdapterLine('{"id":"c1","outcome":"accepted","detail":"HTTP 200"}')).toEqual({ ok: true, id: 'c1', answer: { id: 'c1', outcome: 'accepted', detail: 'HTTP 200' } });
    expect(parseAdapterLine('{"id":"c1","outcome":"rejected"}')).toEqual({ ok: true, id: 'c1', answer: { id: 'c1', outcome: 'rejected' } });
    expect(parseAdapterLine('{"id":"c1","error":"boom"}')).toEqual({ ok: true, id: 'c1', answer: { id: 'c1', error: 'boom' } });
  });
  const bad: Array<[string, string, RegExp]> = [
    ['not JSON', 'accepted', /not JSON/],
    ['no id', '{"outcome":"accepted"}', /"id" is missing/],
    ['an unknown outcome', '{"id":"c1","outcome":"ok"}', /"outcome" must be "accepted" or "rejected", not "ok"/],
    ['a boolean outcome', '{"id":"c1","outcome":true}', /"outcome" must be/],
    ['neither outcome nor error', '{"id":"c1","status":"accepted"}', /"outcome" is missing/],
    ['both outcome and error', '{"id":"c1","outcome":"accepted","error":"x"}', /not both/],
    ['a non-string detail', '{"id":"c1","outcome":"accepted","detail":200}', /"detail" must be a string/],
    ['a non-string error', '{"id":"c1","error":{"message":"x"}}', /"error" must be a string/],
  ];
  for (const [name, line, problem] of bad) {
    it(`${name} → ${problem}`, () => {
      const parsed = parseAdapterLine(line);
      expect(parsed.ok).toBe(false);
      expect(parsed.ok ? '' : parsed.problem).toMatch(problem);
    });
  }
});

describe('op "status" (§4.2): the request line and its answers', () => {
  it('the request names the op and the transaction_id, nothing else of a collect', () => {
    const line = encodeStatusLine({ id: 's1', baseUrl: 'http://127.0.0.1:1', credentials: { clientId: 2, clientKey: 'ck_12345678', secretKey: 'sk_12345678' }, transactionId: 'T-1 &é' });
    expect(JSON.parse(line)).toEqual({ id: 's1', op: 'status', baseUrl: 'http://127.0.0.1:1', credentials: { clientId: 2, clientKey: 'ck_12345678', secretKey: 'sk_12345678' }, transaction_id: 'T-1 &é' });
    expect(line.endsWith('}\n')).toBe(true);
  });
  it('answered with a status (detail optional), a refusal or an error', () => {
    expect(parseAdapterLine('{"id":"s1","status":"PENDING","detail":"HTTP 200"}', 'status')).toEqual({ ok: true, id: 's1', answer: { id: 's1', status: 'PENDING', detail: 'HTTP 200' } });
    expect(parseAdapterLine('{"id":"s1","status":"FAILED"}', 'status')).toEqual({ ok: true, id: 's1', answer: { id: 's1', status: 'FAILED' } });
    expect(parseAdapterLine('{"id":"s1","outcome":"rejected","detail":"HTTP 404"}', 'status')).toEqual({ ok: true, id: 's1', answer: { id: 's1', outcome: 'rejected', detail: 'HTTP 404' } });
    expect(parseAdapterLine('{"id":"s1","error":"not implemented"}', 'status')).toEqual({ ok: true, id: 's1', answer: { id: 's1', error: 'not implemented' } });
  });
  const bad: Array<[string, string, RegExp]> = [
    ['an accepted outcome (a collect\'s answer)', '{"id":"s1","outcome":"accepted"}', /"outcome" "accepted" is for a collect/],
    ['a status outside the three', '{"id":"s1","status":"success"}', /"status" must be "PENDING", "SUCCESS" or "FAILED", not "success"/],
    ['both a status and an outcome', '{"id":"s1","status":"SUCCESS","outcome":"rejected"}', /"status" or "outcome", not both/],
    ['a status and an error', '{"id":"s1","status":"SUCCESS","error":"x"}', /not both/],
    ['nothing', '{"id":"s1"}', /"status" is missing/],
  ];
  for (const [name, line, problem] of bad) {
    it(`${name} → ${problem}`, () => {
      const parsed = parseAdapterLine(line, 'status');
      expect(parsed.ok).toBe(false);
      expect(parsed.ok ? '' : parsed.problem).toMatch(problem);
    });
  }
  it('a collect answered with a status is a protocol error', () => {
    expect(parseAdapterLine('{"id":"c1","status":"SUCCESS"}')).toMatchObject({ ok: false, problem: expect.stringMatching(/"outcome" is missing/) });
  });
});

describe('the harness\'s service end: scripted answers, raw requests recorded', () => {
  it('records method, target, headers as received and body bytes; answers as scripted; a held request is let go with its exchange', async () => {
    const service = await startSdkService({ credentials: { clientId: 2, clientKey: 'ck_12345678', secretKey: 'sk_12345678' }, customerNumbers: ['0244000001'] });
    try {
      const scripted = await service.during({ kind: 'answer', status: 401, contentType: 'application/json', body: '{"message":"no"}' }, async () => {
        const r = await request(`${service.baseUrl}/api/v1.0/collect/?x=1`, { method: 'POST', headers: { 'X-Odd-Case': 'v' }, body: '{"a":15.0}' });
        return { status: r.statusCode, body: await r.body.text() };
      });
      expect(scripted.value).toEqual({ status: 401, body: '{"message":"no"}' });
      const [got] = scripted.received;
      expect(got).toMatchObject({ method: 'POST', target: '/api/v1.0/collect/?x=1', answer: { status: 401, by: 'script' } });
      expect(got!.body.toString()).toBe('{"a":15.0}');
      expect(got!.rawHeaders).toContainEqual(['X-Odd-Case', 'v']);
      expect(got!.headers['x-odd-case']).toEqual(['v']);

      const held = await service.during({ kind: 'silent' }, async () => {
        const sent = request(`${service.baseUrl}/api/v1.0/collect/`, { method: 'POST', body: '{}' }).then(() => 'answered', (e: Error) => `failed: ${e.name}`);
        const outcome = await Promise.race([sent, new Promise<string>((r) => setTimeout(() => r('still held'), 300))]);
        return { outcome, sent };
      });
      expect(held.value.outcome).toBe('still held');
      expect(held.received[0]!.answer).toBeUndefined();
      // Ended with its exchange: the client sees its connection go.
      expect(await held.value.sent).toMatch(/^failed/);
    } finally {
      await service.close();
    }
  });
});

describe('a body that is not UTF-8 (RFC 8259 §8.1) is named by its first bad byte, not shown as U+FFFD only', () => {
  it('ISO-8859-1 "café": byte 0xe9 at offset 9; UTF-8 (also 4-byte sequences): none', async () => {
    const { notUtf8 } = await import('../../harness/cases/client/index.ts');
    expect(notUtf8(Buffer.from('{"a":"caf\u00e9"}', 'latin1'))).toBe('byte 0xe9 at offset 9, after "{\\"a\\":\\"caf"');
    expect(notUtf8(Buffer.from('{"a":"caf\u00e9 \u{1F600}"}', 'utf8'))).toBeUndefined();
    // A lone surrogate written as UTF-8 bytes (ED A0 80) is not UTF-8 either.
    expect(notUtf8(Buffer.from([0x22, 0xed, 0xa0, 0x80, 0x22]))).toMatch(/^byte 0x[0-9a-f]{2} at offset \d, after /);
  });
});
