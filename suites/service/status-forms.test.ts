// service.status where the evidence disagrees or the endpoint is absent (issue 37,
// docs/positions.md status.answer-values, status.unknown-id, status.endpoint-absent): a service
// answering in lower case with 421 for an unknown id PASSes as one answering in upper case with
// 404, each with the form it used noted; a service with collect only (a test double) is not judged
// on status: its status cases SKIP under one shared cause, and its preflight rests on collect alone.
import { describe, expect, it } from 'vitest';
import { SERVICE_CASES } from '../../harness/cases/index.ts';
import { startEmbeddedService, type EmbeddedServiceOptions } from '../../harness/embedded/index.ts';
import { runSide } from '../../harness/run/index.ts';
import { runCases } from '../../harness/runner/index.ts';
import { STATUS_POSITION } from '../../harness/status/index.ts';
import type { ResolvedServiceTarget } from '../../harness/targets/index.ts';
import { startFront } from './fixtures/front.ts';
import { LOADED_SERVICE, PENDING_SEEN } from '../support/timing.ts';

const SEED = 3737;
const STATUS_CASES = SERVICE_CASES.filter((c) => c.id.startsWith('service.status.'));
const show = (results: ReadonlyArray<{ id: string; verdict: string; reason?: string }>) => results.map((r) => `${r.verdict} ${r.id} ${r.reason ?? ''}`).join('\n');
const notes = (r: { evidence?: { notes?: readonly string[] } }) => (r.evidence?.notes ?? []).join('\n');

async function runForm(statusForm: NonNullable<EmbeddedServiceOptions['statusForm']>) {
  // A query right after the acceptance sees it pending, and the limits hold, also on a loaded machine.
  const service = await startEmbeddedService({ statusForm, ...PENDING_SEEN });
  try {
    return await runSide({ cases: STATUS_CASES, target: service.target, seed: SEED });
  } finally {
    await service.close();
  }
}

describe('status answers in either form of the evidence: PASS, the form noted', () => {
  it('lower-case values and 421 with success false for an unknown id (the real client\'s form): every service.status case PASSes', async () => {
    const run = await runForm({ letterCase: 'lower', unknownId: 421 });
    expect(run.preflight.result.verdict, run.preflight.result.reason).toBe('PASS');
    expect(show(run.results.filter((r) => r.verdict !== 'PASS'))).toBe('');
    expect(notes(run.preflight.result)).toMatch(/the answer spelled the status in lower case \("success"\); the kit reads either letter case/);
    const byId = new Map(run.results.map((r) => [r.id, r]));
    expect(notes(byId.get('service.status.success-agrees')!)).toMatch(/spelled the status in lower case \("success"\)/);
    expect(notes(byId.get('service.status.unknown-id-not-success')!)).toMatch(/the unknown id was answered "error_code": 421 with "success": false; the kit reads 404 and 421 alike/);
  });
  it('upper-case values and 404 for an unknown id: every service.status case PASSes, that form noted', async () => {
    const run = await runForm({ letterCase: 'upper', unknownId: 404 });
    expect(run.preflight.result.verdict, run.preflight.result.reason).toBe('PASS');
    expect(show(run.results.filter((r) => r.verdict !== 'PASS'))).toBe('');
    const byId = new Map(run.results.map((r) => [r.id, r]));
    expect(notes(byId.get('service.status.success-agrees')!)).toMatch(/spelled the status in upper case \("SUCCESS"\)/);
    expect(notes(byId.get('service.status.unknown-id-not-success')!)).toMatch(/the unknown id was answered HTTP 404/);
  });
});

/** A test double of the service with collect only (forwarded to `reference`): any other path is answered `status` with `body` (JSON; undefined: none); `asked` lists those paths as asked. */
async function collectOnly(reference: ResolvedServiceTarget, { status, body }: { status: number; body: unknown } = { status: 404, body: { message: 'Not Found' } }) {
  const asked: string[] = [];
  const front = await startFront(reference, async ({ url }, t) => {
    if (url.pathname === '/api/v1.0/collect/') return t.forward();
    asked.push(url.pathname);
    return t.json(status, body);
  });
  return Object.assign(front, { asked });
}

describe('a service without the status endpoint (collect only): not judged on status, one shared cause', () => {
  it('its status path answers as a path no API has: preflight PASS on collect alone, the eight status cases SKIP, one cause names the line to add', async () => {
    const service = await startEmbeddedService(LOADED_SERVICE);
    const front = await collectOnly(service.target);
    try {
      const target: ResolvedServiceTarget = { ...service.target, baseUrl: front.url };
      const run = await runSide({ cases: STATUS_CASES, target, seed: SEED });
      expect(run.preflight.result.verdict, run.preflight.result.reason).toBe('PASS');
      expect(run.preflight.controls['status-refusal']?.state).toBe('not-run');
      for (const r of run.results) {
        expect(r.verdict, `${r.id}: ${r.reason}`).toBe("SKIP");
        expect(r.reason, r.id).toMatch(new RegExp(`^not exercised: the service has no status endpoint at POST ${STATUS_POSITION.path.replace(/\//g, '\\/')}: .*a path no API has.*Add "status": false to the target file`));
        // The path beside it: the status path's last segment, its trailing slash dropped, and a name no API has.
        expect(r.reason, r.id).toContain(', as the same query to /api/v1.0/transaction_status-collect-conformance-no-such-path/, a path no API has, was (HTTP 404 {"message":"Not Found"}); ');
      }
      // Asked once in the run, by whichever of the preflight and the cases (which start beside it) met the 404 first.
      expect(front.asked.filter((path) => path !== STATUS_POSITION.path)).toEqual(['/api/v1.0/transaction_status-collect-conformance-no-such-path/']);
      const causes = run.diagnoses;
      expect(causes.map((c) => c.id)).toEqual(['service.status-endpoint-absent']);
      expect([...causes[0]!.cases].sort()).toEqual(STATUS_CASES.map((c) => c.id).sort());
    } finally {
      await front.close();
      await service.close();
    }
  });
  it('its positive control: a status path answering 404 unlike a path no API has (an unknown id\'s body) is not taken for an absent endpoint', async () => {
    const service = await startEmbeddedService(LOADED_SERVICE);
    const front = await startFront(service.target, async ({ url }, t) => (url.pathname === STATUS_POSITION.path
      ? t.json(404, { success: false, error_code: 'TRANSACTION_NOT_FOUND', error_message: 'no such transaction' })
      : url.pathname === '/api/v1.0/collect/' ? t.forward() : t.json(404, { message: 'Not Found' })));
    try {
      const run = await runSide({ cases: STATUS_CASES, target: { ...service.target, baseUrl: front.url }, seed: SEED });
      expect(run.preflight.result.verdict).toBe('PASS');
      expect(run.preflight.controls['status-refusal']?.state).toBe('failed');
      expect(run.preflight.findings.map((f) => f.id)).toEqual(['service.status-query-refused']);
      expect(run.results.filter((r) => r.verdict === 'SKIP').map((r) => r.id)).toEqual([]);
    } finally {
      await front.close();
      await service.close();
    }
  });
  it('a stated GET endpoint with a query, under a baseUrl ending in slashes, absent too: the probe asks the path beside the stated one, under the same base, and the reason names both', async () => {
    const service = await startEmbeddedService(LOADED_SERVICE);
    const front = await collectOnly(service.target);
    try {
      const target: ResolvedServiceTarget = { ...service.target, baseUrl: `${front.url}//`, status: { method: 'GET', path: '/api/v2/payments/status?format=json', pointer: '/status' } };
      const [result] = await runCases({ cases: STATUS_CASES, target, seed: SEED, only: 'service.status.unknown-id-not-success' });
      expect(result!.verdict, result!.reason).toBe('SKIP');
      expect(result!.reason).toMatch(/^not exercised: the service has no status endpoint at GET \/api\/v2\/payments\/status\?format=json: a correctly signed status query for an accepted transaction was answered HTTP 404 \{"message":"Not Found"\}, as the same query to \/api\/v2\/payments\/status-collect-conformance-no-such-path\/, a path no API has, was \(HTTP 404 /);
      // Its evidence: the probe went to the path beside the stated one, under the base URL as the status query was.
      const probes = result!.evidence?.exchanges?.filter((e) => e.label === 'the same status query to a path no API has (is the status endpoint there at all?)');
      expect(probes?.map((e) => `${e.request.method} ${e.request.url}`)).toEqual([`GET ${front.url}/api/v2/payments/status-collect-conformance-no-such-path/`]);
    } finally {
      await front.close();
      await service.close();
    }
  });
  // A double's 404 may carry no JSON object at all: it says no error_code, as a path no API has says none.
  it.each([['JSON null', null, ' null'], ['an empty body', undefined, '']])('every other path answered 404 with %s: absent all the same (the case SKIPs under the shared cause)', async (_, body, shown) => {
    const service = await startEmbeddedService(LOADED_SERVICE);
    const front = await collectOnly(service.target, { status: 404, body });
    try {
      const [result] = await runCases({ cases: STATUS_CASES, target: { ...service.target, baseUrl: front.url }, seed: SEED, only: 'service.status.unknown-id-not-success' });
      expect([result!.verdict, result!.stated?.causes]).toEqual(['SKIP', ['status-endpoint-absent']]);
      expect(result!.reason).toMatch(new RegExp(`^not exercised: the service has no status endpoint at POST \\S+: a correctly signed status query for an accepted transaction was answered HTTP 404${shown}, as the same query to \\S+, a path no API has, was \\(HTTP 404${shown}\\); `));
    } finally {
      await front.close();
      await service.close();
    }
  });
});
