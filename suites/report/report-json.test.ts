import { describe, expect, it } from 'vitest';
import { jsonWriter, validateReportJson } from '../../harness/report/index.ts';
import { sampleReport } from './sample.ts';

describe('report.json: valid against reports/schema/report.schema.json', () => {
  it('the sample report (all verdicts, waivers, every evidence kind) is valid', () => {
    expect(validateReportJson(JSON.parse(jsonWriter.render(sampleReport())))).toEqual([]);
  });
  it('round-trips: what is written parses back to the same report', () => {
    const report = sampleReport();
    expect(JSON.parse(jsonWriter.render(report))).toEqual(report);
  });
  it('is JSON.stringify(report, null, 2) exactly, also for frozen cases whose blocks are reused', () => {
    const report = sampleReport();
    expect(jsonWriter.render(report)).toBe(`${JSON.stringify(report, null, 2)}\n`);
    report.cases.forEach((c) => Object.freeze(c));
    jsonWriter.render(report);
    expect(jsonWriter.render(report)).toBe(`${JSON.stringify(report, null, 2)}\n`);
  });
  it('a report without cases and without finishedAt (a run just started) is valid', () => {
    const { finishedAt: _f, ...rest } = sampleReport();
    expect(validateReportJson({ ...rest, cases: [], summary: { PASS: 0, FAIL: 0, WARN: 0, SKIP: 0, ERROR: 0 } })).toEqual([]);
  });
  it('evidence is closed: a key harness/results does not name is refused, naming it (the sample, every key known, is valid above)', () => {
    const report = sampleReport() as unknown as { cases: Array<{ evidence?: Record<string, unknown> }> };
    report.cases[0]!.evidence = { ...report.cases[0]!.evidence, signer: { label: 'locale-order' } };
    const problems = validateReportJson(report);
    expect(problems, problems.join('\n')).toHaveLength(1);
    expect(problems[0]).toMatch(/^\/cases\/0\/evidence.*signer/);
  });
});

describe('report.json: invalid reports are refused with the path of the bad field', () => {
  it("verdict 'MAYBE' names /cases/1/verdict", () => {
    const report = sampleReport() as unknown as { cases: Array<Record<string, unknown>> };
    report.cases[1]!['verdict'] = 'MAYBE';
    const problems = validateReportJson(report);
    expect(problems.some((p) => p.startsWith('/cases/1/verdict:') && p.includes('"PASS"'))).toBe(true);
  });
  it('a level outside MUST/SHOULD names /cases/0/level', () => {
    const report = sampleReport() as unknown as { cases: Array<Record<string, unknown>> };
    report.cases[0]!['level'] = 'MAY';
    expect(validateReportJson(report).some((p) => p.startsWith('/cases/0/level:'))).toBe(true);
  });
  it('a FAIL without reason is refused (reason required for every verdict but PASS)', () => {
    const report = sampleReport();
    delete report.cases[1]!.reason;
    expect(validateReportJson(report)).toContain('/cases/1/reason: is required');
  });
  it('an unknown property on a case is refused (the case model is closed)', () => {
    const report = sampleReport() as unknown as { cases: Array<Record<string, unknown>> };
    report.cases[2]!['verdictt'] = 'PASS';
    expect(validateReportJson(report)).toContain('/cases/2/verdictt: unknown key');
  });
  it('a missing top-level field is refused at /', () => {
    const { seed: _s, ...rest } = sampleReport();
    expect(validateReportJson(rest)).toContain('/seed: is required');
  });
  it('a wrong tool name names /tool/name', () => {
    const report = sampleReport() as unknown as { tool: Record<string, unknown> };
    report.tool['name'] = 'other-tool';
    expect(validateReportJson(report)).toContain('/tool/name: must be "collect-conformance"');
  });
  it('a startedAt that is not a date-time names /startedAt', () => {
    const report = sampleReport();
    report.startedAt = 'yesterday';
    expect(validateReportJson(report).some((p) => p.startsWith('/startedAt:'))).toBe(true);
  });
  it('a delivery without answeredStatus names its path', () => {
    const report = sampleReport() as unknown as { cases: Array<{ evidence: { deliveries: Array<Record<string, unknown>> } }> };
    delete report.cases[4]!.evidence.deliveries[2]!['answeredStatus'];
    expect(validateReportJson(report)).toContain('/cases/4/evidence/deliveries/2/answeredStatus: is required');
  });
  it('a summary that does not count the cases names /summary/<verdict>', () => {
    const report = sampleReport();
    report.summary.PASS += 1;
    expect(validateReportJson(report)).toEqual(['/summary/PASS: is 5, but 4 case(s) have verdict PASS']);
  });
  it('a duplicated case id names the second occurrence', () => {
    const report = sampleReport();
    report.cases.push({ ...report.cases[0]! });
    report.summary.PASS += 1;
    expect(validateReportJson(report)).toEqual(['/cases/10/id: duplicates /cases/0/id ("receiver.token.missing")']);
  });
  it('something that is not an object is refused at /', () => {
    expect(validateReportJson([])).toEqual(['/: must be object']);
  });
});
