// `collect-conformance run`: drives a target (or the embedded references) through the
// conformance cases, prints one line per case, writes the reports, and ends with the exit
// status of DESIGN.md (0 pass, 1 FAIL/ERROR, 2 usage/target file, 3 unreachable).
import { Command, Option } from 'commander';
import { resolve } from 'node:path';
import {
  adapterNeverStarted, allCases, CaseSlots, closeClientBench, DEFAULT_CONCURRENCY, defaultTimeouts, isBlanket, loadWaiverFile, MAX_CONCURRENCY, probeAdapter, randomSeed,
  shapedIds, TARGET_FILE_CONCURRENCY, selectCases, transactionIds, unusedWaivers, WaiverFileError, type ConformanceCase, type WaiverEntry,
} from '../../cases/index.ts';
import { diagnose, type SideRun } from '../../diagnoses/index.ts';
import { openCheckedObservation, ObserveCheckError, type Observation } from '../../observe/index.ts';
import type { EmbeddedSide } from '../../embedded/index.ts';
import { runChecked } from '../../preflight/index.ts';
import { formatCaseLine, formatSummary, printable } from '../../report/index.ts';
import { colorFor } from '../color.ts';
import { openReportDir, type ReportDirSession } from '../report-dir.ts';
import { onlyMatcher } from '../only.ts';
import { RunStatus } from '../run-status.ts';
import { exitCodeFor, type CaseResult } from '../../results/index.ts';
import { Redactor } from '../../secrets/index.ts';
import {
  loadTargetFile, probeTarget, redactTarget, secretsOf, TargetFileError, TargetUnreachable, type ResolvedTarget,
} from '../../targets/index.ts';
import { TargetUnreachableError, UsageError } from '../errors.ts';
import type { SetExitCode } from '../index.ts';
import { toolVersion } from '../version.ts';

export const DEFAULT_REPORT_DIR = 'reports/latest';

export interface RunOptions {
  side?: EmbeddedSide;
  target?: string;
  reportDir?: string;
  only?: string;
  list?: boolean;
  seed?: string;
  waivers?: string;
  concurrency?: string;
}

export interface RunIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  env: Record<string, string | undefined>;
  cwd: string;
  color: boolean;
  /**
   * stderr is a terminal: a live status line while cases wait (see run-status.ts); otherwise a
   * plain line now and then. Default: process.stderr.isTTY.
   */
  progress: boolean;
  /** Columns of the terminal, for the status line. */
  columns?: number;
}

const processIo = (): RunIo => ({
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
    .action(async (options: RunOptions) => {
      setExitCode(await runConformance(options));
    });
}

function parseSeed(text: string | undefined): number {
  if (text === undefined) return randomSeed();
  if (!/^\d+$/.test(text) || Number(text) > 0xffffffff) throw new UsageError(`--seed: must be an integer from 0 to 4294967295 (got ${JSON.stringify(text)})`);
  return Number(text);
}

function parseConcurrency(text: string | undefined, embedded: boolean): number {
  if (text === undefined) return embedded ? DEFAULT_CONCURRENCY : TARGET_FILE_CONCURRENCY;
  if (!/^\d+$/.test(text) || Number(text) < 1 || Number(text) > MAX_CONCURRENCY) {
    throw new UsageError(`--concurrency: must be an integer from 1 to ${MAX_CONCURRENCY} (got ${JSON.stringify(text)})`);
  }
  return Number(text);
}

function casesFor(side: EmbeddedSide, only?: string): ConformanceCase[] {
  return selectCases(allCases().filter((c) => side === 'all' || c.side === side), only);
}

function listCases(cases: readonly ConformanceCase[]): string {
  const width = (pick: (c: ConformanceCase) => string) => Math.max(0, ...cases.map((c) => pick(c).length));
  const idW = width((c) => c.id);
  const refW = width((c) => c.specRef);
  return cases.map((c) => `${c.id.padEnd(idW)}  ${c.level.padEnd(6)}  ${c.specRef.padEnd(refW)}  ${c.title}\n`).join('');
}

function loadTarget(path: string, env: RunIo['env']): ResolvedTarget {
  try {
    return loadTargetFile(path, env);
  } catch (error) {
    if (error instanceof TargetFileError) throw new UsageError(error.message, error.code);
    throw error;
  }
}

function loadWaivers(path: string | undefined): WaiverEntry[] {
  if (path === undefined) return [];
  try {
    return loadWaiverFile(path);
  } catch (error) {
    if (error instanceof WaiverFileError) throw new UsageError(error.message, error.code);
    throw error;
  }
}

/** The whole `run` command; returns the exit status, throws UsageError / TargetUnreachableError. */
export async function runConformance(options: RunOptions, io: RunIo = processIo()): Promise<number> {
  if (options.side !== undefined && !['service', 'receiver', 'client', 'all'].includes(options.side)) {
    throw new UsageError(`--side: must be service, receiver, client or all (got ${JSON.stringify(options.side)})`);
  }
  onlyMatcher(options.only);
  const slots = new CaseSlots(parseConcurrency(options.concurrency, options.target === undefined));
  // A listing needs the target's side, not its secrets: every variable reads as set.
  const env = options.list ? new Proxy({}, { get: () => 'not-needed-for-list' }) : io.env;
  const fileTarget = options.target !== undefined ? loadTarget(options.target, env) : undefined;
  if (fileTarget && options.side && options.side !== 'all' && options.side !== fileTarget.side) {
    throw new UsageError(`--side ${options.side} contradicts the target file ${options.target}, which is a ${fileTarget.side} target`);
  }
  const side: EmbeddedSide = fileTarget ? fileTarget.side : options.side ?? 'all';

  if (options.list) {
    const cases = casesFor(side, options.only);
    io.stdout(listCases(cases));
    return 0;
  }

  const seed = parseSeed(options.seed);
  const waivers = loadWaivers(options.waivers);
  const selected = casesFor(side, options.only);
  if (selected.length === 0) throw new UsageError(`--only ${JSON.stringify(options.only ?? '')} selects no case of side ${side}`);
  for (const unused of unusedWaivers(waivers, selected.map((c) => c.id))) {
    io.stderr(`warning: the waiver for ${printable(JSON.stringify(unused.id))} names no case of this run\n`);
  }
  // A blanket waiver without expiry is refused at load; one with an expiry still hides every failure.
  for (const blanket of waivers.filter((w) => isBlanket(w.id))) {
    io.stderr(`warning: the waiver ${printable(JSON.stringify(blanket.id))} waives EVERY case of this run until ${blanket.expires}: no FAIL or ERROR will change the exit status\n`);
  }

  // The embedded default starts only the sides that have selected cases.
  // The reference implementations load only for the embedded run, not for a target file's.
  const embedded = fileTarget ? undefined : await (await import('../../embedded/index.ts')).startEmbedded([...new Set(selected.map((c) => c.side))]);
  let session: ReportDirSession | undefined;
  let stopStatus = () => {};
  let records: Observation | undefined;
  let closeOnSignal = () => {};
  try {
    const runs = fileTarget ? [{ target: fileTarget, runs: () => true }] : embedded!.runs;
    const targets = runs.map((r) => r.target);
    const redactor = new Redactor(targets.flatMap(secretsOf));
    for (const target of targets) {
      try {
        // A client target is reached by starting its adapter command.
        await (target.side === 'client' ? probeAdapter(target, redactor) : probeTarget(target));
      } catch (error) {
        if (error instanceof TargetUnreachable) throw new TargetUnreachableError(redactor.text(error.message));
        throw error;
      }
    }

    // The receiver's records, one way for the whole run (a pool, a process), checked before any
    // case: a mapping that cannot work is exit 2 naming the key, the statement and the store's message.
    const ids = transactionIds(seed);
    if (fileTarget?.side === 'receiver' && fileTarget.observe) {
      const target = fileTarget;
      closeOnSignal = closedOnSignal(() => records);
      try {
        records = await openCheckedObservation(target.observe!, { timeoutMs: defaultTimeouts(target).perRequestTimeoutMs, redactor, cwd: io.cwd }, () => {
          const shaped = shapedIds(ids, target.transactionIds);
          return { seeded: shaped.newTransactionId(), unseeded: shaped.newTransactionId() };
        });
      } catch (error) {
        if (error instanceof ObserveCheckError) {
          throw new UsageError(redactor.text(`${options.target}: observe: ${error.message} (collect-conformance observe-check --target ${options.target} shows each step)`), error.code);
        }
        throw error;
      }
    }

    const reportDir = resolve(io.cwd, options.reportDir ?? DEFAULT_REPORT_DIR);
    const shownTarget = targets.length === 1
      ? redactTarget(targets[0]!)
      : { side: 'all', embedded: true, targets: targets.map(redactTarget) };
    session = await openReportDir({
      dir: reportDir,
      header: {
        tool: { name: 'collect-conformance', version: toolVersion() },
        kind: 'run',
        target: redactor.value(shownTarget),
        startedAt: new Date().toISOString(),
        seed,
      },
      redactor,
    });
    io.stdout(`collect-conformance ${toolVersion()}: ${selected.length} case(s) against ${fileTarget ? `${options.target}` : 'the embedded reference implementations'} (seed ${seed}; repeat with --seed ${seed})\n`);

    // The targets' runs go at once, sharing the bound; their lines and report entries keep the order of `runs`.
    const active = runs
      .map(({ target, runs: runsCase }) => ({ target, cases: selected.filter(runsCase) as ConformanceCase<typeof target>[] }))
      .filter((r) => r.cases.length > 0);
    const ordered = new InOrder(active.length);
    // Every case and each side's preflight.
    const status = new RunStatus(
      { stderr: io.stderr, live: io.progress, ...(io.columns ? { width: io.columns - 1 } : {}) },
      active.reduce((n, r) => n + r.cases.length + 1, 0),
    );
    stopStatus = () => status.stop();
    const print = (result: CaseResult) => status.around(() => io.stdout(`${redactor.text(formatCaseLine(result, { color: io.color }))}\n`));
    const checkedRuns = await Promise.all(active.map(async ({ target, cases }, i) => {
      try {
        return await runChecked({
          cases,
          // The phase before the cases: the side's positive control, named on the terminal first.
          onPreflight: ({ result }) => ordered.emit(i, async () => {
            print(result);
            await session!.addPreflight(result);
          }),
          target,
          seed,
          waivers,
          redactor,
          ids,
          slots,
          ...(records && target === fileTarget ? { records } : {}),
          ...(options.only !== undefined ? { only: options.only } : {}),
          onStart: (id) => status.started(id),
          onEnd: (id) => status.ended(id),
          onProgress: (id, line) => status.progress(id, redactor.text(line)),
          onResult: (result) => ordered.emit(i, async () => {
            print(result);
            await session!.add(result);
          }),
        });
      } finally {
        await ordered.finish(i);
      }
    }));
    const results = checkedRuns.flatMap((c) => c.results);
    const sideRuns: SideRun[] = checkedRuns.map((c) => ({
      preflight: c.preflight.preflight, results: c.results, unproven: c.unproven, ...(c.stopped ? { stopped: c.stopped } : {}),
    }));
    // The phase after the cases: shared causes, named once before the summary's failures.
    stopStatus();
    const diagnoses = diagnose(sideRuns);
    if (diagnoses.length > 0) await session.setDiagnoses(diagnoses);
    const { report, files } = await session.finish();
    io.stdout(`${redactor.text(formatSummary(report, files, { color: io.color, cwd: io.cwd }))}\n`);
    // A client adapter that outlived the probe but never started: the target was not reached at all.
    for (const target of targets) {
      const never = target.side === 'client' ? await adapterNeverStarted(target) : undefined;
      if (never) throw new TargetUnreachableError(redactor.text(never));
    }
    return exitCodeFor(results);
  } finally {
    stopStatus();
    session?.release();
    await records?.close();
    closeOnSignal();
    await embedded?.close();
    if (fileTarget?.side === 'client') await closeClientBench(fileTarget);
  }
}

/**
 * While the run holds the receiver's records open (a database pool, an observer command in its
 * own process group), SIGINT and SIGTERM close them before the process ends with the signal, as
 * it would have. Returns the function that removes the handlers.
 */
function closedOnSignal(open: () => Observation | undefined): () => void {
  const onSignal = (signal: NodeJS.Signals) => {
    remove();
    const closing = open()?.close() ?? Promise.resolve();
    // Ended with the signal once closed (or after 3 s, whatever a command does meanwhile).
    void Promise.race([closing, new Promise((r) => setTimeout(r, 3000).unref())]).finally(() => process.kill(process.pid, signal));
  };
  const remove = () => {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  return remove;
}

/**
 * Output of runs that go at once, in the order of the runs: run i's entries are written at once
 * while every run before it has finished, kept until then otherwise.
 */
class InOrder {
  private current = 0;
  private chain: Promise<void> = Promise.resolve();
  private readonly held: Array<Array<() => void | Promise<void>>>;
  private readonly finished: boolean[];

  constructor(count: number) {
    this.held = Array.from({ length: count }, () => []);
    this.finished = Array.from({ length: count }, () => false);
  }

  emit(run: number, write: () => void | Promise<void>): Promise<void> {
    if (run !== this.current) {
      this.held[run]!.push(write);
      return Promise.resolve();
    }
    this.chain = this.chain.then(write);
    return this.chain;
  }

  finish(run: number): Promise<void> {
    this.finished[run] = true;
    while (this.current < this.finished.length && this.finished[this.current]) {
      this.current++;
      for (const write of this.held[this.current]?.splice(0) ?? []) this.chain = this.chain.then(write);
    }
    return this.chain;
  }
}
