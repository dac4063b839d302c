// A fixed RunReport exercising every writer: all five verdicts, a waived failure, a waiver no
// longer needed, evidence of every kind, hostile text (`<script>&"'`, `]]>`, `|`, control
// characters, a lone surrogate) and non-ASCII text, a shared cause (diagnosis), a burst of alike
// requests.
import type { CaseResult, RunReport } from '../../harness/results/index.ts';
import { countVerdicts } from '../../harness/results/index.ts';

export const HOSTILE = `<script>alert("x")</script> & "quoted" 'single' ]]> done`;

export const CASES: CaseResult[] = [
  {
    id: 'receiver.token.missing',
    title: 'a callback without token gets 403 and no action',
    level: 'MUST',
    specRef: '§6 rule 1',
    verdict: 'PASS',
    durationMs: 12,
  },
  {
    id: 'receiver.token.wrong',
    title: 'a wrong token | gets 403 and no action',
    level: 'MUST',
    specRef: '§6 rule 1',
    verdict: 'FAIL',
    reason: `answered 200, expected 403; ${HOSTILE}`,
    durationMs: 15.4,
    evidence: {
      exchanges: [
        {
          label: 'callback with a wrong token',
          request: {
            method: 'GET',
            url: 'http://127.0.0.1:8081/callback?transaction_id=T-1&status=SUCCESS&message=Gr%C3%BC%C3%9Fe+%E2%9C%93',
            headers: { 'x-callback-token': '[REDACTED]', accept: ['*/*', 'text/plain'] },
          },
          response: { status: 200, headers: { 'content-type': 'text/plain' }, bodyExcerpt: 'ok ```', durationMs: 3.2 },
          curl: `curl -sS -H "X-Callback-Token: $COLLECT_CALLBACK_TOKEN" 'http://127.0.0.1:8081/callback?transaction_id=T-1&status=SUCCESS'`,
        },
      ],
      records: { way: 'hooks', before: { transaction_id: 'T-1', state: 'pending', value: 'pending', actions: 0 }, after: { transaction_id: 'T-1', state: 'SUCCESS', value: 'SUCCESS', actions: 1 } },
      notes: ['control \u0001 character and a lone \uD800 surrogate', 'Grüße ✓ 𝄞'],
    },
  },
  {
    id: 'receiver.latency.burst',
    title: 'replies 2xx within the deadline under a burst',
    level: 'SHOULD',
    specRef: '§8',
    verdict: 'WARN',
    reason: 'p99 2900 ms is close to the 3000 ms deadline',
    durationMs: 4100,
    evidence: {
      // A burst: alike requests, shown as one and their distribution.
      exchanges: [120, 2950, 80, 3100, 900].map((durationMs, i) => ({
        label: `burst callback ${i + 1} of 5`,
        request: { method: 'GET', url: `http://127.0.0.1:8081/callback?transaction_id=T-B${i}&status=SUCCESS`, headers: { 'x-callback-token': '[REDACTED]' } },
        response: { status: i === 3 ? 503 : 200, durationMs },
        curl: `curl -sS -H "X-Callback-Token: $COLLECT_CALLBACK_TOKEN" 'http://127.0.0.1:8081/callback?transaction_id=T-B${i}&status=SUCCESS'`,
      })),
      latency: { samples: 50, p50Ms: 120, p99Ms: 2900, maxMs: 2950 },
    },
  },
  {
    id: 'receiver.idempotence.concurrent',
    title: 'ten concurrent duplicates are applied once',
    level: 'MUST',
    specRef: '§6 rule 2',
    verdict: 'SKIP',
    reason: 'the target has no test hooks (hooksUrl not set)',
    durationMs: 0,
  },
  {
    id: 'service.callback.retry-backoff',
    title: 'non-2xx answers are retried with growing intervals',
    level: 'MUST',
    specRef: '§6',
    verdict: 'FAIL',
    reason: 'intervals do not grow: 100, 100, 100 ms',
    durationMs: 512,
    evidence: {
      deliveries: [0, 100, 200, 300].map((atMs, i) => ({
        atMs,
        method: 'GET',
        rawUrl: `/cb?transaction_id=T-2&status=SUCCESS&message=paid+in+full`,
        headers: { 'x-callback-token': '[REDACTED]' },
        answeredStatus: i < 3 ? 500 : 200,
        overHttps: false,
      })),
      timeline: { offsetsMs: [0, 100, 200, 300], intervalsMs: [100, 100, 100] },
    },
  },
  {
    id: 'service.auth.source-ip',
    title: 'a signed request from a non-whitelisted source is rejected',
    level: 'MUST',
    specRef: '§5.4',
    verdict: 'ERROR',
    reason: 'connect ECONNREFUSED 127.0.0.1:9000\nsecond line',
    durationMs: 30,
    diagnoses: ['service.refused'],
    evidence: {
      exchanges: [{ request: { method: 'POST', url: 'http://127.0.0.1:9000/collect', headers: {}, body: '{"amount":"1.00"}', localAddress: '127.0.0.2' }, error: 'ECONNREFUSED' }],
    },
  },
  {
    id: 'service.sandbox.leading-zeros',
    title: 'leading zeros of a customer number survive',
    level: 'MUST',
    specRef: '§5.3',
    verdict: 'FAIL',
    reason: 'number 0244000001 rejected as 244000001',
    durationMs: 44,
    waiver: { reason: 'vendor ticket 12 <b>', expires: '2027-01-31', applied: true },
  },
  {
    id: 'service.sandbox.whitelisted',
    title: 'a whitelisted number is accepted',
    level: 'MUST',
    specRef: '§5.3',
    verdict: 'PASS',
    durationMs: 20,
    waiver: { reason: 'old ticket', applied: false },
  },
  {
    id: 'service.callback.retries-stop-after-2xx',
    title: 'retries stop after a 2xx answer',
    level: 'SHOULD',
    specRef: '§6',
    verdict: 'PASS',
    durationMs: 910,
    evidence: {
      deliveries: [0, 212].map((atMs, i) => ({
        atMs, method: 'GET', rawUrl: '/cb?transaction_id=T-3&status=FAILED&message=no', headers: {}, answeredStatus: i === 0 ? 503 : 204, overHttps: true,
      })),
      timeline: { offsetsMs: [0, 212], intervalsMs: [212] },
    },
  },
  {
    id: 'receiver.latency.single',
    title: 'one valid callback is answered 2xx within the deadline',
    level: 'MUST',
    specRef: '§6 rule 3',
    verdict: 'PASS',
    durationMs: 9,
    evidence: { latency: { samples: 1, p50Ms: 0.8, p99Ms: 0.8, maxMs: 0.8 } },
  },
];

export function sampleReport(): RunReport {
  const cases = structuredClone(CASES);
  return {
    tool: { name: 'collect-conformance', version: '0.1.0' },
    kind: 'run',
    target: { side: 'receiver', callbackUrl: 'http://127.0.0.1:8081/callback', callbackToken: '[REDACTED]', timing: { replyDeadlineMs: 2000 } },
    startedAt: '2026-11-22T15:00:00.000Z',
    finishedAt: '2026-11-22T15:00:05.000Z',
    seed: 42,
    summary: countVerdicts(cases),
    diagnoses: [
      {
        id: 'service.refused',
        summary: `every connection to 127.0.0.1:9000 was refused: the service is likely not running there & ${HOSTILE}`,
        cases: ['service.auth.source-ip', 'service.callback.retry-backoff'],
        evidence: { notes: ['connect ECONNREFUSED 127.0.0.1:9000'] },
      },
    ],
    cases,
  };
}
