// §4.2 as the suite takes it: the query is signed exactly as a collect, and answers are read
// by the position (or a target's pointer) into one of five kinds.
import { describe, expect, it } from 'vitest';
import { readStatusAnswer, signedStatusQuery, statusAnswerBody, STATUS_POSITION, unknownIdAnswerBody } from '../../harness/status/index.ts';
import { hmacHex, parseAuthorizationHeader } from '../../harness/signing/index.ts';

describe('§4.2 status query: signed like collect (§5.1, §5.2)', () => {
  it('POSTs {transaction_id, client_id} to the position path with HMAC over the sorted pairs', () => {
    const q = signedStatusQuery({ baseUrl: 'http://127.0.0.1:9/', transactionId: 'tx-1', clientId: 2, clientKey: 'ck', secretKey: 'sk' });
    expect(q.method).toBe('POST');
    expect(q.url).toBe('http://127.0.0.1:9/api/v1.0/transaction_status/');
    expect(q.body).toBe('{"transaction_id":"tx-1","client_id":2}');
    expect(q.headers['content-type']).toBe('application/json');
    const auth = parseAuthorizationHeader(q.headers.authorization!);
    expect(auth).toMatchObject({ clientKey: 'ck', signature: hmacHex('sk', 'client_id=2&transaction_id=tx-1') });
  });

  it('a GET endpoint carries the pairs in the query, signed over the same message', () => {
    const q = signedStatusQuery({
      baseUrl: 'http://127.0.0.1:9', endpoint: { method: 'GET', path: '/status?v=1', pointer: '/data/state' },
      transactionId: 'a&b', clientId: 7, clientKey: 'ck', secretKey: 'sk',
    });
    expect(q.url).toBe('http://127.0.0.1:9/status?v=1&transaction_id=a%26b&client_id=7');
    expect(q.body).toBeUndefined();
    expect(parseAuthorizationHeader(q.headers.authorization!)).toMatchObject({ signature: hmacHex('sk', 'client_id=7&transaction_id=a&b') });
  });
});

describe('§4.2 status answer: read by the position', () => {
  it.each([
    [200, statusAnswerBody('t', 'SUCCESS'), { kind: 'status', status: 'SUCCESS', transactionId: 't' }],
    [200, statusAnswerBody('t', 'PENDING'), { kind: 'status', status: 'PENDING' }],
    [404, unknownIdAnswerBody('t'), { kind: 'unknown-id' }],
    [200, '{"success":false,"error_code":404}', { kind: 'unknown-id' }],
    [200, '{"success":false}', { kind: 'refused' }],
    [401, '', { kind: 'refused' }],
    [503, '', { kind: 'server-error' }],
    [200, 'OK', { kind: 'unreadable' }],
    [200, '{"status":"success"}', { kind: 'status', status: 'SUCCESS', letterCase: 'lower' }],
    [200, '{"status":"Pending"}', { kind: 'status', status: 'PENDING', letterCase: 'mixed' }],
    [200, '{"status":"successful"}', { kind: 'unreadable' }],
    [200, '{"success":false,"error_code":421,"error_message":"x"}', { kind: 'unknown-id', form: 421 }],
    [400, '{"success":false,"error_code":421}', { kind: 'unknown-id', form: 421 }],
    [200, '{"error_code":421}', { kind: 'refused' }],
    [404, '', { kind: 'unknown-id', form: 404 }],
  ] as const)('%i %s → %o', (status, body, expected) => {
    expect(readStatusAnswer(status, body)).toMatchObject(expected);
  });

  it('a target\'s pointer reads the status where its service puts it', () => {
    expect(readStatusAnswer(200, '{"data":{"state":"FAILED"}}', { ...STATUS_POSITION, pointer: '/data/state' })).toMatchObject({ kind: 'status', status: 'FAILED' });
    expect(readStatusAnswer(200, '{"data":{"state":"FAILED"}}')).toMatchObject({ kind: 'unreadable' });
  });
});
