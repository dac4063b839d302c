// Issue 9 points 3 and 4 as a user meets them through `run`: a preflight per side names one
// cause of many failures once, first, in report.json and on the terminal, and the cases point
// to it; a negative case PASSes only beside its positive control, whatever --only selects.
// Here the receiver's controls, and the rules of diagnose and guardNegatives on results made by
// hand. The runs go through runConformance in this process, the terminal's reporter beside it
// (run-in-memory.ts); the first goes through the command with its target file and report
// directory on disk. The same for a misconfigured or slow receiver: receiver-causes.test.ts; for
// a service: service-causes.test.ts (split so that their runs overlap across workers).
import { describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { runFromFlags, type RunIo } from '../../harness/cli/commands/run.ts';
import { diagnose, SHARED_ANSWER_MIN_CASES } from '../../harness/diagnoses/index.ts';
import { validateReportJson } from '../../harness/report/index.ts';
import { startEmbeddedReceiver } from '../../harness/embedded/index.ts';
import { guardNegatives, type Preflight } from '../../harness/preflight/index.ts';
import type { ConformanceCase } from '../../harness/cases/index.ts';
import type { CaseResult, RunReport } from '../../harness/results/index.ts';
import type { ReceiverFault } from '../../harness/receiver/index.ts';
import { dir, notPassed, REPLY_DEADLINE_MS, run, SEED, type RunArgs } from './run-in-memory.ts';
import { startTemplateReceiver } from './template-receiver.ts';

/** `run` as the command line runs it: the target written to a file, report.json and report.md read back from the report directory. */
async function runCommand(args: RunArgs, name: string) {
  const path = join(dir, `${name}.json`);
  writeFileSync(path, JSON.stringify(args.target));
  let stdout = '';
  const io: RunIo = {
    stdout: (t) => { stdout += t; }, stderr: () => {}, env: args.env, cwd: dir, color: false, progress: false,
  };
  const reportDir = join(dir, name);
  const code = await runFromFlags({ target: path, reportDir, seed: String(SEED), ...(args.only ? { only: args.only } : {}) }, io);
  const report = JSON.parse(readFileSync(join(reportDir, 'report.json'), 'utf8')) as RunReport;
  return { code, stdout, report, md: readFileSync(join(reportDir, 'report.md'), 'utf8') };
}

async function receiverRun(options: { faults?: ReceiverFault[]; callbackPath?: string; only?: string }, through: typeof run = run) {
  const receiver = await startEmbeddedReceiver({ timeScale: 0.02, ...(options.faults ? { faults: options.faults } : {}) });
  try {
    const t = receiver.target;
    const callbackUrl = options.callbackPath ? new URL(options.callbackPath, t.callbackUrl).toString() : t.callbackUrl;
    return await through({
      target: { side: 'receiver', callbackUrl, hooksUrl: receiver.receiver.hooksUrl, callbackToken: { env: 'RCV_TOKEN' }, timing: { replyDeadlineMs: REPLY_DEADLINE_MS } },
      env: { RCV_TOKEN: t.callbackToken! },
      ...(options.only ? { only: options.only } : {}),
    });
  } finally {
    await receiver.close();
  }
}

describe('a route that refuses GET (405, Allow: POST): one cause named once, first, and every case points to it', () => {
  it('report.json names receiver.route-refuses-get for every non-PASS case; the terminal names the preflight first (through the command and the report directory)', async () => {
    // REPLY_DEADLINE_MS: twice on a loaded machine, at 500 ms, this first run of the file (the
    // command, loading what it writes the reports with) saw the preflight cut short
    // (receiver.preflight-incomplete), likely a hook answered late.
    const { code, stdout, report, md } = await receiverRun({ faults: ['refuses-get'] }, (args) => runCommand(args, 'refuses-get'));
    expect(code).toBe(1);
    expect(report.diagnoses?.map((d) => d.id)).toEqual(['receiver.route-refuses-get']);
    const [cause] = report.diagnoses!;
    expect(cause!.summary).toContain('405 (Allow: POST)');
    expect(cause!.summary).toContain('does not accept GET');
    expect([...cause!.cases].sort()).toEqual(notPassed(report).map((c) => c.id).sort());
    for (const c of notPassed(report)) expect(c.diagnoses, c.id).toEqual(['receiver.route-refuses-get']);
    // No PASS rests on a refusal: the "changes nothing" cases are ERROR, naming the control.
    const unproven = report.cases.filter((c) => c.id === 'receiver.outcome.unknown-id' || c.id === 'receiver.outcome.missing-status');
    for (const c of unproven) expect(c, c.id).toMatchObject({ verdict: 'ERROR', reason: expect.stringContaining('positive control') });
    expect(report.summary.PASS).toBe(0);
    // The terminal: the preflight line before the first case line, the cause once before the summary line.
    const lines = stdout.split('\n');
    const preflightAt = lines.findIndex((l) => l.includes('preflight.receiver'));
    const firstCaseAt = lines.findIndex((l) => / receiver\.token\./.test(l));
    expect(preflightAt).toBeGreaterThan(-1);
    expect(preflightAt).toBeLessThan(firstCaseAt);
    expect(lines[preflightAt]).toMatch(/^FAIL +preflight\.receiver .*405/);
    const summaryAt = lines.findIndex((l) => /^\d+ cases: /.test(l));
    const causeLines = lines.filter((l) => l.includes('does not accept GET'));
    expect(causeLines).toHaveLength(1);
    expect(lines.indexOf(causeLines[0]!)).toBeLessThan(summaryAt);
    expect(md).toContain('does not accept GET');
    // The reports keep the preflight too, with what it saw: the control every negative case rests on.
    expect(validateReportJson(report)).toEqual([]);
    expect(report.preflights?.map((p) => `${p.id} ${p.verdict}`)).toEqual(['preflight.receiver FAIL']);
    expect(report.preflights![0]!.evidence?.exchanges?.[0]?.response?.status).toBe(405);
    expect(md).toMatch(/## Preflight \(the positive control of each side\)\n\n- \*\*FAIL\*\* `preflight\.receiver` .*405/);
    expect(readFileSync(join(dir, 'refuses-get', 'index.html'), 'utf8')).toMatch(/<h2 id="preflight-h">[^]*<tbody id="preflight\.receiver" class="case r-FAIL">/);
  });
});

describe('a receiver that answers 500 after applying: named as such, the negative cases still PASS', () => {
  it('receiver.server-error-after-applying explains every non-PASS case', async () => {
    const { report } = await receiverRun({ faults: ['error-after-applying'] });
    expect(report.diagnoses?.map((d) => d.id)).toEqual(['receiver.server-error-after-applying']);
    expect(report.diagnoses![0]!.summary).toMatch(/was applied \(the record reads state SUCCESS, actions 1\) but answered 500/);
    expect([...report.diagnoses![0]!.cases].sort()).toEqual(notPassed(report).map((c) => c.id).sort());
    // The record changed on the valid callback, so "no action on a bad token" is proven.
    expect(report.cases.find((c) => c.id === 'receiver.token.wrong')?.verdict).toBe('PASS');
  });
});

describe('a callback URL whose path answers 404 to everything: the "changes nothing" cases do not PASS', () => {
  // One --only run of the negative outcome cases and the token cases, read by both tests.
  let run404: ReturnType<typeof receiverRun> | undefined;
  const notFoundRun = () => (run404 ??= receiverRun({
    callbackPath: '/payments/callback', only: 'receiver.outcome.unknown-*,receiver.outcome.missing-*,receiver.token.*',
  }));
  it('--only the negative outcome cases: ERROR naming the control, exit 1, the cause named', async () => {
    const { code, report } = await notFoundRun();
    expect(code).toBe(1);
    const outcome = report.cases.filter((c) => c.id.startsWith('receiver.outcome.'));
    expect(outcome.map((c) => c.id)).toEqual(expect.arrayContaining(['receiver.outcome.unknown-id', 'receiver.outcome.missing-status']));
    expect(outcome.map((c) => c.verdict)).toEqual(outcome.map(() => 'ERROR'));
    for (const c of outcome) expect(c.reason).toMatch(/preflight's valid callback .* did not hold: it was answered 404 and the record reads state pending, actions 0/);
    expect(report.diagnoses?.map((d) => d.id)).toEqual(['receiver.callback-path-not-found']);
  });
  it('the token cases, answered 404 and nothing acted on: ERROR naming the control (not FAIL), the cause named', async () => {
    const { code, report } = await notFoundRun();
    expect(code).toBe(1);
    // The cases the --only names, and no others.
    expect(report.cases.filter((c) => !/^receiver\.(token\.|outcome\.(unknown|missing)-)/.test(c.id))).toEqual([]);
    // The valid-token cases are positive: their 404 is a finding, explained by the cause.
    const positive = ['receiver.token.valid', 'receiver.token.valid-lowercase-name'];
    for (const id of positive) {
      const valid = report.cases.find((c) => c.id === id);
      expect(valid?.verdict, id).toBe('FAIL');
      expect(valid?.diagnoses, id).toEqual(['receiver.callback-path-not-found']);
    }
    const ran = report.cases.filter((c) => c.id.startsWith('receiver.token.') && c.verdict !== 'SKIP' && !positive.includes(c.id));
    expect(ran.length).toBeGreaterThan(5);
    for (const c of ran) {
      expect(c.verdict, c.id).toBe('ERROR');
      expect(c.reason).toMatch(/answered 404.*§6 rule 1 says 403.*the positive control .* did not hold: it was answered 404.*likely shares its cause/);
      expect(c.diagnoses).toEqual(['receiver.callback-path-not-found']);
    }
  });
});

describe('a receiver whose handler fails before applying (500 to every callback, nothing acted on)', () => {
  it('the outcome cases that must change nothing are ERROR beside the failed control, not FAIL for their 500', async () => {
    const receiver = await startEmbeddedReceiver({ timeScale: 0.02 });
    // Its hooks are the reference receiver's; every callback gets 500 before anything is applied.
    const proxy = createServer((req, res) => {
      if (!req.url!.startsWith('/_conformance')) {
        res.writeHead(500, { 'content-type': 'text/plain' }).end('database unavailable');
        return;
      }
      const hooks = new URL(receiver.receiver.hooksUrl);
      const forward = httpRequest({ host: hooks.hostname, port: hooks.port, path: req.url, method: req.method, headers: req.headers }, (answer) => {
        res.writeHead(answer.statusCode!, answer.headers);
        answer.pipe(res);
      });
      req.pipe(forward);
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
    try {
      const { code, report } = await run({
        target: { side: 'receiver', callbackUrl: `${origin}/callback`, hooksUrl: `${origin}/_conformance`, callbackToken: { env: 'RCV_TOKEN' }, timing: { replyDeadlineMs: REPLY_DEADLINE_MS } },
        env: { RCV_TOKEN: receiver.target.callbackToken! },
        only: 'receiver.outcome.*',
      });
      expect(code).toBe(1);
      for (const id of ['receiver.outcome.success-applied', 'receiver.outcome.failed-applied']) {
        expect(report.cases.find((c) => c.id === id)?.verdict, id).toBe('FAIL');
      }
      const negatives = report.cases.filter((c) => !/applied$/.test(c.id));
      expect(negatives.map((c) => c.id)).toHaveLength(5);
      for (const c of negatives) {
        expect(c.verdict, `${c.id}: ${c.reason}`).toBe('ERROR');
        expect(c.reason).toMatch(/answered 500.*the positive control .* did not hold.*likely shares its cause/);
      }
    } finally {
      await new Promise((resolve) => proxy.close(resolve));
      await receiver.close();
    }
  });
});

describe('issue 22 point 4: a template receiver (200 OK to every callback, no token check, nothing ever written)', () => {
  it('the answer half held, the effect half did not: a bad token answered 200 is a FAIL; "nothing changed" is ERROR naming the control', async () => {
    const receiver = await startTemplateReceiver();
    try {
      const { code, report, md } = await run({
        target: { side: 'receiver', callbackUrl: receiver.callbackUrl, hooksUrl: receiver.hooksUrl, callbackToken: { env: 'RCV_TOKEN' }, timing: { replyDeadlineMs: REPLY_DEADLINE_MS } },
        env: { RCV_TOKEN: 'tpl-Token-0123456789' },
        only: 'receiver.token.*,receiver.outcome.*',
      });
      expect(code).toBe(1);
      expect(receiver.callbacks.length).toBeGreaterThan(10);
      const verdict = (id: string) => report.cases.find((c) => c.id === id);
      // Every bad-token case: accepted like a valid callback. A FAIL (WARN at SHOULD), not ERROR.
      const bad = report.cases.filter((c) => c.id.startsWith('receiver.token.') && !c.id.startsWith('receiver.token.valid'));
      expect(bad).toHaveLength(9);
      for (const c of bad) {
        expect(c.verdict, `${c.id}: ${c.reason}`).toBe(c.level === 'SHOULD' ? 'WARN' : 'FAIL');
        expect(c.reason).toMatch(/^answered 200 OK; §6 rule 1 says 403; whether the receiver acts on it cannot be seen: the preflight's valid callback .* was answered 2xx but not applied either$/);
        // A finding of its own, with its own cause, not explained away by the unapplied records.
        expect(c.diagnoses, c.id).toEqual(['receiver.token-not-checked']);
      }
      // "Nothing changed" proves nothing beside a valid callback that changed nothing either.
      const unproven = ['receiver.outcome.unknown-status-pending', 'receiver.outcome.unknown-status-lowercase', 'receiver.outcome.missing-status', 'receiver.outcome.missing-transaction-id', 'receiver.outcome.unknown-id'];
      for (const id of unproven) {
        expect(verdict(id), id).toMatchObject({
          verdict: 'ERROR',
          reason: expect.stringMatching(/did not hold: it was answered 200 and the record reads state pending, actions 0; this case rests on nothing changing, which says nothing when a valid callback changes nothing either$/),
          diagnoses: ['receiver.valid-callback-not-applied'],
        });
      }
      // The valid callbacks: not applied, the one shared cause, named first.
      for (const id of ['receiver.token.valid', 'receiver.token.valid-lowercase-name', 'receiver.outcome.success-applied', 'receiver.outcome.failed-applied']) {
        expect(verdict(id), id).toMatchObject({ verdict: 'FAIL', diagnoses: ['receiver.valid-callback-not-applied'] });
      }
      expect(report.diagnoses?.map((d) => d.id)).toEqual(['receiver.valid-callback-not-applied', 'receiver.token-not-checked']);
      expect(report.diagnoses![1]!.summary).toMatch(/^9 callbacks with a missing, wrong or near-miss X-Callback-Token were answered 2xx, accepted like a valid callback: likely the receiver does not check the token/);
      expect(md).toContain('`receiver.token.missing`');
    } finally {
      await receiver.close();
    }
  });
});

describe('diagnoses from the results alone', () => {
  const quiet: Preflight = { side: 'receiver', controls: {}, findings: [] };
  const failing = (id: string, status: number): CaseResult => ({
    id, title: id, level: 'MUST', specRef: '§6', verdict: 'FAIL', reason: `answered ${status}`, durationMs: 1,
    evidence: { exchanges: [{ request: { method: 'GET', url: 'http://x/cb', headers: {} }, response: { status, durationMs: 1 } }] },
  });
  it(`${SHARED_ANSWER_MIN_CASES} or more non-PASS cases that all got one non-2xx answer: named as likely one cause`, () => {
    const results = ['a', 'b', 'c'].map((id) => failing(`receiver.x.${id}`, 502));
    const [d, ...more] = diagnose([{ preflight: quiet, results }]);
    expect(more).toEqual([]);
    expect(d).toMatchObject({ id: 'receiver.same-answer-502', cases: results.map((r) => r.id) });
    expect(d!.summary).toMatch(/got the answer 502 .* likely explains/);
  });
  it('an answer the cases got but do not complain of is no shared cause (403 was right, the record changed)', () => {
    const results = ['a', 'b', 'c'].map((id) => ({ ...failing(`receiver.token.${id}`, 403), reason: 'the record changed to SUCCESS: §6 rule 1 says the receiver takes no action' }));
    expect(diagnose([{ preflight: quiet, results }])).toEqual([]);
  });
  it('different answers, or too few cases: nothing is named', () => {
    expect(diagnose([{ preflight: quiet, results: [failing('a', 502), failing('b', 502), failing('c', 400)] }])).toEqual([]);
    expect(diagnose([{ preflight: quiet, results: [failing('a', 502), failing('b', 502)] }])).toEqual([]);
  });
});

describe('guardNegatives: a control that could not run makes a negative PASS a SKIP', () => {
  const negative: ConformanceCase = {
    id: 'receiver.token.missing', title: 't', specRef: '§6', level: 'MUST', side: 'receiver', needs: [], negative: 'refusal',
    run: async () => ({ verdict: 'PASS' }),
  };
  const positive: ConformanceCase = { ...negative, id: 'receiver.token.valid', negative: undefined } as unknown as ConformanceCase;
  const withControl = (state: 'held' | 'failed' | 'not-run'): Preflight => ({
    side: 'receiver', findings: [], controls: { refusal: { state, what: 'the control', observed: 'it saw X' } },
  });
  const ctx = {} as Parameters<ConformanceCase['run']>[0];
  const halves = (answer: 'held' | 'failed', effect: 'held' | 'failed' | 'not-run'): Preflight => ({
    side: 'receiver', findings: [], controls: { refusal: { state: 'failed', what: 'the control', observed: 'it saw X', halves: { answer, effect } } },
  });
  const resting = (outcome: Awaited<ReturnType<ConformanceCase['run']>>): ConformanceCase => ({ ...negative, run: async () => outcome });
  it('two halves: each verdict is judged beside the half it rests on (DESIGN.md "A positive control has two halves")', async () => {
    const answered = halves('held', 'failed');
    const onAnswer = { verdict: 'FAIL' as const, reason: 'answered 200; §6 rule 1 says 403', restsOn: 'answer' as const };
    // The valid callback got 2xx: the bad one answered 2xx was accepted like it.
    expect(await guardNegatives([resting(onAnswer)], answered)[0]!.run(ctx)).toMatchObject({ verdict: 'FAIL', reason: expect.stringContaining('cannot be seen') });
    // "Nothing changed" rests on the effect, which did not hold.
    expect(await guardNegatives([resting({ verdict: 'PASS', restsOn: 'effect' })], answered)[0]!.run(ctx)).toMatchObject({ verdict: 'ERROR', reason: expect.stringContaining('rests on nothing changing') });
    // A refusal seen without the hooks rests on the answer, which held.
    expect((await guardNegatives([resting({ verdict: 'PASS', restsOn: 'answer' })], halves('held', 'not-run'))[0]!.run(ctx)).verdict).toBe('PASS');
    // The other way round: applied but answered 500: "nothing changed" stands, a wrong answer shares the cause.
    const applied = halves('failed', 'held');
    expect((await guardNegatives([resting({ verdict: 'PASS', restsOn: 'effect' })], applied)[0]!.run(ctx)).verdict).toBe('PASS');
    expect(await guardNegatives([resting(onAnswer)], applied)[0]!.run(ctx)).toMatchObject({ verdict: 'ERROR', reason: expect.stringContaining('likely shares its cause') });
    // A FAIL on the effect (acted on) stands whatever the control saw; restsOn never reaches the result.
    const acted = await guardNegatives([resting({ verdict: 'FAIL', reason: 'the record changed', restsOn: 'effect' })], halves('failed', 'failed'))[0]!.run(ctx);
    expect(acted).toEqual({ verdict: 'FAIL', reason: 'the record changed' });
  });
  it('held: PASS stays; failed: ERROR naming the control; not-run: SKIP; a positive case is never touched', async () => {
    expect((await guardNegatives([negative], withControl('held'))[0]!.run(ctx)).verdict).toBe('PASS');
    expect(await guardNegatives([negative], withControl('failed'))[0]!.run(ctx)).toMatchObject({ verdict: 'ERROR', reason: expect.stringContaining('(the control) did not hold: it saw X') });
    expect(await guardNegatives([negative], withControl('not-run'))[0]!.run(ctx)).toMatchObject({ verdict: 'SKIP', reason: expect.stringContaining('it saw X') });
    expect((await guardNegatives([positive], withControl('failed'))[0]!.run(ctx)).verdict).toBe('PASS');
  });
});
