// harness/results/evidence.ts: every evidence key named, with its type; the schema names the same keys.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { countVerdicts, EVIDENCE_KEYS, verdictAndReason, type CaseResult, type Evidence } from '../../harness/results/index.ts';
import { jsonWriter, REPORT_SCHEMA_PATH, validateReportJson } from '../../harness/report/index.ts';
import { evidenceOf } from '../../harness/cases/index.ts';
import { AttemptLog, judgeStorm, Readings, StormPlan } from '../../harness/storm/index.ts';
import { METRICS, type ArtilleryReport } from '../../harness/artillery/index.ts';
import { reportEvidence } from '../../harness/artillery/report.ts';
import { BuiltInSigner, judgeCallbackQueryVector, judgeCallbackUrlVector, judgeSignerAnswer, type SignatureVector } from '../../harness/vectors/index.ts';
import { findAlternative, profileOf, signBody } from '../../harness/signing/index.ts';
import { observationOf, receivedRequest } from '../client/observations.ts';
import { sampleReport } from '../report/sample.ts';

describe('Evidence: a closed set of keys, each typed', () => {
  it('the type: an unknown key, or a known key of another shape, does not compile', () => {
    // @ts-expect-error: `signer` is no key of Evidence
    const unknownKey: Evidence = { signer: { label: 'locale-order' } };
    // @ts-expect-error: counts is the storm's, with its outcomes and bad-token ids
    const wrongShape: Evidence = { counts: { lost: 1 } };
    // @ts-expect-error: notes are strings
    const wrongNotes: CaseResult = { id: 'x', title: 'x', level: 'MUST', specRef: '§0', verdict: 'PASS', durationMs: 1, evidence: { notes: [1] } };
    const known: Evidence = { notes: ['a'], counts: { outcomes: 1, badTokenIds: 0, lost: 0 }, stage: 'message' };
    expect([unknownKey, wrongShape, wrongNotes.evidence, known].map((e) => Object.keys(e ?? {}))).toEqual([['signer'], ['counts'], ['notes'], ['notes', 'counts', 'stage']]);
  });
  it('EVIDENCE_KEYS lists every key of the type, once', () => {
    // Both ways: each listed key is a key of Evidence (`satisfies` in evidence.ts), and no key of Evidence is left out.
    const complete: [Exclude<keyof Evidence, (typeof EVIDENCE_KEYS)[number]>] extends [never] ? true : false = true;
    expect(complete).toBe(true);
    expect(new Set(EVIDENCE_KEYS).size).toBe(EVIDENCE_KEYS.length);
  });
  it('reports/schema/report.schema.json names the same keys, and refuses any other', () => {
    const schema = JSON.parse(readFileSync(REPORT_SCHEMA_PATH, 'utf8')) as { $defs: { evidence: { properties: Record<string, unknown>; additionalProperties: boolean } } };
    expect(Object.keys(schema.$defs.evidence.properties).sort()).toEqual([...EVIDENCE_KEYS].sort());
    expect(schema.$defs.evidence.additionalProperties).toBe(false);
  });
});

describe('Evidence as the writers make it validates against the schema, key by key', () => {
  it('a report of a client call, a storm (broken and shed, with Artillery\'s counters), vectors of each file (a PHP signer\'s) and the sample\'s receiver case is valid', async () => {
    // A client call: each request as received, its signing stages, the adapter's lines, the scripted service.
    const secretKey = 'sk-evidence-schema-0001';
    const clientKey = 'ck-evidence-schema-0001';
    const body = '{"amount":"1.00","client_id":2}';
    const request = receivedRequest({ body, headers: { 'content-type': ['application/json'], authorization: [`HMAC ${clientKey}:${signBody(body, secretKey).signature}`] } });
    const client = evidenceOf(observationOf({ secretKey, clientKey }, { requests: [request, receivedRequest({ body: 'not json' })] }), ['a note']);

    // A storm of four outcomes, two copies each: one applied twice, one shed and never answered 2xx.
    const plan = new StormPlan({ callbacks: 4, ratePerS: 10, duplicates: 2, badTokensPct: 0, seed: 1, tag: 'e' });
    const log = new AttemptLog();
    const readings = new Readings(4);
    for (let i = 0; i < 4; i++) {
      readings.set(i, { transaction_id: plan.idOf(i), state: i === 3 ? 'pending' : plan.outcomeOf(i), value: null, actions: i === 0 ? 2 : i === 3 ? 0 : 1 });
      for (const copy of [0, 1]) {
        const row = log.start(i, copy, 1, plan.tokenOf(i, copy), i * 10, i * 10 + 1);
        log.onWire(row, i * 10 + 1);
        log.answered(row, i * 10 + 20, i === 3 ? 503 : 200, i === 3 ? 1 : Number.NaN);
      }
    }
    const artillery: ArtilleryReport = { file: 'report.json', counters: { 'vusers.created': 8, 'http.codes.200': 6 }, summaries: { [METRICS.deliveryMs]: { count: 8, p50: 20, p99: 25, max: 25 } }, unanswered: new Map() };
    const storm = judgeStorm({
      plan, log, readings, replyDeadlineMs: 10, maxAttempts: 1, countsActions: true, planned: () => true, durationMs: 100,
      loopDelay: { p99Ms: 1, maxMs: 2 }, readWay: 'many', engineEvidence: { artillery: reportEvidence(artillery) },
    });

    // A vector of each file, judged as a vectors run judges it; the signature one signed by a model of
    // PHP's signer (true signed as 1 and null as nothing, which only it does: the message stage, the alternative named).
    const php = findAlternative('php-string')!;
    const signed = { body: '{"amount":"1","note":null,"paid":true}', secret: 'sk-vector-0001' };
    const stages = signBody(signed.body, signed.secret);
    const signature: SignatureVector = { tcId: 1, comment: 'a float', flags: [], result: 'valid', source: 'service-docs', ...signed, pairs: stages.pairs.map(([k, v]): [string, string] => [k, v]), message: stages.message, signature: stages.signature };
    const answer = await new BuiltInSigner(profileOf(php), php.label).sign({ id: 'vectors.signature.1', ...signed });
    const params = { transaction_id: 'T-1', status: 'SUCCESS', message: 'paid' };
    const judged = [
      { id: 'vectors.signature.1', ...judgeSignerAnswer(signature, answer) },
      { id: 'vectors.callback-url.1', ...judgeCallbackUrlVector({ tcId: 1, comment: 'c', flags: [], result: 'valid', callbackUrl: 'https://r.example/cb', params, url: 'https://r.example/cb?transaction_id=T-1&status=SUCCESS&message=paid' }) },
      { id: 'vectors.callback-query.1', ...judgeCallbackQueryVector({ tcId: 1, comment: 'q', flags: [], result: 'valid', requestTarget: '/cb?transaction_id=T-1&status=SUCCESS&message=paid', expected: params, all: Object.entries(params) }) },
    ];
    const vectors = judged.map(({ id, verdict, reason, level, specRef, evidence }): CaseResult => ({ id, title: id, level, specRef, durationMs: 1, evidence, ...verdictAndReason(verdict, reason) }));

    const report = sampleReport();
    const made = [
      { ...report.cases[0]!, id: 'client.evidence', evidence: client },
      ...storm,
      ...vectors,
    ];
    const all = [...report.cases, ...made];
    const written = JSON.parse(jsonWriter.render({ ...report, cases: all, summary: countVerdicts(all) }));
    expect(validateReportJson(written)).toEqual([]);
    // Exercised: the keys these writers wrote, each one checked by the schema above.
    const seen = new Set(all.flatMap((c) => Object.keys(c.evidence ?? {})));
    // statusQueries needs a confirming receiver's status endpoint; its items are Exchanges, as `exchanges` are.
    expect(EVIDENCE_KEYS.filter((k) => !seen.has(k))).toEqual(['statusQueries']);
    expect([vectors[0]!.verdict, vectors[0]!.evidence?.stage, vectors[0]!.evidence?.alternative]).toEqual(['FAIL', 'message', 'php-string']);
  });
});
