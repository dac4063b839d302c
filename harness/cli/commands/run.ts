// `collect-conformance run`: flags in, exit status out. The run itself is the library's
// (harness/run: `runConformance`); here the flags are read, the terminal and the report
// directory are its two reporters, SIGINT / SIGTERM stop it, and its report decides the exit
// status of DESIGN.md (0 pass, 1 FAIL/ERROR, 2 usage/target file, 3 unreachable, 130/143 signal).
import { Command, Option } from 'commander';
import { join, resolve } from 'node:path';
import type { ConformanceCase } from '../../cases/index.ts';
import type { EmbeddedSide } from '../../embedded/index.ts';
import {
  DEFAULT_REPORT_DIR, exitStatusOf, failedCaseIds, gitHubReporterFor, onlyMatcher, readPreviousReport, reportDirReporter, resolveTarget, runConformance, RunInterrupted, selectedCases,
  SERVICE_TARGET_RATE, SIGNAL_EXIT_STATUS,
} from '../../run/index.ts';
import { UsageError } from '../../tool/index.ts';
import { colorFor } from '../color.ts';
import { watchStopSignals } from '../interrupt.ts';
import type { SetExitCode } from '../command.ts';
import { terminalReporter, type TerminalIo } from '../terminal.ts';
import { DEFAULT_CONCURRENCY, MAX_CONCURRENCY, TARGET_FILE_CONCURRENCY } from '../../runner/index.ts';

export { DEFAULT_REPORT_DIR, SERVICE_TARGET_RATE };

export interface RunOptions {
  side?: EmbeddedSide;
  target?: string;
  reportDir?: string;
  only?: string;
  list?: boolean;
  seed?: string;
  waivers?: string;
  concurrency?: string;
  rate?: string;
  /** `--rerun-failed` alone (true), or with the report to read. */
  rerunFailed?: boolean | string;
}

export interface RunIo extends TerminalIo {
  env: Record<string, string | undefined>;
}

/** The process's own streams and terminal (the storm command takes them too). */
export const processIo = (): RunIo => ({
  stdout: (t) => process.stdout.write(t),
  stderr: (t) => process.stderr.write(t),
  env: process.env,
  cwd: process.cwd(),
  color: colorFor(process.stdout, process.env),
  progress: process.stderr.isTTY === true,
  ...(process.stderr.columns ? { columns: process.stderr.columns } : {}),
});

export function runCommand(setExitCode: SetExitCode): Command {
  return new Command('run')
    .description('run the conformance cases against a target (default: the embedded reference implementations)')
    .addOption(new Option('--side <side>', 'which side to test (with --target: the file says)').choices(['service', 'receiver', 'client', 'all']))
    .option('--target <file>', 'target file (JSON, see harness/targets/target.schema.json)')
    .option('--report-dir <dir>', 'where the reports go', DEFAULT_REPORT_DIR)
    .option('--only <pattern>', 'run only the case ids matching these globs (comma-separated, e.g. "receiver.token.*,receiver.latency")')
    .option('--list', 'list the cases (id, level, spec reference, title) without touching a target')
    .option('--seed <n>', 'seed for transaction ids and random values (default: random, printed)')
    .option('--waivers <file>', 'waiver file: [{"id", "reason", "expires"?}]')
    .option('--concurrency <n>', `cases in flight at once, 1 to ${MAX_CONCURRENCY} (1: one at a time; cases that measure time or load always measure with nothing else on the wire; default: ${TARGET_FILE_CONCURRENCY} with --target, ${DEFAULT_CONCURRENCY} without)`)
    .option('--rate <rate>', `requests per second to the target, however many cases run at once: N/s or N/min (e.g. 5/s, 60/min), or off; measurements still send their bursts at once (default: ${SERVICE_TARGET_RATE} for a service target file, off for a receiver target and the embedded run; a client's SDK is never paced)`)
    .option('--rerun-failed [report.json]', 'run only the cases that were FAIL or ERROR in a previous run\'s report.json (default: the one in --report-dir, reports/latest/report.json); with --only, those of them it matches')
    .action(async (options: RunOptions) => {
      setExitCode(await runFromFlags(options));
    });
}

function parseSeed(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  if (!/^\d+$/.test(text) || Number(text) > 0xffffffff) throw new UsageError(`--seed: must be an integer from 0 to 4294967295 (got ${JSON.stringify(text)})`);
  return Number(text);
}

function parseConcurrency(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  if (!/^\d+$/.test(text) || Number(text) < 1 || Number(text) > MAX_CONCURRENCY) {
    throw new UsageError(`--concurrency: must be an integer from 1 to ${MAX_CONCURRENCY} (got ${JSON.stringify(text)})`);
  }
  return Number(text);
}

function listCases(cases: readonly ConformanceCase[]): string {
  const width = (pick: (c: ConformanceCase) => string) => Math.max(0, ...cases.map((c) => pick(c).length));
  const idW = width((c) => c.id);
  const refW = width((c) => c.specRef);
  return cases.map((c) => `${c.id.padEnd(idW)}  ${c.level.padEnd(6)}  ${c.specRef.padEnd(refW)}  ${c.title}\n`).join('');
}

/** `run --list`: the cases, without touching a target (its side from the file, no secret needed). */
function list(options: RunOptions, io: RunIo): number {
  if (options.side !== undefined && !['service', 'receiver', 'client', 'all'].includes(options.side)) {
    throw new UsageError(`--side: must be service, receiver, client or all (got ${JSON.stringify(options.side)})`);
  }
  onlyMatcher(options.only);
  parseConcurrency(options.concurrency);
  // A listing needs the target's side, not its secrets: every variable reads as set.
  const env = new Proxy({}, { get: () => 'not-needed-for-list' });
  const target = options.target !== undefined ? resolveTarget(options.target, env) : undefined;
  if (target && options.side && options.side !== 'all' && options.side !== target.side) {
    throw new UsageError(`--side ${options.side} contradicts the target file ${options.target}, which is a ${target.side} target`);
  }
  io.stdout(listCases(selectedCases(target ? target.side : options.side ?? 'all', options.only)));
  return 0;
}

/** The whole `run` command; returns the exit status, throws UsageError / TargetUnreachableError. */
/**
 * `--rerun-failed`: the ids the previous report has as FAIL or ERROR (those --only matches), as
 * the run's selection; undefined when there is none to rerun (said: the run's whole output).
 */
function rerunSelection(options: RunOptions, io: RunIo): string[] | undefined {
  // Named as typed (relative to where the command runs), read from there.
  const path = typeof options.rerunFailed === 'string' ? options.rerunFailed : join(options.reportDir ?? DEFAULT_REPORT_DIR, 'report.json');
  const previous = readPreviousReport(resolve(io.cwd, path), path);
  const only = onlyMatcher(options.only);
  const failed = failedCaseIds(previous);
  const ids = failed.filter(only);
  if (ids.length > 0) return ids;
  const what = failed.length === 0
    ? `no case was FAIL or ERROR in ${path} (${previous.cases.length} ${previous.cases.length === 1 ? 'case' : 'cases'})`
    : `${failed.length === 1 ? 'the 1 case that was' : `none of the ${failed.length} cases that were`} FAIL or ERROR in ${path} ${failed.length === 1 ? 'does not match' : 'matches'} --only ${JSON.stringify(options.only)}`;
  io.stdout(`collect-conformance: --rerun-failed: nothing to rerun: ${what}\n`);
  return undefined;
}

export async function runFromFlags(options: RunOptions, io: RunIo = processIo()): Promise<number> {
  if (options.list) return list(options, io);
  const rerun = options.rerunFailed !== undefined ? rerunSelection(options, io) : undefined;
  if (options.rerunFailed !== undefined && rerun === undefined) return 0;
  const concurrency = parseConcurrency(options.concurrency);
  const seed = parseSeed(options.seed);
  const dir = reportDirReporter(resolve(io.cwd, options.reportDir ?? DEFAULT_REPORT_DIR));
  // In a GitHub Actions job: the step's summary and an annotation per failing case, after the terminal's lines.
  const github = gitHubReporterFor(io.env, io);
  // SIGINT and SIGTERM from here on: the run stops its commands, writes what it can honestly say and ends 130 / 143.
  const signals = watchStopSignals();
  try {
    const report = await runConformance({
      ...(options.target !== undefined ? { target: options.target } : {}),
      ...(options.side !== undefined ? { side: options.side } : {}),
      ...(rerun !== undefined ? { only: rerun } : options.only !== undefined ? { only: options.only } : {}),
      ...(seed !== undefined ? { seed } : {}),
      ...(options.waivers !== undefined ? { waivers: options.waivers } : {}),
      ...(concurrency !== undefined ? { concurrency } : {}),
      ...(options.rate !== undefined ? { rate: options.rate } : {}),
      reporters: [dir, terminalReporter(io, { files: () => dir.files }), ...(github ? [github] : [])],
      env: io.env,
      cwd: io.cwd,
      stop: signals.first,
    });
    return exitStatusOf(report);
  } catch (error) {
    if (error instanceof RunInterrupted) return SIGNAL_EXIT_STATUS[error.signal];
    throw error;
  } finally {
    signals.dispose();
  }
}
