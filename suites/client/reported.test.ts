// What an SDK reported, in the words of a client reason (harness/cases/client/call.ts): its
// report of each kind, and the silence of an SDK that kept its caller waiting after the service
// had answered. Known answers, from observations built here.
import { describe, expect, it } from 'vitest';
import { reported, silence, type SdkCall } from '../../harness/cases/client/index.ts';
import type { ReceivedRequest } from '../../harness/sdk/index.ts';
import { Redactor } from '../../harness/secrets/index.ts';

const secretKey = 'sk-reported-secret-0001';

function observation(answer: SdkCall['answer'], requests: Array<Partial<ReceivedRequest>> = []): SdkCall {
  return { ctx: { redactor: new Redactor([secretKey]) }, answer, requests } as unknown as SdkCall;
}
const nothing = (waitedMs: number): SdkCall['answer'] => ({ kind: 'nothing', waitedMs, line: '' });
const answered = (status: number, body: string, durationMs = 16) => ({ answer: { status, contentType: 'application/json', body, by: 'script', durationMs } }) as Partial<ReceivedRequest>;

describe('reported: the adapter\'s report in words', () => {
  it.each([
    ['accepted', { kind: 'outcome', outcome: 'accepted', line: '' }, 'accepted'],
    ['rejected, with the SDK\'s detail', { kind: 'outcome', outcome: 'rejected', detail: 'HTTP 401', line: '' }, 'rejected (HTTP 401)'],
    ['a status', { kind: 'status', status: 'PENDING', line: '' }, 'status PENDING'],
    ['a status, with the SDK\'s detail', { kind: 'status', status: 'FAILED', detail: 'from cache', line: '' }, 'status FAILED (from cache)'],
    ['an error', { kind: 'error', error: 'boom', line: '' }, 'an error (boom)'],
    ['nothing, under 10 s: in ms', nothing(850), 'nothing within 850 ms'],
    ['nothing, whole seconds from 10 s: in s', nothing(10_000), 'nothing within 10 s'],
    ['nothing, 9 s: in ms (seconds only from 10 s)', nothing(9000), 'nothing within 9000 ms'],
    ['nothing, 10.5 s: in ms (not whole seconds)', nothing(10_500), 'nothing within 10500 ms'],
  ] as Array<[string, SdkCall['answer'], string]>)('%s', (_, answer, words) => {
    expect(reported(observation(answer))).toBe(words);
  });
});

describe('silence: an SDK that reported nothing after the service answered', () => {
  it('after a refusal: the shared cause refusals-unreported, the answer quoted with its whitespace squashed', () => {
    expect(silence(observation(nothing(12_000), [{}, answered(400, ' {"success": false,\n  "message": "bad"} ')]))).toStrictEqual({
      text: 'the SDK reported nothing after the service refused in 16 ms (HTTP 400 {"success": false, "message": "bad"}): nothing within 12 s, so its caller would wait for ever',
      causes: ['refusals-unreported'],
    });
  });
  it('after an acceptance: said, no shared cause', () => {
    expect(silence(observation(nothing(700), [answered(200, '{"success":true}', 5)]))).toStrictEqual({
      text: 'the SDK reported nothing after the service accepted in 5 ms (HTTP 200 {"success":true}): nothing within 700 ms, so its caller would wait for ever',
      causes: [],
    });
  });
  it('an empty answer body: no quote', () => {
    expect(silence(observation(nothing(700), [answered(503, '  ')]))?.text).toBe('the SDK reported nothing after the service refused in 16 ms (HTTP 503): nothing within 700 ms, so its caller would wait for ever');
  });
  it('a secret in the answer is redacted', () => {
    expect(silence(observation(nothing(700), [answered(400, `{"echo":"${secretKey}"}`)]))?.text).toContain('(HTTP 400 {"echo":"[REDACTED]"})');
  });
  it('no silence when the SDK reported, or when no request got an answer', () => {
    expect(silence(observation({ kind: 'outcome', outcome: 'accepted', line: '' }, [answered(200, '{"success":true}')]))).toBeUndefined();
    expect(silence(observation(nothing(700), [{}]))).toBeUndefined();
    expect(silence(observation(nothing(700)))).toBeUndefined();
  });
});
