// Issue 22 points 8 and 9 as a user meets them: a receiver that echoes the request's headers in
// a 400 debug body, run through the command as installed. The callback token must appear in
// none of what the run writes (stdout, stderr, the four report files), neither cut in half by a
// reason that quotes the start of the body (point 8) nor written with PHP's `\/` (point 9).
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPORT_FILES } from '../../harness/report/index.ts';
import type { RunReport } from '../../harness/results/index.ts';
import { runBin } from '../support/cli-process.ts';
import { startEchoingReceiver, tokenOffset, type EchoingReceiver } from './echoing-receiver.ts';

const dir = mkdtempSync(join(tmpdir(), 'cc-echo-'));
const started: EchoingReceiver[] = [];
afterAll(async () => { await Promise.all(started.map((r) => r.close())); });

/** What receiver reasons quote of an answer's body (harness/cases/receiver/kit.ts answerText). */
const QUOTED_CHARS = 120;

interface Outputs { code: number | null; texts: Record<string, string>; report: RunReport }

async function runAgainstEcho(name: string, token: string, tokenAt?: number): Promise<Outputs> {
  const receiver = await startEchoingReceiver(tokenAt === undefined ? {} : { tokenAt });
  started.push(receiver);
  const target = join(dir, `${name}.json`);
  writeFileSync(target, JSON.stringify({
    side: 'receiver', callbackUrl: receiver.callbackUrl, hooksUrl: receiver.hooksUrl,
    callbackToken: { env: 'ECHO_TOKEN' }, timing: { replyDeadlineMs: 500 },
  }));
  const reportDir = join(dir, name);
  // The cases whose reasons quote the body of an answer to the configured token, and a token case.
  const only = 'receiver.token.*,receiver.outcome.success-applied,receiver.idempotence.sequential-duplicate';
  const ran = await runBin(['run', '--target', target, '--report-dir', reportDir, '--only', only, '--seed', '22'], { env: { ECHO_TOKEN: token }, timeoutMs: 120_000 });
  const texts: Record<string, string> = { stdout: ran.stdout, stderr: ran.stderr };
  for (const file of REPORT_FILES) texts[file] = readFileSync(join(reportDir, file), 'utf8');
  return { code: ran.code, texts, report: JSON.parse(texts['report.json']!) as RunReport };
}

/** Every 8 characters of the token that survive any escaping a writer does (letters and digits). */
function fragments(token: string): string[] {
  const out: string[] = [];
  for (let i = 0; i + 8 <= token.length; i++) if (/^[A-Za-z0-9]{8}$/.test(token.slice(i, i + 8))) out.push(token.slice(i, i + 8));
  return out;
}

function expectNoFragment(outputs: Outputs, token: string): void {
  const found = Object.entries(outputs.texts).flatMap(([file, text]) => fragments(token).filter((f) => text.includes(f)).map((f) => `${file}: ${f}`));
  expect(found).toEqual([]);
}

describe('issue 22 point 8: a reason that quotes the start of a body never cuts a secret before redacting it', () => {
  const token = 'Kx7Qm2Vb9TzLp4Wc8Nd1Rf6Hg3Js5Ya0Ue2Io7Pk9Xl4Cv8Bn1Mq6Zw3Et5Ry0Ua';
  it('the token starts at character 59 of the debug body: the 120 quoted would hold 61 of its 64 characters; none shows anywhere', async () => {
    expect(token).toHaveLength(64);
    const tokenAt = 59;
    const outputs = await runAgainstEcho('cut', token, tokenAt);
    expect(outputs.code).toBe(1);
    // Exercised: reasons quote the body, the token in it redacted where the cut falls.
    const quoting = outputs.report.cases.filter((c) => c.reason?.includes('answered 400 {"error":"POST only'));
    expect(quoting.map((c) => c.id), outputs.report.cases.map((c) => `${c.id} ${c.verdict}: ${c.reason ?? ''}`).join('\n')).toContain('receiver.token.valid');
    const valid = quoting.find((c) => c.id === 'receiver.token.valid')!;
    expect(valid.reason).toContain('"X-Callback-Token":"[REDACTED]');
    expect(tokenOffset(0)).toBeLessThanOrEqual(tokenAt);
    expect(tokenAt + token.length).toBeGreaterThan(QUOTED_CHARS);
    expectNoFragment(outputs, token);
  }, 120_000);
});

describe('issue 22 point 9: a token with "/" echoed as PHP json_encode writes it ("\\/") is redacted', () => {
  const token = 'Rk5cW2pL/Tq8Vz3Nm/Hy6Bd1Xs/Gu4Jf7Ka/Pe0Ci9Lo/Wr2Mt5Yb/Qn8Zv3Ex/S';
  it('the whole escaped token sits inside the quoted 120 characters and the excerpts; none of it shows anywhere', async () => {
    expect(token).toHaveLength(64);
    const outputs = await runAgainstEcho('escaped', token);
    expect(outputs.code).toBe(1);
    // Not cut: the whole token, its seven `/` written `\/`, within the 120 characters quoted.
    expect(tokenOffset() + token.length + 7).toBeLessThan(QUOTED_CHARS);
    const valid = outputs.report.cases.find((c) => c.id === 'receiver.token.valid')!;
    expect(valid.reason).toContain('"X-Callback-Token":"[REDACTED]"');
    // The excerpt of the answer kept in the evidence: redacted, and still the JSON it was.
    const excerpt = valid.evidence?.exchanges?.find((x) => x.response?.status === 400)?.response?.bodyExcerpt ?? '';
    expect((JSON.parse(excerpt) as { headers: Record<string, string> }).headers['X-Callback-Token']).toBe('[REDACTED]');
    expectNoFragment(outputs, token);
  }, 120_000);
});
