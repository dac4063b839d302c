// Issue 9 points 3 and 4 as a user meets them through `run`: a preflight per side names one
// cause of many failures once, first, in report.json and on the terminal, and the cases point
// to it; a negative case PASSes only beside its positive control, whatever --only selects.
// The runs go through runConformance in this process, the terminal's reporter beside it; the
// first goes through the command with its target file and report directory on disk.
import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runFromFlags, type RunIo } from '../../harness/cli/commands/run.ts';
import { terminalReporter } from '../../harness/cli/terminal.ts';
import { diagnose, SHARED_ANSWER_MIN_CASES } from '../../harness/diagnoses/index.ts';
import { renderHtml, renderMarkdown, validateReportJson } from '../../harness/report/index.ts';
import { startEmbeddedReceiver, startEmbeddedService } from '../../harness/embedded/index.ts';
import { guardNegatives, type Preflight } from '../../harness/preflight/index.ts';
import { SERVICE_CASES, type ConformanceCase } from '../../harness/cases/index.ts';
import type { CaseResult, RunReport } from '../../harness/results/index.ts';
import type { ReceiverFault } from '../../harness/receiver/index.ts';
import { exitStatusOf, runConformance, runSide, type TargetDescription } from '../../harness/run/index.ts';
import { runStarted } from '../support/run-started.ts';
import { startTemplateReceiver } from './template-receiver.ts';

const dir = mkdtempSync(join(tmpdir(), 'cc-preflight-'));
const SEED = 9009;

interface RunArgs { target: TargetDescription; only?: string; env: Record<string, string> }

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

/** The same run in memory: the target as a value, the terminal's lines as a string, the report as runConformance resolves with it. */
async function run(args: RunArgs) {
  let stdout = '';
  const terminal = terminalReporter({ stdout: (t) => { stdout += t; }, stderr: () => {}, cwd: dir, color: false, progress: false }, { files: () => [] });
  const report = await runConformance({ target: args.target, env: args.env, cwd: dir, seed: SEED, reporters: [terminal], ...(args.only ? { only: args.only } : {}) });
  return { code: exitStatusOf(report), stdout, report, md: renderMarkdown(report) };
}

async function receiverRun(options: { faults?: ReceiverFault[]; callbackPath?: string; only?: string }, through: typeof run = run) {
  const receiver = await startEmbeddedReceiver({ timeScale: 0.02, ...(options.faults ? { faults: options.faults } : {}) });
  try {
    const t = receiver.target;
    const callbackUrl = options.callbackPath ? new URL(options.callbackPath, t.callbackUrl).toString() : t.callbackUrl;
    return await through({
      target: { side: 'receiver', callbackUrl, hooksUrl: receiver.receiver.hooksUrl, callbackToken: { env: 'RCV_TOKEN' }, timing: { replyDeadlineMs: 500 } },
      env: { RCV_TOKEN: t.callbackToken! },
      ...(options.only ? { only: options.only } : {}),
    });
  } finally {
    await receiver.close();
  }
}

/** The cases that did not pass (a SKIP, e.g. a confirm case against a receiver that does not confirm, failed nothing). */
function notPassed(report: RunReport): CaseResult[] {
  return report.cases.filter((c) => c.verdict !== 'PASS' && c.verdict !== 'SKIP');
}

describe('a route that refuses GET (405, Allow: POST): one cause named once, first, and every case points to it', () => {
  it('report.json names receiver.route-refuses-get for every non-PASS case; the terminal names the preflight first (through the command and the report directory)', async () => {
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
  it('--only the negative outcome cases: ERROR naming the control, exit 1, the cause named', async () => {
    const { code, report } = await receiverRun({
      callbackPath: '/payments/callback', only: 'receiver.outcome.unknown-*,receiver.outcome.missing-*',
    });
    expect(code).toBe(1);
    expect(report.cases.map((c) => c.verdict)).toEqual(report.cases.map(() => 'ERROR'));
    for (const c of report.cases) expect(c.reason).toMatch(/preflight's valid callback .* did not hold: it was answered 404 and the record reads state pending, actions 0/);
    expect(report.diagnoses?.map((d) => d.id)).toEqual(['receiver.callback-path-not-found']);
  });
  it('the token cases, answered 404 and nothing acted on: ERROR naming the control (not FAIL), the cause named', async () => {
    const { code, report } = await receiverRun({ callbackPath: '/payments/callback', only: 'receiver.token.*' });
    expect(code).toBe(1);
    // The valid-token cases are positive: their 404 is a finding, explained by the cause.
    const positive = ['receiver.token.valid', 'receiver.token.valid-lowercase-name'];
    for (const id of positive) {
      const valid = report.cases.find((c) => c.id === id);
      expect(valid?.verdict, id).toBe('FAIL');
      expect(valid?.diagnoses, id).toEqual(['receiver.callback-path-not-found']);
    }
    const ran = report.cases.filter((c) => c.verdict !== 'SKIP' && !positive.includes(c.id));
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
        target: { side: 'receiver', callbackUrl: `${origin}/callback`, hooksUrl: `${origin}/_conformance`, callbackToken: { env: 'RCV_TOKEN' }, timing: { replyDeadlineMs: 500 } },
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
        target: { side: 'receiver', callbackUrl: receiver.callbackUrl, hooksUrl: receiver.hooksUrl, callbackToken: { env: 'RCV_TOKEN' }, timing: { replyDeadlineMs: 500 } },
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

describe('issue 22 point 4: the reference receiver with a wrong token in the target file (the valid callback answered 403)', () => {
  it('receiver.token.valid-lowercase-name says nothing about the letter case: ERROR under the shared cause, never FAIL', async () => {
    const receiver = await startEmbeddedReceiver({ timeScale: 0.02 });
    try {
      const t = receiver.target;
      const { code, report } = await run({
        target: { side: 'receiver', callbackUrl: t.callbackUrl, hooksUrl: t.observe?.kind === 'hooks' ? t.observe.url : undefined, callbackToken: { env: 'RCV_TOKEN' }, timing: { replyDeadlineMs: 500 } },
        env: { RCV_TOKEN: 'not-the-receivers-token-42' },
        only: 'receiver.token.*',
      });
      expect(code).toBe(1);
      expect(report.diagnoses?.map((d) => d.id)).toEqual(['receiver.token-refused']);
      const lower = report.cases.find((c) => c.id === 'receiver.token.valid-lowercase-name')!;
      expect(lower).toMatchObject({ verdict: 'ERROR', diagnoses: ['receiver.token-refused'] });
      expect(lower.reason).toMatch(/refused as X-Callback-Token too \(answered 403\): likely the target file's callbackToken is not the receiver's token, so this says nothing yet about the name's letter case/);
      // No FAIL says it says nothing; the one FAIL is the valid token refused, which is what was seen.
      for (const c of report.cases.filter((x) => x.verdict === 'FAIL')) expect(c.reason, c.id).not.toMatch(/says nothing/);
      expect(report.cases.filter((c) => c.verdict === 'FAIL').map((c) => c.id)).toEqual(['receiver.token.valid']);
      // The bad-token cases got 403 and changed nothing: both halves failed, so no PASS.
      const negatives = report.cases.filter((c) => !c.id.startsWith('receiver.token.valid') && c.verdict !== 'SKIP');
      expect(negatives.length).toBeGreaterThan(5);
      for (const c of negatives) expect(c, c.id).toMatchObject({ verdict: 'ERROR', diagnoses: ['receiver.token-refused'] });
    } finally {
      await receiver.close();
    }
  });
});

describe('issue 41: a correct receiver (the reference) with a wrong token in the environment is a misconfiguration, not a broken receiver', () => {
  it('the preflight and receiver.token.valid FAIL and nothing else; every other case that ran is ERROR naming the finding, which the terminal says first and again at the end', async () => {
    const receiver = await startEmbeddedReceiver({ timeScale: 0.02 });
    try {
      const t = receiver.target;
      const { code, report, stdout } = await run({
        target: { side: 'receiver', callbackUrl: t.callbackUrl, hooksUrl: receiver.receiver.hooksUrl, callbackToken: { env: 'RCV_TOKEN' }, timing: { replyDeadlineMs: 500 } },
        env: { RCV_TOKEN: 'not-the-receivers-token-41' },
      });
      expect(code).toBe(1);
      expect(report.preflights?.map((p) => [p.id, p.verdict])).toEqual([['preflight.receiver', 'FAIL']]);
      expect(report.cases.filter((c) => c.verdict === 'FAIL' || c.verdict === 'WARN').map((c) => c.id)).toEqual(['receiver.token.valid']);
      const ran = report.cases.filter((c) => c.verdict !== 'SKIP' && c.id !== 'receiver.token.valid');
      expect(ran.length).toBeGreaterThan(25);
      for (const c of ran) {
        expect(c.verdict, c.id).toBe('ERROR');
        expect(c.diagnoses, c.id).toEqual(['receiver.token-refused']);
      }
      // A positive case says it was not exercised, naming the finding.
      expect(report.cases.find((c) => c.id === 'receiver.idempotence.concurrent-duplicates')?.reason).toMatch(/^not exercised: the configured token was refused \(the preflight's finding receiver.token-refused\), and this case's valid callback got the same answer: /);
      expect(report.cases.some((c) => c.verdict === 'PASS')).toBe(false);
      expect(report.diagnoses?.map((d) => d.id)).toEqual(['receiver.token-refused']);
      // The terminal: the first line after the heading is the finding, before any case, and the summary names it again.
      const lines = stdout.split('\n');
      expect(lines[1]).toMatch(/^FAIL {2}preflight\.receiver {2}\d+ ms {2}the configured token was refused: check that the target file's callbackToken \(RCV_TOKEN\) is the receiver's token; the cases that need a valid callback to get through are not exercised \(ERROR\)\. Seen: /);
      expect(stdout).toMatch(/Shared causes:\n {2}1\. the configured token was refused: /);
      expect(stdout).toMatch(/\(1 FAIL, \d+ ERROR\)/);
    } finally {
      await receiver.close();
    }
  });
  it('its positive control: the same run with the receiver\'s own token has no ERROR and no FAIL', async () => {
    // A deadline the latency cases meet on a loaded machine: this control is about the token, not the pace.
    const receiver = await startEmbeddedReceiver({ timeScale: 0.02 });
    try {
      const t = receiver.target;
      const { code, report } = await run({
        target: { side: 'receiver', callbackUrl: t.callbackUrl, hooksUrl: receiver.receiver.hooksUrl, callbackToken: { env: 'RCV_TOKEN' }, timing: { replyDeadlineMs: 3000 } },
        env: { RCV_TOKEN: t.callbackToken! },
      });
      expect(code).toBe(0);
      expect(report.cases.filter((c) => c.verdict !== 'PASS' && c.verdict !== 'SKIP')).toEqual([]);
      // A PASS shows what was judged: the receiver's 404 for an unknown id, its answer and the readings, folded in the HTML report.
      const unknownId = report.cases.find((c) => c.id === 'receiver.outcome.unknown-id')!;
      expect(unknownId.evidence?.exchanges?.map((e) => e.response?.status)).toContain(404);
      const html = renderHtml(report);
      expect(html).toMatch(/<details class="pass"><summary>evidence: [^<]*<\/summary>\n<span class="anchor" id="ev-receiver\.outcome\.unknown-id"><\/span>/);
    } finally {
      await receiver.close();
    }
  });
});

describe('a service target with a wrong secret: the rejection cases give no PASS', () => {
  it("--only 'service.auth.changed-*': every case ERROR naming the preflight's collect, exit 1", async () => {
    const service = await startEmbeddedService();
    try {
      const t = service.target;
      const { code, report, stdout } = await run({
        target: {
          side: 'service', baseUrl: t.baseUrl, mode: t.mode, clientId: t.clientId,
          clientKey: { env: 'SVC_CLIENT_KEY' }, secretKey: { env: 'SVC_SECRET_KEY' }, callbackToken: { env: 'SVC_CALLBACK_TOKEN' },
          networkCode: t.networkCode, customerNumbers: t.customerNumbers, sources: t.sources,
          listener: { host: '127.0.0.1', port: 0, publicUrl: null, tls: false }, timing: t.timing,
        },
        only: 'service.auth.changed-*',
        env: { SVC_CLIENT_KEY: t.clientKey, SVC_SECRET_KEY: 'not-the-secret-key-0123456789', SVC_CALLBACK_TOKEN: t.callbackToken! },
      });
      expect(code).toBe(1);
      expect(report.cases).toHaveLength(6);
      for (const c of report.cases) {
        expect(c.verdict, c.id).toBe('ERROR');
        expect(c.reason).toContain("the positive control (the preflight's correctly signed collect request) did not hold: it was rejected: HTTP 401");
      }
      expect(report.diagnoses?.map((d) => d.id)).toEqual(['service.valid-collect-rejected']);
      expect(report.diagnoses![0]!.cases).toHaveLength(6);
      expect(stdout).not.toMatch(/^PASS /m);
    } finally {
      await service.close();
    }
  });
});

/**
 * The reference receiver behind a front that serves callbacks one at a time (like a PHP server
 * with one worker), working `callbackWorkMs` on each before answering; a request without a
 * transaction_id (the run's "still answering?" GET) and the hooks are answered at once, and
 * `hangHooks` leaves the hooks unanswered. Its target file keeps the hooks on the same front.
 */
async function oneAtATime(options: { callbackWorkMs: number; hangHooks?: boolean }) {
  const receiver = await startEmbeddedReceiver({ timeScale: 0.02 });
  const backend = new URL(receiver.target.callbackUrl);
  let queue = Promise.resolve();
  let origin = '';
  const front = createServer((req, res) => {
    const hook = (req.url ?? '').startsWith(new URL(receiver.receiver.hooksUrl).pathname);
    if (hook && options.hangHooks) return;
    const quick = hook || !new URL(req.url ?? '/', origin).searchParams.has('transaction_id');
    let body = '';
    req.on('data', (c: Buffer) => { body += c.toString(); });
    const forward = (done: () => void) => {
      const forwarded = httpRequest({ host: backend.hostname, port: backend.port, path: req.url, method: req.method, headers: req.headers }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res).on('finish', done);
      });
      forwarded.on('error', () => { res.destroy(); done(); });
      forwarded.end(body);
    };
    req.on('end', () => {
      if (quick) return forward(() => {});
      queue = queue.then(() => new Promise<void>((done) => {
        if (res.destroyed) return done(); // its client gave up while it queued
        setTimeout(() => forward(done), options.callbackWorkMs);
      }));
    });
  });
  await new Promise<void>((r) => front.listen(0, '127.0.0.1', r));
  origin = `http://127.0.0.1:${(front.address() as AddressInfo).port}`;
  const swap = (url: string) => origin + new URL(url).pathname;
  return {
    target: { side: 'receiver', callbackUrl: swap(receiver.target.callbackUrl), hooksUrl: swap(receiver.receiver.hooksUrl), callbackToken: { env: 'RCV_TOKEN' }, timing: { replyDeadlineMs: 500 } },
    env: { RCV_TOKEN: receiver.target.callbackToken! },
    close: async () => {
      front.closeAllConnections();
      await new Promise<void>((r) => front.close(() => r()));
      await receiver.close();
    },
  };
}

describe('a receiver too slow for the requests sent at once: its one cause named, not dozens of ERRORs', () => {
  it('hooks that never answer: the preflight could not finish, named first, and it explains the cases', async () => {
    const slow = await oneAtATime({ callbackWorkMs: 0, hangHooks: true });
    try {
      const { code, report } = await run({ target: slow.target, env: slow.env, only: 'receiver.token,receiver.idempotence' });
      expect(code).toBe(1);
      const [first] = report.diagnoses ?? [];
      expect(first).toMatchObject({ id: 'receiver.preflight-incomplete', summary: expect.stringMatching(/^the preflight could not finish \(the test hook .* no answer within 1000 ms\)/) });
      const explained = new Set(report.diagnoses!.flatMap((d) => d.cases));
      for (const c of notPassed(report)) expect(explained.has(c.id), `${c.id}: ${c.reason}`).toBe(true);
    } finally {
      await slow.close();
    }
  });
  it('one request at a time, 300 ms a callback: the time-outs are one cause, naming --concurrency 1', async () => {
    const slow = await oneAtATime({ callbackWorkMs: 300 });
    try {
      const { report } = await run({ target: slow.target, env: slow.env, only: 'receiver.token,receiver.idempotence,receiver.outcome' });
      const ids = report.diagnoses?.map((d) => d.id) ?? [];
      expect(ids).toContain('receiver.answers-timed-out');
      const cause = report.diagnoses!.find((d) => d.id === 'receiver.answers-timed-out')!;
      expect(cause.summary).toMatch(/^\d+ receiver cases got no answer within a request's time limit \(1000 ms\), while the receiver answered other requests of the run: likely .* --concurrency 1/);
      const explained = new Set(report.diagnoses!.flatMap((d) => d.cases));
      for (const c of notPassed(report)) expect(explained.has(c.id), `${c.id}: ${c.reason}`).toBe(true);
    } finally {
      await slow.close();
    }
  });
});

/** The embedded service with `options`, the cases `only` selects, and the run's shared causes. */
async function serviceCauses(options: Parameters<typeof startEmbeddedService>[0], only: string, seed: number) {
  const checked = await runStarted(startEmbeddedService(options), { cases: SERVICE_CASES, seed, only });
  return { checked, causes: checked.diagnoses };
}

describe('a service that does not trust the listener\'s certificate (production mode, https callbacks)', () => {
  it('service.no-callback names the failed TLS handshakes, and every case that waited for a callback points to it', async () => {
    const { checked, causes: [cause, ...more] } = await serviceCauses(
      { mode: 'production', trustsListenerCa: false }, 'service.callback.status-success,service.callback.reserved-id-intact,service.callback.token-present', 12,
    );
    expect(checked.preflight.result.verdict).toBe('FAIL');
    expect(more).toEqual([]);
    expect(cause).toMatchObject({ id: 'service.no-callback', summary: expect.stringMatching(/the listener saw \d+ TLS handshake\(s\) fail \(.+\): likely the service does not trust the listener's certificate/) });
    expect(cause!.cases.sort()).toEqual(checked.results.filter((r) => r.verdict !== 'PASS').map((r) => r.id).sort());
    expect(cause!.cases).toContain('service.callback.reserved-id-intact');
  });
});

describe('a service that never verifies signatures: one cause for the signature cases', () => {
  it('service.signatures-not-verified names every processed request whose signature did not match its body', async () => {
    // Callbacks awaited up to 2 s: on a loaded machine one may come later than the default 400 ms,
    // and a tampered request not seen processed is not this cause.
    const { checked, causes: [cause, ...more] } = await serviceCauses({ faults: ['no-signature-check'], timing: { callbackTimeoutMs: 2000 } }, 'service.auth', 13);
    const failed = checked.results.filter((r) => r.verdict === 'FAIL').map((r) => r.id);
    expect(failed.length).toBeGreaterThanOrEqual(SHARED_ANSWER_MIN_CASES);
    expect(more).toEqual([]);
    expect(cause).toMatchObject({ id: 'service.signatures-not-verified', summary: expect.stringMatching(/^\d+ requests whose signature does not match their body were accepted and processed: likely the service does not verify signatures/) });
    expect([...cause!.cases].sort()).toEqual([...failed].sort());
    // Not the SHOULD case: an upper-case signature matches in all but letter case.
    expect(cause!.cases).not.toContain('service.auth.uppercase-signature');
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

describe('a rule not exercised is SKIP with the reason, never PASS', () => {
  it('service.callback.duplicates-consistent against a service that never retries: one delivery, SKIP', async () => {
    const { runCases } = await import('../../harness/runner/index.ts');
    const service = await startEmbeddedService({ faults: ['no-retry'] });
    try {
      const [result] = await runCases({ cases: SERVICE_CASES, target: service.target, seed: 5, only: 'service.callback.duplicates-consistent' });
      expect(result).toMatchObject({ verdict: 'SKIP', reason: expect.stringMatching(/^not exercised: .*only one delivery was seen/) });
    } finally {
      await service.close();
    }
  });
});

describe('service.callback.message-plus-encoding against a service whose message has no space', () => {
  it('SKIP naming the message, not PASS', async () => {
    const { fakeService } = await import('../support/fake-service.ts');
    // Accepts every collect and calls back at once with message=Paid.
    const fake = await fakeService({ message: 'Paid', onCollect: (deliver) => void deliver() });
    const reference = await startEmbeddedService();
    try {
      const target = { ...reference.target, baseUrl: fake.url };
      const { results, preflight } = await runSide({ cases: SERVICE_CASES, target, seed: 3, only: 'service.callback.message-plus-encoding' });
      expect(preflight.result.verdict, preflight.result.reason).toBe('PASS');
      expect(results[0]).toMatchObject({ verdict: 'SKIP', reason: expect.stringContaining('message=Paid') });
    } finally {
      await reference.close();
      await fake.close();
    }
  });
});
