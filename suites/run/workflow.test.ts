// The example GitHub workflow of docs/ci.md: it parses (the YAML subset of suites/support/
// yaml-subset.ts, which YAML reads the same way), it has the shape GitHub runs (a trigger, a
// job on a runner, steps that each use an action or run a command, the report uploaded whatever
// the verdict), and its commands run, in order, each as GitHub runs a step (`bash -e`), in a
// project folder of their own, with GITHUB_ACTIONS and GITHUB_STEP_SUMMARY set as in a job:
// the receiver starts and answers, the kit passes it, the summary gets the verdict.
import { execFile } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { parseYamlSubset, type YamlValue } from '../support/yaml-subset.ts';
import { freePort } from '../support/free-port.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const PAGE = readFileSync(join(ROOT, 'docs/ci.md'), 'utf8');
const WORKFLOW = /```yaml\n([\s\S]*?)\n```/.exec(PAGE.slice(PAGE.indexOf('### An example workflow')))?.[1] ?? '';

type Step = { name?: string; uses?: string; run?: string; if?: string; with?: Record<string, string>; env?: Record<string, string> };
type Workflow = { name: string; on: string[]; jobs: Record<string, { 'runs-on': string; env?: Record<string, string>; steps: Step[] }> };

const started: number[] = [];
afterAll(() => {
  for (const pid of started) {
    try {
      process.kill(pid, 'SIGTERM');
    } catch {
      // already gone
    }
  }
});

describe('the example workflow of docs/ci.md', () => {
  const workflow = parseYamlSubset(WORKFLOW) as YamlValue as Workflow;
  const [[, job]] = Object.entries(workflow.jobs) as [[string, Workflow['jobs'][string]]];

  it('parses, and has the shape GitHub runs: triggers, one job on a runner, steps each using an action or running a command, the report uploaded always', () => {
    expect(workflow.on).toEqual(['push', 'pull_request']);
    expect(Object.keys(workflow.jobs)).toHaveLength(1);
    expect(job['runs-on']).toBe('ubuntu-latest');
    for (const step of job.steps) expect([step.uses, step.run].filter((x) => x !== undefined), JSON.stringify(step)).toHaveLength(1);
    for (const step of job.steps.filter((s) => s.uses)) expect(step.uses).toMatch(/^actions\/[a-z-]+@v\d+$/);
    expect(job.steps.find((s) => s.uses?.startsWith('actions/upload-artifact'))).toMatchObject({ if: 'always()', with: { path: 'reports/latest/' } });
    expect(job.env?.COLLECT_CALLBACK_TOKEN).toBe('${{ secrets.COLLECT_CALLBACK_TOKEN }}');
  });

  it('its commands run in order as steps of a job: the receiver starts, the kit passes it, exit 0, the summary says PASSED', async () => {
    const project = mkdtempSync(join(tmpdir(), 'cc-workflow-'));
    const port = await freePort();
    // The team's target file: a copy of the example, as the workflow's text says.
    mkdirSync(join(project, 'conformance'));
    writeFileSync(join(project, 'conformance/receiver.json'), readFileSync(join(ROOT, 'harness/targets/examples/receiver.json'), 'utf8').replaceAll('8081', String(port)));
    // `npx collect-conformance` is the package's bin (installed by `npm ci` in the job; here the checkout's), its pid noted to stop it after.
    const bin = join(project, '.bin');
    mkdirSync(bin);
    writeFileSync(join(bin, 'npx'), `#!/bin/sh\n[ "$1" = collect-conformance ] || { echo "npx $1: not in this test" >&2; exit 127; }\nshift\necho $$ >> "${join(project, 'pids')}"\nexec "${process.execPath}" "${join(ROOT, 'bin/collect-conformance.js')}" "$@"\n`);
    chmodSync(join(bin, 'npx'), 0o755);
    const summary = join(project, 'summary.md');
    const env = {
      PATH: `${bin}:${process.env.PATH}`, HOME: project,
      GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summary,
      COLLECT_CALLBACK_TOKEN: 'a-repository-secret-for-the-test',
    };
    const steps = job.steps.filter((s) => s.run !== undefined && s.run !== 'npm ci');
    expect(steps.map((s) => s.name)).toEqual(['Start the receiver', 'Conformance']);
    const ran: Array<{ step: string; code: number | null; output: string }> = [];
    for (const step of steps) {
      const script = step.run!.replaceAll('8081', String(port));
      ran.push(await new Promise((resolve) => {
        execFile('bash', ['-e', '-c', script], { cwd: project, env, timeout: 60_000 }, (error, stdout, stderr) => {
          resolve({ step: step.name!, code: error ? (typeof error.code === 'number' ? error.code : null) : 0, output: stdout + stderr });
        });
      }));
      started.push(...readFileSync(join(project, 'pids'), 'utf8').trim().split('\n').map(Number));
    }
    expect(ran.map((r) => [r.step, r.code]), ran.map((r) => r.output).join('\n')).toEqual([['Start the receiver', 0], ['Conformance', 0]]);
    expect(ran[1]!.output).toMatch(/cases: \d+ PASS, 0 FAIL, 0 WARN, \d+ SKIP, 0 ERROR — reports in reports\/latest\//);
    expect(ran[1]!.output).not.toMatch(/^::error/m);
    expect(readFileSync(summary, 'utf8')).toMatch(/^\*\*PASSED: \d+ of \d+ cases passed; \d+ SKIP\*\*$/m);
    expect(readFileSync(join(project, 'reports/latest/report.json'), 'utf8')).toContain('"kind": "run"');
  }, 90_000);
});
