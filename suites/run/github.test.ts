// `run` in a GitHub Actions job (docs/ci.md): with GITHUB_STEP_SUMMARY set, the head of report.md
// (verdict, shared causes, preflight, failures) is appended to the step summary; with
// GITHUB_ACTIONS=true, one `::error` workflow command per failing case, escaped as GitHub reads
// them; neither outside a job. The command in this process (runFromFlags), against a faulty receiver.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { errorCommands } from '../../harness/run/index.ts';
import type { RunReport } from '../../harness/results/index.ts';
import { faultyReceiverRun } from './faulty-receiver-run.ts';

const { dir, run: runWith, token } = faultyReceiverRun('cc-github-');
const run = (env: Record<string, string>, reportDir: string) => runWith({ only: 'receiver.token.*', reportDir, seed: '5' }, env);

describe('run in a GitHub Actions job', () => {
  it('the step summary gets the verdict and the failures; each failing case one ::error line; the token nowhere', async () => {
    const summary = join(dir, 'summary.md');
    writeFileSync(summary, '# an earlier step\n');
    const ran = await run({ GITHUB_STEP_SUMMARY: summary, GITHUB_ACTIONS: 'true' }, join(dir, 'in-a-job'));
    expect(ran.code).toBe(1);
    const text = readFileSync(summary, 'utf8');
    // Appended, not replaced: a job's steps share the file.
    expect(text.startsWith('# an earlier step\n# collect-conformance conformance report\n')).toBe(true);
    expect(text).toContain('**FAILED: 1 of 11 cases failed (1 FAIL)**');
    expect(text).toContain('## Failures (1)');
    expect(text).toMatch(/- \*\*FAIL\*\* `receiver\.token\.different-case`: answered 200/);
    const errors = ran.stdout.split('\n').filter((l) => l.startsWith('::'));
    expect(errors).toEqual([expect.stringMatching(/^::error title=FAIL receiver\.token\.different-case \(§6 rule 1\)::answered 200 .*§6 rule 1 says 403/)]);
    for (const output of [text, ran.stdout, ran.stderr]) expect(output).not.toContain(token());
  });
  it('outside a job: no summary, no workflow command', async () => {
    const ran = await run({}, join(dir, 'not-in-a-job'));
    expect(ran.code).toBe(1);
    expect(ran.stdout).not.toMatch(/^::/m);
  });
  it('workflow commands are escaped as GitHub reads them: a message\'s line breaks and %, a title\'s : and ,', () => {
    const report = {
      cases: [{ id: 'receiver.x', title: 't', level: 'MUST', specRef: '§6, rule 1', verdict: 'FAIL', durationMs: 1, reason: '100% wrong:\nsee below' }],
      diagnoses: [],
    } as unknown as RunReport;
    expect(errorCommands(report)).toEqual(['::error title=FAIL receiver.x (§6%2C rule 1)::100%25 wrong:%0Asee below']);
  });
});
