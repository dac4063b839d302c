// `npm run mutation [-- UNIT|FOLDER ...] [--concurrency N] [--report-only]`: StrykerJS over the
// code whose branches are verdicts (suites/mutation/units.ts), one Stryker run per unit, each
// incremental (a rerun tests only the mutants whose code or tests changed), its HTML and JSON
// report under reports/mutation/<unit>/. Then the score per unit and per folder, from every
// unit's latest report: the mutants killed (or timed out) of the valid ones, and every survivor
// either listed in suites/mutation/equivalent.json with why it changes no verdict, or named here.
// Exit status 1 when a folder is under 90% or a survivor is unexplained (a report, not a test:
// not part of `npm test`).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { LogLevel } from '@stryker-mutator/api/core';
import { MUTATION_UNITS, unitsNamed, type MutationUnit } from './units.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const REPORTS = join(ROOT, 'reports', 'mutation');
const EQUIVALENT_FILE = join(ROOT, 'suites', 'mutation', 'equivalent.json');
export const GOAL = 90;

/** A survivor judged equivalent: it changes no observable verdict (its reason says why). */
export interface Equivalent {
  file: string;
  mutator: string;
  /** The source text the mutant replaces, exactly. */
  original: string;
  replacement: string;
  reason: string;
}

interface ReportMutant {
  id: string;
  mutatorName: string;
  replacement?: string;
  status: 'Killed' | 'Survived' | 'NoCoverage' | 'CompileError' | 'RuntimeError' | 'Timeout' | 'Ignored' | 'Pending';
  location: { start: { line: number; column: number }; end: { line: number; column: number } };
}
interface Report { files: Record<string, { source: string; mutants: ReportMutant[] }> }

export interface Survivor { file: string; line: number; mutator: string; original: string; replacement: string; status: string }
export interface UnitScore {
  unit: string; folder: string; killed: number; valid: number; survivors: Survivor[]; unexplained: Survivor[];
  /** Keys (keyOf) of the mutants that timed out: counted killed, yet an equivalent one may time out on a loaded machine (a listener left open). */
  timedOut: Set<string>;
  /** The files the report mutated (relative to the checkout). */
  files: Set<string>;
}

/** The text between two 1-based line, column positions of `source` (Stryker's report locations). */
function sliceOf(source: string, { start, end }: ReportMutant['location']): string {
  const lines = source.split('\n');
  const offset = (p: { line: number; column: number }) => lines.slice(0, p.line - 1).reduce((n, l) => n + l.length + 1, 0) + p.column - 1;
  return source.slice(offset(start), offset(end));
}

export function readEquivalents(): Equivalent[] {
  return JSON.parse(readFileSync(EQUIVALENT_FILE, 'utf8')) as Equivalent[];
}

export function keyOf(m: { file: string; mutator: string; original: string; replacement: string }): string {
  return JSON.stringify([m.file, m.mutator, m.original, m.replacement]);
}

/** The score of one unit from its JSON report, survivors matched against the equivalents. */
export function scoreOf(unit: MutationUnit, report: Report, equivalents: readonly Equivalent[]): UnitScore {
  const explained = new Set(equivalents.map(keyOf));
  let killed = 0;
  let valid = 0;
  const survivors: Survivor[] = [];
  const timedOut = new Set<string>();
  const files = new Set(Object.keys(report.files).map((file) => relative(ROOT, join(ROOT, file))));
  for (const [file, { source, mutants }] of Object.entries(report.files)) {
    for (const m of mutants) {
      if (m.status === 'Killed' || m.status === 'Timeout') { killed += 1; valid += 1; }
      if (m.status === 'Timeout') {
        timedOut.add(keyOf({ file: relative(ROOT, join(ROOT, file)), mutator: m.mutatorName, original: sliceOf(source, m.location), replacement: m.replacement ?? '' }));
      }
      if (m.status === 'Survived' || m.status === 'NoCoverage') {
        valid += 1;
        survivors.push({
          file: relative(ROOT, join(ROOT, file)), line: m.location.start.line, mutator: m.mutatorName,
          original: sliceOf(source, m.location), replacement: m.replacement ?? '', status: m.status,
        });
      }
    }
  }
  return { unit: unit.name, folder: unit.folder, killed, valid, survivors, unexplained: survivors.filter((s) => !explained.has(keyOf(s))), timedOut, files };
}

const pct = (k: number, v: number) => (v === 0 ? '   -  ' : `${((100 * k) / v).toFixed(1).padStart(5)}%`);
const oneLine = (text: string) => (text.length > 70 ? `${text.slice(0, 69)}…` : text).replace(/\s+/g, ' ');

/**
 * Stryker 9.6's incremental mode keeps a static mutant (one that acts while its module loads)
 * that survived, whatever tests were added since: such mutants have no per-test coverage, so it
 * sees no new test for them. They are taken out of the incremental file, to be tested again
 * (killed ones Stryker tests again by itself, for the same reason).
 */
function forgetStaticSurvivors(incrementalFile: string): number {
  if (!existsSync(incrementalFile)) return 0;
  const report = JSON.parse(readFileSync(incrementalFile, 'utf8')) as { files: Record<string, { mutants: Array<ReportMutant & { static?: boolean }> }> };
  let forgotten = 0;
  for (const file of Object.values(report.files)) {
    const kept = file.mutants.filter((m) => !(m.static === true && m.status !== 'Killed' && m.status !== 'Timeout'));
    forgotten += file.mutants.length - kept.length;
    file.mutants = kept;
  }
  if (forgotten > 0) writeFileSync(incrementalFile, JSON.stringify(report));
  return forgotten;
}

async function runUnit(unit: MutationUnit, concurrency: number): Promise<void> {
  // Imported here: --report-only needs no Stryker.
  const { Stryker } = await import('@stryker-mutator/core');
  const dir = join('reports', 'mutation', unit.name.replace('/', '-'));
  forgetStaticSurvivors(join(ROOT, dir, 'incremental.json'));
  process.env['COLLECT_MUTATION_UNIT'] = unit.name;
  const stryker = new Stryker({
    mutate: unit.mutate,
    testRunner: 'vitest',
    vitest: { configFile: 'vitest.mutation.config.ts', related: false },
    plugins: ['@stryker-mutator/vitest-runner'],
    coverageAnalysis: 'perTest',
    // The wording of reasons is left out (issue 26); conditions, comparisons, boolean logic and
    // removed statements are all mutated.
    mutator: { excludedMutations: ['StringLiteral'] },
    incremental: true,
    incrementalFile: join(dir, 'incremental.json'),
    reporters: ['html', 'json', 'progress'],
    htmlReporter: { fileName: join(dir, 'index.html') },
    jsonReporter: { fileName: join(dir, 'report.json') },
    tempDirName: join('reports', 'mutation', '.sandbox'),
    // The reports are left out but their schemas: harness/report reads reports/schema/ as it loads.
    ignorePatterns: ['dist', '.installed', '.installed.*', 'reports/*', '!reports/schema'],
    concurrency,
    // A loaded machine (2 cores, shared) slows a test run several times over.
    timeoutMS: 10_000,
    timeoutFactor: 3,
    dryRunTimeoutMinutes: 20,
    thresholds: { high: GOAL, low: 80, break: null },
    // LogLevel is a const enum, which isolatedModules cannot import as a value: its string is given.
    logLevel: 'warn' as unknown as LogLevel,
    allowConsoleColors: false,
  });
  await stryker.runMutationTest();
}

function reportOf(unit: MutationUnit): Report | undefined {
  const file = join(REPORTS, unit.name.replace('/', '-'), 'report.json');
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Report) : undefined;
}

/**
 * Listed equivalents no run shows surviving any more: killed by a test now (remove them). Only of
 * files a report holds (a unit not run yet says nothing of its own); one that timed out is not
 * stale either: it may survive on a quieter machine.
 */
function staleNotes(equivalents: readonly Equivalent[], scores: readonly UnitScore[]): string[] {
  const stale = equivalents.filter((e) => scores.some((s) => s.files.has(e.file))
    && !scores.some((s) => s.timedOut.has(keyOf(e)) || s.survivors.some((v) => keyOf(v) === keyOf(e))));
  return stale.length > 0 ? ['', `equivalents no longer surviving (remove them): ${stale.map((e) => `${e.file} ${e.mutator} ${oneLine(e.original)}`).join('; ')}`] : [];
}

function printSummary(ran: ReadonlySet<string>): boolean {
  const equivalents = readEquivalents();
  const scores = MUTATION_UNITS.flatMap((u) => { const r = reportOf(u); return r ? [scoreOf(u, r, equivalents)] : []; });
  const out: string[] = ['', `mutation score (mutants killed of the valid ones; goal ${GOAL}% per folder; reports under reports/mutation/)`];
  for (const s of scores) {
    out.push(`  ${s.unit.padEnd(16)} ${String(s.killed).padStart(5)}/${String(s.valid).padEnd(5)} ${pct(s.killed, s.valid)}  ${s.survivors.length} survived, ${s.unexplained.length} unexplained${ran.has(s.unit) ? '' : ' (earlier run)'}`);
  }
  const missing = MUTATION_UNITS.filter((u) => !scores.some((s) => s.unit === u.name)).map((u) => u.name);
  if (missing.length > 0) out.push(`  not run yet: ${missing.join(', ')}`);
  out.push('by folder:');
  let ok = missing.length === 0;
  for (const folder of [...new Set(MUTATION_UNITS.map((u) => u.folder))]) {
    const of = scores.filter((s) => s.folder === folder);
    if (of.length === 0) continue;
    const killed = of.reduce((n, s) => n + s.killed, 0);
    const valid = of.reduce((n, s) => n + s.valid, 0);
    const unexplained = of.reduce((n, s) => n + s.unexplained.length, 0);
    const met = valid > 0 && (100 * killed) / valid >= GOAL && unexplained === 0;
    if (!met) ok = false;
    out.push(`  harness/${folder.padEnd(10)} ${String(killed).padStart(5)}/${String(valid).padEnd(5)} ${pct(killed, valid)}  ${met ? 'goal met' : 'goal NOT met'}${unexplained > 0 ? ` (${unexplained} survivors unexplained)` : ''}`);
  }
  const unexplained = scores.filter((s) => ran.has(s.unit) || process.argv.includes('--report-only')).flatMap((s) => s.unexplained);
  if (unexplained.length > 0) {
    out.push('', `survivors not in suites/mutation/equivalent.json (kill them with a test, or list them with why they change no verdict):`);
    for (const s of unexplained) out.push(`  ${s.file}:${s.line} ${s.mutator}${s.status === 'NoCoverage' ? ' (no test reaches it)' : ''}: ${oneLine(s.original)} → ${oneLine(s.replacement)}`);
  }
  out.push(...staleNotes(equivalents, scores));
  process.stdout.write(`${out.join('\n')}\n`);
  return ok;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const reportOnly = args.includes('--report-only');
  const c = args.indexOf('--concurrency');
  const concurrency = c >= 0 ? Number(args[c + 1]) : 1;
  const names = args.filter((a, i) => !a.startsWith('--') && !(c >= 0 && i === c + 1));
  const unknown = names.filter((n) => unitsNamed([n]).length === 0);
  if (unknown.length > 0 || !Number.isInteger(concurrency) || concurrency < 1) {
    process.stderr.write(`usage: npm run mutation -- [UNIT|FOLDER ...] [--concurrency N] [--report-only]\n  units: ${MUTATION_UNITS.map((u) => u.name).join(', ')}\n${unknown.length > 0 ? `  unknown: ${unknown.join(', ')}\n` : ''}`);
    process.exit(2);
  }
  const ran = new Set<string>();
  if (!reportOnly) {
    for (const unit of unitsNamed(names)) {
      const started = performance.now();
      process.stdout.write(`\n── mutation: ${unit.name} (${unit.mutate.join(', ')})\n`);
      await runUnit(unit, concurrency);
      ran.add(unit.name);
      process.stdout.write(`── ${unit.name}: ${((performance.now() - started) / 1000).toFixed(0)} s\n`);
    }
  }
  process.exitCode = printSummary(ran) ? 0 : 1;
}
