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
import type { EmbeddedSide, EmbeddedTargets } from '../../embedded/index.ts';
import { allowCommands, settlesWithin, stopAllCommands } from '../../line-protocol/index.ts';
import { openCheckedObservation, ObserveCheckError, type Observation } from '../../observe/index.ts';
import { runChecked } from '../../preflight/index.ts';
import { formatCaseLine, formatSummary, printable } from '../../report/index.ts';
import { colorFor } from '../color.ts';
import { closingLines } from '../next-steps.ts';
import { interruptedDiagnosis, SIGNAL_EXIT_STATUS, unfinishedResults, watchStopSignals, type StopSignal } from '../interrupt.ts';
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
import { Pace, parseRate, RateError, type Rate } from '../../wire/index.ts';

export const DEFAULT_REPORT_DIR = 'reports/latest';
/**
 * `run --target` of a service without --rate: a vendor's sandbox is someone else's, often behind
 * a throttle (the issue's measured one allowed 5 a second), and a service run sends about 45
 * requests, most at its start; at 5/s they go within 9 s while its longest cases wait 10 to 20 s
 * for callbacks and retries anyway (docs/pacing.md: the example run 16 s paced, 13 s not). A receiver target and the embedded run are unpaced unless --rate says:
 * a receiver run sends about 200 requests (hooks readings most of them) to the team's own app.
 * A client target is never paced: its SDK sends to the harness's own service in this process.
 */
export const SERVICE_TARGET_RATE = '5/s';

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
    .option('--rate <rate>', `requests per second to the target, however many cases run at once: N/s or N/min (e.g. 5/s, 60/min), or off; measurements still send their bursts at once (default: ${SERVICE_TARGET_RATE} for a service target file, off for a receiver target and the embedded run; a client's SDK is never paced)`)
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

/** `--rate` as given (undefined: the side's default), as a Rate or unpaced (undefined). */
function parseRateOption(text: string | undefined): { given: false } | { given: true; rate: Rate | undefined } {
  if (text === undefined) return { given: false };
  try {
    return { given: true, rate: parseRate(text) };
  } catch (error) {
    if (error instanceof RateError) throw new UsageError(`--rate: ${error.message}`, error.code);
    throw error;
  }
}

/** The pace of one target's requests: --rate, else its side's default (SERVICE_TARGET_RATE). */
function paceFor(target: ResolvedTarget, rate: ReturnType<typeof parseRateOption>, fromFile: boolean): Pace {
  if (target.side === 'client') return new Pace(undefined);
  if (rate.given) return new Pace(rate.rate);
  return new Pace(fromFile && target.side === 'service' ? parseRate(SERVICE_TARGET_RATE) : undefined);
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
  const rate = parseRateOption(options.rate);
  // A listing needs the target's side, not its secrets: every variable reads as set.
  const env = options.list ? new Proxy({}, { get: () => 'not-needed-for-list' }) : io.env;
  const fileTarget = options.target !== undefined ? loadTarget(options.target, env) : undefined;
  if (fileTarget && options.side && options.side !== 'all' && options.side !== fileTarget.side) {
    throw new UsageError(`--side ${options.side} contradicts the target file ${options.target}, which is a ${fileTarget.side} target`);
  }
  const side: EmbeddedSide = fileTarget ? fileTarget.side : options.side ?? 'all';
  if (rate.given && rate.rate !== undefined && side === 'client') {
    throw new UsageError(`--rate ${options.rate}: a client target is not paced (its SDK sends to the harness's own service in this process, not to a target)`);
  }

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

  // SIGINT and SIGTERM from here on: the run stops its commands, writes what it can honestly say and ends 130 / 143.
  const signals = watchStopSignals();
  const state: RunState = { finished: new Set(), underWay: new Map(), ended: new Map(), interrupted: false, closed: false };
  const work = runSelected({ options, io, fileTarget, selected, seed, waivers, slots, rate, state });
  // Once interrupted, whatever the abandoned work still does (a late failure included) is no one's concern.
  work.catch(() => {});
  try {
    const first = await Promise.race([work.then((code) => ({ code })), signals.first]);
    if ('code' in first) return first.code;
    return await writeInterrupted(first, selected, state, io);
  } finally {
    signals.dispose();
    state.stopStatus?.();
    state.session?.release();
    // An interrupted run's servers may still hold requests: their close is bounded (the process ends next).
    // The receiver's records (a database pool, an observer command) are closed on every way out.
    const cleanup = Promise.all([state.records?.close(), state.embedded?.close(), fileTarget?.side === 'client' ? closeClientBench(fileTarget) : undefined]);
    if (state.interrupted) {
      await settlesWithin(cleanup.catch(() => {}), 2000);
      allowCommands();
    } else {
      await cleanup;
    }
  }
}

/** What the run has done so far, for the report of a run interrupted midway. */
interface RunState {
  embedded?: EmbeddedTargets;
  /** How the file target's receiver records are seen, opened once for the run. */
  records?: Observation;
  session?: ReportDirSession;
  /** The report directory being opened (a signal that comes meanwhile waits for it). */
  opening?: Promise<ReportDirSession>;
  /** Case ids written to the report. */
  finished: Set<string>;
  /** Case ids under way, with when they started. */
  underWay: Map<string, number>;
  /** Cases that ended, with their result, though not yet written (the report keeps the cases' order). */
  ended: Map<string, CaseResult>;
  /** Writes every result held for the order of the runs (InOrder). */
  flush?: () => Promise<void>;
  stopStatus?: () => void;
  print?: (result: CaseResult) => void;
  /** A signal came: results from now on are not written. */
  interrupted: boolean;
  /** The report was finished: nothing more is written. */
  closed: boolean;
}

interface SelectedRun {
  options: RunOptions;
  io: RunIo;
  fileTarget: ResolvedTarget | undefined;
  selected: ConformanceCase[];
  seed: number;
  waivers: WaiverEntry[];
  slots: CaseSlots;
  rate: ReturnType<typeof parseRateOption>;
  state: RunState;
}

/** The run of the selected cases, from the targets' start to the summary; returns the exit status. */
async function runSelected({ options, io, fileTarget, selected, seed, waivers, slots, rate, state }: SelectedRun): Promise<number> {
  // The embedded default starts only the sides that have selected cases.
  // The reference implementations load only for the embedded run, not for a target file's.
  const embedded = fileTarget ? undefined : await (await import('../../embedded/index.ts')).startEmbedded([...new Set(selected.map((c) => c.side))]);
  state.embedded = embedded;
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
  if (state.interrupted) return 1;

  // The receiver's records, one way for the whole run (a pool, a process), checked before any
  // case: a mapping that cannot work is exit 2 naming the key, the statement and the store's message.
  const ids = transactionIds(seed);
  if (fileTarget?.side === 'receiver' && fileTarget.observe) {
    const target = fileTarget;
    try {
      state.records = await openCheckedObservation(target.observe!, { timeoutMs: defaultTimeouts(target).perRequestTimeoutMs, redactor, cwd: io.cwd }, () => {
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
  if (state.interrupted) return 1;

  const reportDir = resolve(io.cwd, options.reportDir ?? DEFAULT_REPORT_DIR);
  const shownTarget = targets.length === 1
    ? redactTarget(targets[0]!)
    : { side: 'all', embedded: true, targets: targets.map(redactTarget) };
  state.opening = openReportDir({
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
  const session = await state.opening;
  state.session = session;
  if (state.interrupted) return 1;
  const paces = new Map(runs.map(({ target }) => [target, paceFor(target, rate, fileTarget !== undefined)]));
  const paced = [...new Set([...paces.values()].flatMap((p) => (p.rate ? [p.rate.text] : [])))];
  io.stdout(`collect-conformance ${toolVersion()}: ${selected.length} case(s) against ${fileTarget ? `${options.target}` : 'the embedded reference implementations'} (seed ${seed}; repeat with --seed ${seed}${paced.length > 0 ? `; requests paced at ${paced.join(', ')}` : ''})\n`);

  // The targets' runs go at once, sharing the bound; their lines and report entries keep the order of `runs`.
  const active = runs
    .map(({ target, runs: runsCase }) => ({ target, cases: selected.filter(runsCase) as ConformanceCase<typeof target>[] }))
    .filter((r) => r.cases.length > 0);
  const ordered = new InOrder(active.length);
  state.flush = () => ordered.flush();
  // Every case and each side's preflight.
  const status = new RunStatus(
    { stderr: io.stderr, live: io.progress, ...(io.columns ? { width: io.columns - 1 } : {}) },
    active.reduce((n, r) => n + r.cases.length + 1, 0),
  );
  state.stopStatus = () => status.stop();
  const print = (result: CaseResult) => status.around(() => io.stdout(`${redactor.text(formatCaseLine(result, { color: io.color }))}\n`));
  state.print = print;
  // Written in the order of the runs; a result that comes after a signal is not the report's.
  const write = (i: number, result: CaseResult, add: (r: CaseResult) => Promise<void>) => {
    if (state.interrupted) return Promise.resolve();
    return ordered.emit(i, async () => {
      if (state.closed) return;
      print(result);
      await add(result);
    });
  };
  const checkedRuns = await Promise.all(active.map(async ({ target, cases }, i) => {
    try {
      return await runChecked({
        cases,
        // The phase before the cases: the side's positive control, named on the terminal first.
        onPreflight: ({ result }) => write(i, result, (r) => session.addPreflight(r)),
        target,
        seed,
        waivers,
        redactor,
        ids,
        slots,
        pace: paces.get(target)!,
        ...(state.records && target === fileTarget ? { records: state.records } : {}),
        ...(options.only !== undefined ? { only: options.only } : {}),
        onStart: (id) => {
          status.started(id);
          state.underWay.set(id, performance.now());
        },
        onEnd: (id, result) => {
          status.ended(id);
          state.underWay.delete(id);
          if (result) state.ended.set(id, result);
        },
        onProgress: (id, line) => status.progress(id, redactor.text(line)),
        onResult: (result) => write(i, result, async (r) => {
          // Counted as written from here: a signal that comes during the write must not add it again.
          state.finished.add(r.id);
          await session.add(r);
        }),
      });
    } finally {
      await ordered.finish(i);
    }
  }));
  if (state.interrupted) return 1;
  const results = checkedRuns.flatMap((c) => c.results);
  const sideRuns: SideRun[] = checkedRuns.map((c) => ({
    preflight: c.preflight.preflight, results: c.results, unproven: c.unproven, ...(c.stopped ? { stopped: c.stopped } : {}),
  }));
  // The phase after the cases: shared causes, named once before the summary's failures.
  status.stop();
  const diagnoses = diagnose(sideRuns);
  if (diagnoses.length > 0) await session.setDiagnoses(diagnoses);
  state.closed = true;
  const { report, files } = await session.finish();
  io.stdout(`${redactor.text(formatSummary(report, files, { color: io.color, cwd: io.cwd }))}\n`);
  for (const line of closingLines(files, { cwd: io.cwd, embedded: !fileTarget })) io.stdout(`${redactor.text(line)}\n`);
  // 429s waited out leave no mark on a verdict, but the run went slower for them.
  for (const [target, pace] of paces) {
    if (pace.throttled === 0) continue;
    io.stderr(`note: the ${target.side} answered 429 Too Many Requests ${pace.throttled} time(s) (requests ${pace.rate ? `paced at ${pace.rate.text}` : 'unpaced'}); each time every request to it waited out the Retry-After; a lower --rate avoids the waits\n`);
  }
  // A client adapter that outlived the probe but never started: the target was not reached at all.
  for (const target of targets) {
    const never = target.side === 'client' ? await adapterNeverStarted(target) : undefined;
    if (never) throw new TargetUnreachableError(redactor.text(never));
  }
  return exitCodeFor(results);
}

/**
 * A signal came: stop the commands (the adapter's whole process group), then write what the
 * report can honestly say: the results that came before it, every other selected case ERROR
 * (under way or not started), the interruption as the shared cause first and in
 * report.json's `interrupted`. Returns 130 (SIGINT) or 143 (SIGTERM).
 */
async function writeInterrupted({ signal, at }: { signal: StopSignal; at: Date }, selected: readonly ConformanceCase[], state: RunState, io: RunIo): Promise<number> {
  state.interrupted = true;
  // As things stood when the signal came: what ends after it (the adapter stopped under a case) is not the report's.
  const underWay = new Map(state.underWay);
  const ended = new Map(state.ended);
  state.stopStatus?.();
  io.stderr(`collect-conformance: interrupted by ${signal}: stopping the run's commands and writing the reports (again to end at once)\n`);
  await stopAllCommands(`the run was interrupted (${signal})`);
  const session = state.session ?? await state.opening?.catch(() => undefined);
  if (session && !state.closed) {
    // What came before the signal is written first, in order (bounded: the process ends next).
    await settlesWithin(state.flush?.() ?? Promise.resolve(), 2000);
    state.closed = true;
    // Ended before the signal but held for the cases' order: their verdicts stand.
    for (const c of selected) {
      const result = ended.get(c.id);
      if (!result || state.finished.has(c.id)) continue;
      state.print?.(result);
      await session.add(result);
      state.finished.add(c.id);
    }
    const notFinished = unfinishedResults(selected, state.finished, underWay, signal);
    for (const result of notFinished) await session.add(result);
    await session.setInterrupted({ signal, at: at.toISOString(), notFinished: notFinished.map((r) => r.id) });
    if (notFinished.length > 0) await session.setDiagnoses([interruptedDiagnosis(signal, notFinished, selected.length)]);
    const { report, files } = await session.finish();
    io.stdout(`${formatSummary(report, files, { color: io.color, cwd: io.cwd })}\n`);
  }
  return SIGNAL_EXIT_STATUS[signal];
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

  /** Writes everything held, in the order of the runs, as if every run had finished. */
  flush(): Promise<void> {
    for (let run = 0; run < this.finished.length; run++) void this.finish(run);
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
