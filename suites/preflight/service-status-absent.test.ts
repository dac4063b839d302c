// The service's status control (harness/preflight/service.ts) when the service has no status
// endpoint at the suite's position (docs/positions.md status.endpoint-absent): its status path
// answers as a path no API has, so the service is not judged on status (named once,
// service.status-endpoint-absent, like a version-1 SDK adapter) and the preflight rests on collect
// alone; beside it, the positive control: a status path answering 404 with an unknown id's body is
// a status endpoint, its refusal named as such. Against the reference service behind fronts of
// the tests' own.
import { describe, expect, it } from 'vitest';
import { startEmbeddedService } from '../../harness/embedded/index.ts';
import { runPreflight } from '../../harness/preflight/index.ts';
import { STATUS_POSITION } from '../../harness/status/index.ts';
import type { ResolvedServiceTarget } from '../../harness/targets/index.ts';
import { startFront, type FrontHandler } from '../service/fixtures/front.ts';
import { startedForDescribe } from '../support/per-describe.ts';

const WHAT_STATUS = 'the preflight\'s correctly signed status query for its accepted transaction';
const REFUSED_NOTE = '(the status cases name it: service.status-query-refused';

const reference = startedForDescribe(() => startEmbeddedService({ timing: { callbackTimeoutMs: 1000 } }));

/** The preflight against the reference behind a front answering as `handler` says. */
async function preflightBehind(handler: FrontHandler) {
  const front = await startFront(reference().target, handler);
  try {
    const target: ResolvedServiceTarget = { ...reference().target, baseUrl: front.url };
    return await runPreflight({ target, seed: 26 });
  } finally {
    await front.close();
  }
}

/**
 * A test double of the service with collect only: any other path is 404 {"message": "Not Found"},
 * or, given `statusAnswer`, its status path is answered 404 with that body.
 */
const collectOnly = (statusAnswer?: unknown): FrontHandler => async ({ url }, t) => (url.pathname === '/api/v1.0/collect/' ? t.forward()
  : t.json(404, url.pathname === STATUS_POSITION.path && statusAnswer !== undefined ? statusAnswer : { message: 'Not Found' }));

describe('service.status-endpoint-absent: the status path answers as a path no API has', () => {
  it('not judged on status: the control is not run, named once with the line to add; the preflight PASSes on collect alone, noting it', async () => {
    const { preflight, result } = await preflightBehind(collectOnly());
    expect(preflight.controls.refusal?.state).toBe('held');
    expect(preflight.controls['no-delivery']?.state).toBe('held');
    const status = preflight.controls['status-refusal']!;
    expect(status).toEqual({ state: 'not-run', what: WHAT_STATUS, observed: expect.stringContaining(`the service has no status endpoint at POST ${STATUS_POSITION.path}: a correctly signed status query for an accepted transaction was answered HTTP 404`) });
    expect(status.observed).toMatch(/, as the same query to \S+-collect-conformance-no-such-path\/, a path no API has, was \(HTTP 404 .*\); .*Add "status": false to the target file/);
    expect(preflight.findings).toEqual([{
      id: 'service.status-endpoint-absent', summary: status.observed,
      symptom: { kind: 'stated', cause: 'status-endpoint-absent' },
      evidence: expect.objectContaining({ exchanges: expect.any(Array) }),
    }]);
    // The evidence shows both queries: the status query and the same one to a path no API has.
    expect(preflight.findings[0]!.evidence!.exchanges!.map((e) => e.label)).toEqual([
      'preflight: correctly signed collect', 'preflight: correctly signed status query',
      'the same status query to a path no API has (is the status endpoint there at all?)',
    ]);
    expect(result.verdict).toBe('PASS');
    expect(result.evidence?.notes).toEqual([`not judged on status: ${status.observed}`]);
  });
  it('its positive control: a status path answering 404 with an unknown id\'s body is a status endpoint; its refusal is service.status-query-refused, not absence', async () => {
    const { preflight, result } = await preflightBehind(collectOnly({ success: false, error_code: 'TRANSACTION_NOT_FOUND', error_message: 'no such transaction' }));
    expect(preflight.controls['status-refusal']).toMatchObject({ state: 'failed', what: WHAT_STATUS });
    expect(preflight.findings.map((f) => f.id)).toEqual(['service.status-query-refused']);
    expect(result.verdict).toBe('PASS');
    expect(result.evidence?.notes).toContainEqual(expect.stringContaining(REFUSED_NOTE));
  });
});
