import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { XMLValidator } from 'fast-xml-parser';
import { REPORT_FILES, WRITERS, openReport, validateReportJson, type OpenReportOptions } from '../../harness/report/index.ts';
import type { RunReport } from '../../harness/results/index.ts';
import { Redactor } from '../../harness/secrets/index.ts';
import { CASES, sampleReport } from './sample.ts';
import { INSTALLED } from '../support/installed.ts';

let root: string;
beforeEach(async () => { root = await mkdtemp(join(tmpdir(), 'cc-report-')); });
afterEach(async () => { await rm(root, { recursive: true, force: true }); });

function header(): OpenReportOptions['header'] {
  const { summary: _s, cases: _c, finishedAt: _f, diagnoses: _d, ...h } = sampleReport();
  return h;
}

async function readJson(dir: string): Promise<RunReport> {
  return JSON.parse(await readFile(join(dir, 'report.json'), 'utf8')) as RunReport;
}

describe('openReport: creates the directory and the four files at once', () => {
  it('creates a nested directory that does not exist, with an empty but valid report', async () => {
    const dir = join(root, 'a', 'b', 'latest');
    await openReport({ dir, header: header() });
    expect((await readdir(dir)).sort()).toEqual([...REPORT_FILES].sort());
    const json = await readJson(dir);
    expect(validateReportJson(json)).toEqual([]);
    expect(json.cases).toEqual([]);
    expect(json.finishedAt).toBeUndefined();
  });
});

describe('openReport: a directory that cannot be made', () => {
  it('fails with ERR_REPORT_DIR naming the directory', async () => {
    const file = join(root, 'plain-file');
    await writeFile(file, 'x');
    await expect(openReport({ dir: join(file, 'sub'), header: header() })).rejects.toMatchObject({
      code: 'ERR_REPORT_DIR',
      message: expect.stringContaining(join(file, 'sub')),
    });
  });
});

describe('ReportSession.add: a crash keeps what finished', () => {
  it('after two add() and no finish(), report.json on disk holds the two cases and is valid', async () => {
    const dir = join(root, 'r');
    const session = await openReport({ dir, header: header() });
    await session.add(CASES[0]!);
    await session.add(CASES[1]!);
    const json = await readJson(dir);
    expect(json.cases.map((c) => c.id)).toEqual(['receiver.token.missing', 'receiver.token.wrong']);
    expect(json.summary).toEqual({ PASS: 1, FAIL: 1, WARN: 0, SKIP: 0, ERROR: 0 });
    expect(json.finishedAt).toBeUndefined();
    expect(validateReportJson(json)).toEqual([]);
    expect(XMLValidator.validate(await readFile(join(dir, 'junit.xml'), 'utf8'))).toBe(true);
    expect(await readFile(join(dir, 'report.md'), 'utf8')).toContain('receiver.token.wrong');
    expect(await readFile(join(dir, 'index.html'), 'utf8')).toContain('<tbody id="receiver.token.wrong" class="case r-FAIL">');
  });
  it('leaves no temporary files behind (writes are temp file + rename)', async () => {
    const dir = join(root, 'r');
    const session = await openReport({ dir, header: header() });
    await Promise.all(CASES.map((c) => session.add(c)));
    expect((await readdir(dir)).sort()).toEqual([...REPORT_FILES].sort());
  });
  it('concurrent add() calls all land, in call order', async () => {
    const dir = join(root, 'r');
    const session = await openReport({ dir, header: header() });
    await Promise.all(CASES.map((c) => session.add(c)));
    expect((await readJson(dir)).cases.map((c) => c.id)).toEqual(CASES.map((c) => c.id));
  });
});

describe('ReportSession.finish', () => {
  it('sets finishedAt, writes the final files and returns their paths in REPORT_FILES order', async () => {
    const dir = join(root, 'r');
    const session = await openReport({ dir, header: header() });
    for (const c of CASES) await session.add(c);
    await session.setDiagnoses(sampleReport().diagnoses ?? []);
    const before = Date.now();
    const { report, files } = await session.finish();
    expect(files).toEqual(REPORT_FILES.map((f) => join(dir, f)));
    expect(Date.parse(report.finishedAt!)).toBeGreaterThanOrEqual(before - 1000);
    const json = await readJson(dir);
    expect(json).toEqual(report);
    // Every case a diagnosis names points to it (CaseResult.diagnoses), also where the sample left that out.
    const sample = sampleReport();
    const pointed = sample.cases.map((c) => (c.id === 'service.callback.retry-backoff' ? { ...c, diagnoses: ['service.refused'] } : c));
    expect(json).toEqual({ ...sample, cases: pointed, finishedAt: report.finishedAt });
    expect(validateReportJson(json)).toEqual([]);
    expect(await readFile(join(dir, 'index.html'), 'utf8')).toContain(`finished ${report.finishedAt}`);
  });
  it('each file is its own writer\'s, paired by name: every REPORT_FILES entry written once, by the writer naming it', async () => {
    expect(WRITERS.map((w) => w.fileName)).toEqual([...REPORT_FILES]);
    const dir = join(root, 'r');
    const session = await openReport({ dir, header: header() });
    for (const c of CASES) await session.add(c);
    const { report } = await session.finish();
    for (const writer of WRITERS) expect(await readFile(join(dir, writer.fileName), 'utf8'), writer.fileName).toBe(writer.render(report));
  });
  it('refuses add() after finish() with ERR_REPORT_FINISHED', async () => {
    const session = await openReport({ dir: join(root, 'r'), header: header() });
    await session.finish();
    await expect(session.add(CASES[0]!)).rejects.toMatchObject({ code: 'ERR_REPORT_FINISHED' });
  });
});

describe('openReport with a redactor: no secret reaches any file', () => {
  it('a secret in a reason, a header and the target is replaced in all four files', async () => {
    const secret = 'sk_live_SECRET_4242';
    const dir = join(root, 'r');
    const h = header();
    h.target = { ...h.target, note: `token ${secret}` };
    const session = await openReport({ dir, header: h, redactor: new Redactor([secret]) });
    await session.add({
      ...CASES[1]!,
      reason: `leaked ${secret} and ${encodeURIComponent(secret)}`,
      evidence: { exchanges: [{ request: { method: 'GET', url: `http://x/cb?t=${secret}`, headers: { 'x-callback-token': secret } } }] },
    });
    await session.finish();
    for (const f of REPORT_FILES) {
      const text = await readFile(join(dir, f), 'utf8');
      expect(text, f).not.toContain(secret);
      expect(text, f).toContain('[REDACTED]');
    }
  });
});

describe('ReportSession: evidence a writer cannot print as is does not lose the report', () => {
  it('a bigint, a cycle, a Map (in a row read back) and malformed shapes in evidence are written as plain JSON', async () => {
    const dir = join(root, 'r');
    const session = await openReport({ dir, header: header() });
    const cycle: Record<string, unknown> = { name: 'loop' };
    cycle['self'] = cycle;
    const row = { big: 12345678901234567890n, cycle, map: new Map([['a', 1]]) };
    await session.add({
      ...CASES[1]!,
      evidence: {
        records: { way: 'sql', seeded: [{ statement: 'seed', sql: 'INSERT …', parameters: {}, rows: [row], ms: 1 }] },
        exchanges: [{ nonsense: true }] as never,
        deliveries: 'not a list' as never,
        timeline: { offsetsMs: null, intervalsMs: [1] } as never,
      },
    });
    const { report } = await session.finish();
    const seeded = report.cases[0]!.evidence!.records!.seeded![0]!;
    expect('rows' in seeded && seeded.rows).toEqual([{ big: '12345678901234567890', cycle: { name: 'loop', self: '[Circular]' }, map: { a: 1 } }]);
    for (const f of REPORT_FILES) expect((await readFile(join(dir, f), 'utf8')).length, f).toBeGreaterThan(100);
    expect(await readFile(join(dir, 'report.md'), 'utf8')).toContain('"nonsense": true');
  });
});

describe('ReportSession: a long run stays quick', () => {
  // The files grow with every case, so the cost is quadratic in bytes written (rendering of
  // finished cases is cached). Measured here under load (load average 9 on two cores): 100
  // evidence-heavy cases ≈ 1.0 s of CPU (3.0 s wall), 200 ≈ 3.5 s (11 s wall); 500 ≈ 4–6 s wall
  // on an idle machine. The bound catches a write that costs several times what it does now (a
  // cost worse than quadratic shows at 100 cases as well as at 200); it does not single out the
  // render cache (without it, 100 cases took 2.1 s of CPU here, 200 would have passed the old
  // bound of 10 s too).
  // The bound is on this process's CPU time, not the wall clock: a machine busy with other work
  // stretches the wall time of the same work (12.3 s seen at load 8.8), not the CPU it takes.
  const N = 100;
  it(`${N} cases with evidence, files rewritten after each, within a few seconds of CPU`, async () => {
    const dir = join(root, 'r');
    const session = await openReport({ dir, header: header() });
    const started = performance.now();
    const cpuBefore = process.cpuUsage();
    for (let i = 0; i < N; i++) {
      const base = CASES[i % CASES.length]!;
      await session.add({ ...base, id: `vectors.signature.${i + 1}` });
    }
    await session.finish();
    const cpu = process.cpuUsage(cpuBefore);
    const cpuMs = (cpu.user + cpu.system) / 1000;
    console.log(`${N} incremental adds: ${Math.round(performance.now() - started)} ms, ${Math.round(cpuMs)} ms of CPU`);
    expect((await readJson(dir)).cases).toHaveLength(N);
    expect(cpuMs).toBeLessThan(3_000);
    // A minute: the wall clock is not what is judged (over 30 s at load 21; 1.6 s of CPU at load 18).
  }, 60_000);
});

describe('ReportSession: a killed run keeps what finished', () => {
  it('after SIGKILL following two add() calls, all four files are complete and hold the two cases', async () => {
    const { spawn } = await import('node:child_process');
    const dir = join(root, 'killed');
    // The session's compiled copy, as installed (suites/support/installed.ts): no loader in the child.
    const reportModule = pathToFileURL(join(INSTALLED, 'dist', 'report', 'index.js')).href;
    const child = spawn(process.execPath, [join(import.meta.dirname, 'fixtures', 'crash-child.mjs'), dir, reportModule, JSON.stringify({ header: header(), cases: CASES.slice(0, 2) })], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    try {
      await new Promise<void>((resolve, reject) => {
        child.stdout.on('data', (d: Buffer) => { if (d.toString().includes('added 2')) resolve(); });
        child.on('exit', (code) => reject(new Error(`child exited early with ${code}`)));
      });
    } finally {
      child.kill('SIGKILL');
    }
    const json = await readJson(dir);
    expect(json.cases.map((c) => c.id)).toEqual(['receiver.token.missing', 'receiver.token.wrong']);
    expect(json.finishedAt).toBeUndefined();
    expect(validateReportJson(json)).toEqual([]);
    expect(XMLValidator.validate(await readFile(join(dir, 'junit.xml'), 'utf8'))).toBe(true);
    expect(await readFile(join(dir, 'index.html'), 'utf8')).toMatch(/<\/html>\n$/);
  });
});
