// The run as a library (HOUSE.md "Change" 1): a target (a file, its JSON, or the embedded
// reference implementations) driven through the selected cases, from the reachability probe to
// the shared causes, resolving with the report (report.json's object). Nothing is printed and
// nothing written unless a reporter is asked for (`reportDir`, `reporters`); the process is never
// ended. The command line (`collect-conformance run`) is flags in, exit status out over this.
import { isAbsolute, resolve } from 'node:path';
import {
  allCases, probeAdapter, 
  RunResources, 
  type ConformanceCase, 
} from '../cases/index.ts';
import { diagnose } from '../diagnoses/index.ts';
import type { EmbeddedSide, EmbeddedTargets } from '../embedded/index.ts';
import { allowCommands, settlesWithin, stopAllCommands } from '../line-protocol/index.ts';
import { openCheckedObservation, ObserveCheckError } from '../observe/index.ts';
import { printable, reportBook, type ReportBook } from '../report/index.ts';
import type { CaseResult, RunReport } from '../results/index.ts';
import { Redactor } from '../secrets/index.ts';
import {
  loadTargetFile, parseTarget, probeTarget, redactTarget, secretsOf, TargetFileError, type ResolvedTarget,
} from '../targets/index.ts';
import { TargetUnreachableError, toolVersion, UsageError } from '../tool/index.ts';
import { Pace, parseRate, RateError, type Rate } from '../wire/index.ts';
import { InOrder } from './in-order.ts';
import { interruptedDiagnosis, RunInterrupted, unfinishedResults, type StopRequest } from './interrupt.ts';
import { onlyMatcher, onlyText } from './only.ts';
import { reportDirReporter } from './report-dir.ts';
import { runSide } from './side.ts';
import { allOf, type PlannedCase, type RunReporter } from './reporter.ts';
import { CaseSlots, DEFAULT_CONCURRENCY, defaultTimeouts, isBlanket, loadWaiverFile, MAX_CONCURRENCY, parseWaivers, selectCases, TARGET_FILE_CONCURRENCY, unusedWaivers, WaiverFileError, type WaiverEntry } from '../runner/index.ts';
import { randomSeed, shapedIds, transactionIds } from '../ids/index.ts';

/** `run --report-dir` by default (the library writes no report directory unless given one). */
export const DEFAULT_REPORT_DIR = 'reports/latest';

/**
 * A service target file without `rate`: a vendor's sandbox is someone else's, often behind
 * a throttle (the issue's measured one allowed 5 a second), and a service run sends about 45
 * requests, most at its start; at 5/s they go within 9 s while its longest cases wait 10 to 20 s
 * for callbacks and retries anyway (docs/pacing.md: the example run 16 s paced, 13 s not). A receiver target and the embedded run are unpaced unless `rate` says:
 * a receiver run sends about 200 requests (hooks readings most of them) to the team's own app.
 * A client target is never paced: its SDK sends to the harness's own service in this process.
 */
export const SERVICE_TARGET_RATE = '5/s';

type Env = Record<string, string | undefined>;

/** A target as a target file holds it (DESIGN.md "Target files"; secrets as `{"env": …}` references). */
export type TargetDescription = Record<string, unknown>;

export interface RunConformanceOptions {
  /**
   * A target file's path, or its content as a value (the same JSON, validated the same way), or
   * a started one (StartedTarget: a reference started with its faults, timing and mode, e.g.
   * `await startEmbeddedService({ faults })`), run as a target file's would be; absent: the
   * embedded reference implementations of `side`.
   */
  target?: string | TargetDescription | StartedTarget;
  /** Without a target: which embedded side runs (default `all`). With one: must be its side, or `all`. */
  side?: EmbeddedSide;
  /** Case id globs (`receiver.token.*`), as a list or comma-separated; default every case of the side. */
  only?: string | readonly string[];
  /** Seed of transaction ids and random values (0 to 4294967295); default random (in the report). */
  seed?: number;
  /** A waiver file's path, or its entries. */
  waivers?: string | readonly WaiverEntry[];
  /** Cases in flight at once, 1 to 64 (default 32 against a target, 8 for the embedded run). */
  concurrency?: number;
  /** Requests per second to the target: `N/s`, `N/min` or `off` (default 5/s for a service target, otherwise off). */
  rate?: string;
  /** Where report.json, junit.xml, report.md and index.html go (relative to `cwd`); absent: none are written. */
  reportDir?: string;
  /** Told of the run as it goes (after the report directory's, when there is one). */
  reporters?: readonly RunReporter[];
  /** Where `{"env": …}` references are read (default process.env). */
  env?: Env;
  /** Where relative paths start, and an observer command runs (default process.cwd()). */
  cwd?: string;
  /**
   * Resolves to stop the run midway (the command line's SIGINT / SIGTERM): its commands are
   * stopped and the report says the run was interrupted, every unfinished case ERROR.
   */
  stop?: Promise<StopRequest>;
}

/** The cases a run of `side` (and `only`) selects, in report order, without touching a target. */
export function selectedCases(side: EmbeddedSide, only?: string | readonly string[]): ConformanceCase[] {
  return selectCases(allCases().filter((c) => side === 'all' || c.side === side), onlyText(only));
}

function checkConcurrency(value: number | undefined, embedded: boolean): number {
  if (value === undefined) return embedded ? DEFAULT_CONCURRENCY : TARGET_FILE_CONCURRENCY;
  if (!Number.isInteger(value) || value < 1 || value > MAX_CONCURRENCY) {
    throw new UsageError(`--concurrency: must be an integer from 1 to ${MAX_CONCURRENCY} (got ${JSON.stringify(value)})`);
  }
  return value;
}

function checkSeed(value: number | undefined): number {
  if (value === undefined) return randomSeed();
  if (!Number.isInteger(value) || value < 0 || value > 0xffffffff) throw new UsageError(`--seed: must be an integer from 0 to 4294967295 (got ${JSON.stringify(value)})`);
  return value;
}

/** `rate` as given (undefined: the side's default), as a Rate or unpaced (undefined). */
type RateChoice = { given: false } | { given: true; rate: Rate | undefined };

function parseRateOption(text: string | undefined): RateChoice {
  if (text === undefined) return { given: false };
  try {
    return { given: true, rate: parseRate(text) };
  } catch (error) {
    if (error instanceof RateError) throw new UsageError(`--rate: ${error.message}`, error.code);
    throw error;
  }
}

/** The pace of one target's requests: `rate`, else its side's default (SERVICE_TARGET_RATE). */
function paceFor(target: ResolvedTarget, rate: RateChoice, fromFile: boolean): Pace {
  if (target.side === 'client') return new Pace(undefined);
  if (rate.given) return new Pace(rate.rate);
  return new Pace(fromFile && target.side === 'service' ? parseRate(SERVICE_TARGET_RATE) : undefined);
}

/**
 * A target resolved already, as a started reference holds it (`startEmbeddedService({ faults })`)
 * or as `resolveTarget` returns it (`{ target: resolveTarget(file) }`). It comes wrapped because a
 * ResolvedTarget alone cannot be told from a file's content that writes a secret as text, which
 * a run refuses (a file names it `{"env": …}`); a file's content has `side`, never `target`.
 */
export interface StartedTarget {
  target: ResolvedTarget;
}

function isStarted(target: TargetDescription | StartedTarget): target is StartedTarget {
  return !('side' in target) && typeof target['target'] === 'object' && target['target'] !== null;
}

/** The target, loaded and resolved (a started one as it is); an invalid one is a usage error naming the bad field (exit 2). */
export function resolveTarget(target: string | TargetDescription | StartedTarget, env: Env = process.env, cwd = process.cwd()): ResolvedTarget {
  if (typeof target !== 'string' && isStarted(target)) return target.target;
  try {
    // A path is named as given in messages; read from `cwd` when that is not the process's own.
    return typeof target === 'string'
      ? loadTargetFile(isAbsolute(target) || cwd === process.cwd() ? target : resolve(cwd, target), env)
      : parseTarget(target, env, { baseDir: cwd, source: 'target' });
  } catch (error) {
    if (error instanceof TargetFileError) throw new UsageError(error.message, error.code);
    throw error;
  }
}

function loadWaivers(waivers: RunConformanceOptions['waivers']): WaiverEntry[] {
  if (waivers === undefined) return [];
  try {
    return typeof waivers === 'string' ? loadWaiverFile(waivers) : parseWaivers(waivers);
  } catch (error) {
    if (error instanceof WaiverFileError) throw new UsageError(error.message, error.code);
    throw error;
  }
}

/**
 * Runs the selected cases against the target and resolves with the report. Throws UsageError
 * (exit 2: bad options, an invalid target, a report directory in use), TargetUnreachableError
 * (exit 3), RunInterrupted (stopped before the report was begun).
 */
export async function runConformance(options: RunConformanceOptions = {}): Promise<RunReport> {
  if (options.side !== undefined && !['service', 'receiver', 'client', 'all'].includes(options.side)) {
    throw new UsageError(`--side: must be service, receiver, client or all (got ${JSON.stringify(options.side)})`);
  }
  const only = onlyText(options.only);
  onlyMatcher(only);
  const env = options.env ?? process.env;
  const cwd = options.cwd ?? process.cwd();
  const slots = new CaseSlots(checkConcurrency(options.concurrency, options.target === undefined));
  const rate = parseRateOption(options.rate);
  const fileTarget = options.target !== undefined ? resolveTarget(options.target, env, cwd) : undefined;
  const targetName = typeof options.target === 'string' ? options.target : 'the target';
  if (fileTarget && options.side && options.side !== 'all' && options.side !== fileTarget.side) {
    throw new UsageError(`--side ${options.side} contradicts the target file ${targetName}, which is a ${fileTarget.side} target`);
  }
  const side: EmbeddedSide = fileTarget ? fileTarget.side : options.side ?? 'all';
  if (rate.given && rate.rate !== undefined && side === 'client') {
    throw new UsageError(`--rate ${options.rate}: a client target is not paced (its SDK sends to the harness's own service in this process, not to a target)`);
  }
  const seed = checkSeed(options.seed);
  const waivers = loadWaivers(options.waivers);
  const selected = selectedCases(side, only);
  if (selected.length === 0) throw new UsageError(`--only ${JSON.stringify(only ?? '')} selects no case of side ${side}`);

  const reporters = allOf([
    ...(options.reportDir !== undefined ? [reportDirReporter(resolve(cwd, options.reportDir))] : []),
    ...(options.reporters ?? []),
  ]);
  try {
    for (const unused of unusedWaivers(waivers, selected.map((c) => c.id))) {
      await reporters.onNotice({ level: 'warning', text: `the waiver for ${printable(JSON.stringify(unused.id))} names no case of this run` });
    }
    // A blanket waiver without expiry is refused at load; one with an expiry still hides every failure.
    for (const blanket of waivers.filter((w) => isBlanket(w.id))) {
      await reporters.onNotice({ level: 'warning', text: `the waiver ${printable(JSON.stringify(blanket.id))} waives EVERY case of this run until ${blanket.expires}: no FAIL or ERROR will change the exit status` });
    }

    const resources = new RunResources();
    const state: RunState = { finished: new Set(), underWay: new Map(), ended: new Map(), interrupted: false, closed: false };
    const run: SelectedRun = {
      fileTarget, targetName, fromPath: typeof options.target === 'string', selected, seed, waivers, slots, rate, state, resources, reporters, cwd, ...(only !== undefined ? { only } : {}),
    };
    const work = runSelected(run);
    // Once interrupted, whatever the abandoned work still does (a late failure included) is no one's concern.
    work.catch(() => {});
    try {
      const first = await Promise.race([work.then((report) => ({ report })), ...(options.stop ? [options.stop] : [])]);
      if (!('report' in first)) return await writeInterrupted(first, run);
      // Undefined only once a stop request came, which the race then saw first.
      if (first.report === undefined) throw new Error('internal: the run ended without a report, and no stop request came');
      return first.report;
    } finally {
      // An interrupted run's servers may still hold requests: their close is bounded (the process may end next).
      // Everything the run held (a database pool, an observer command, an adapter, listeners) is closed on every way out.
      const cleanup = Promise.all([resources.close(), state.embedded?.close()]);
      if (state.interrupted) {
        await settlesWithin(cleanup.catch(() => {}), 2000);
        allowCommands();
      } else {
        await cleanup;
      }
    }
  } finally {
    reporters.onClose();
  }
}

/** What the run has done so far, for the report of a run interrupted midway. */
interface RunState {
  embedded?: EmbeddedTargets;
  /** The report, once begun (the reporters were told the run's start). */
  book?: ReportBook;
  /** The reporters being told the start, true once they were (a stop request that comes meanwhile waits for it). */
  starting?: Promise<boolean>;
  /** Case ids written to the report. */
  finished: Set<string>;
  /** Case ids under way, with when they started. */
  underWay: Map<string, number>;
  /** Cases that ended, with their result, though not yet written (the report keeps the cases' order). */
  ended: Map<string, CaseResult>;
  /** Writes every result held for the order of the runs (InOrder). */
  flush?: () => Promise<void>;
  /** A stop request came: results from now on are not written. */
  interrupted: boolean;
  /** The report was finished: nothing more is written. */
  closed: boolean;
}

interface SelectedRun {
  fileTarget: ResolvedTarget | undefined;
  /** How messages name the target: its file's path, or "the target". */
  targetName: string;
  /** The target was given as a file's path. */
  fromPath: boolean;
  selected: ConformanceCase[];
  seed: number;
  waivers: WaiverEntry[];
  only?: string;
  slots: CaseSlots;
  rate: RateChoice;
  state: RunState;
  resources: RunResources;
  reporters: Required<RunReporter>;
  cwd: string;
}

const planned = (c: ConformanceCase): PlannedCase => ({ id: c.id, title: c.title, level: c.level, specRef: c.specRef, side: c.side });

/** The run of the selected cases, from the targets' start to the end; undefined when a stop request came first. */
async function runSelected(run: SelectedRun): Promise<RunReport | undefined> {
  const { fileTarget, targetName, selected, seed, waivers, slots, rate, state, resources, reporters, cwd } = run;
  // The embedded default starts only the sides that have selected cases.
  // The reference implementations load only for the embedded run, not for a target file's.
  const embedded = fileTarget ? undefined : await (await import('../embedded/index.ts')).startEmbedded([...new Set(selected.map((c) => c.side))]);
  state.embedded = embedded;
  const runs = fileTarget ? [{ target: fileTarget, runs: () => true }] : embedded!.runs;
  const targets = runs.map((r) => r.target);
  const redactor = new Redactor(targets.flatMap(secretsOf));
  for (const target of targets) {
    try {
      // A client target is reached by starting its adapter command.
      await (target.side === 'client' ? probeAdapter(target, redactor, resources.clients) : probeTarget(target));
    } catch (error) {
      if (error instanceof TargetUnreachableError) throw new TargetUnreachableError(redactor.text(error.message));
      throw error;
    }
  }
  if (state.interrupted) return undefined;

  // The receiver's records, one way for the whole run (a pool, a process), checked before any
  // case: a mapping that cannot work is exit 2 naming the key, the statement and the store's message.
  const ids = transactionIds(seed);
  if (fileTarget?.side === 'receiver' && fileTarget.observe) {
    const target = fileTarget;
    const spec = fileTarget.observe;
    try {
      await resources.observation(target, () => openCheckedObservation(spec, { timeoutMs: defaultTimeouts(target).perRequestTimeoutMs, redactor, cwd }, () => {
        const shaped = shapedIds(ids, target.transactionIds);
        return { seeded: shaped.newTransactionId(), unseeded: shaped.newTransactionId() };
      }));
    } catch (error) {
      if (error instanceof ObserveCheckError) {
        const file = run.fromPath ? targetName : '<file>';
        throw new UsageError(redactor.text(`${targetName}: observe: ${error.message} (collect-conformance observe-check --target ${file} shows each step)`), error.code);
      }
      throw error;
    }
  }
  if (state.interrupted) return undefined;

  const shownTarget = targets.length === 1
    ? redactTarget(targets[0]!)
    : { side: 'all', embedded: true, targets: targets.map(redactTarget) };
  const book = reportBook({
    header: {
      tool: { name: 'collect-conformance', version: toolVersion() },
      kind: 'run',
      target: redactor.value(shownTarget),
      startedAt: new Date().toISOString(),
      seed,
    },
    redactor,
  });
  const paces = new Map(runs.map(({ target }) => [target, paceFor(target, rate, fileTarget !== undefined)]));
  const paced = [...new Set([...paces.values()].flatMap((p) => (p.rate ? [p.rate.text] : [])))];
  // The targets' runs go at once, sharing the bound; their results keep the order of `runs`.
  const active = runs
    .map(({ target, runs: runsCase }) => ({ target, cases: selected.filter(runsCase) as ConformanceCase<typeof target>[] }))
    .filter((r) => r.cases.length > 0);
  state.starting = Promise.resolve(reporters.onRunStart({
    seed,
    cases: selected.map(planned),
    against: fileTarget ? targetName : 'the embedded reference implementations',
    embedded: !fileTarget,
    paced,
    // Every case and each side's preflight.
    total: active.reduce((n, r) => n + r.cases.length + 1, 0),
    redactor,
    report: () => book.snapshot(),
  })).then(() => true);
  state.book = book;
  await state.starting;
  if (state.interrupted) return undefined;

  const ordered = new InOrder(active.length);
  state.flush = () => ordered.flush();
  // Told in the order of the runs; a result that comes after a stop request is not the report's.
  const tell = (i: number, told: () => void | Promise<void>) => {
    if (state.interrupted) return Promise.resolve();
    return ordered.emit(i, async () => {
      if (state.closed) return;
      await told();
    });
  };
  const sideRuns = await Promise.all(active.map(async ({ target, cases }, i) => {
    try {
      return await runSide({
        cases,
        // The phase before the cases: the side's positive control, told first.
        onPreflight: ({ result }) => tell(i, () => reporters.onPreflight(book.addPreflight(result))),
        target,
        seed,
        waivers,
        redactor,
        ids,
        slots,
        resources,
        pace: paces.get(target)!,
        ...(run.only !== undefined ? { only: run.only } : {}),
        onStart: (id) => {
          reporters.onCaseStart(id);
          state.underWay.set(id, performance.now());
        },
        onEnd: (id, result) => {
          reporters.onCaseEnd(id);
          state.underWay.delete(id);
          if (result) state.ended.set(id, result);
        },
        onProgress: (id, line) => reporters.onCaseProgress(id, redactor.text(line)),
        onResult: (result) => tell(i, () => {
          // Counted as written from here: a stop request that comes while it is told must not add it again.
          state.finished.add(result.id);
          return reporters.onCaseResult(book.add(result));
        }),
      });
    } finally {
      await ordered.finish(i);
    }
  }));
  if (state.interrupted) return undefined;
  // The phase after the cases: shared causes, named once before the summary's failures; named
  // over every side's run at once, so that ids stay unique when two targets share a side.
  const diagnoses = diagnose(sideRuns);
  if (diagnoses.length > 0) {
    book.setDiagnoses(diagnoses);
    await reporters.onDiagnoses(book.snapshot().diagnoses ?? []);
  }
  state.closed = true;
  const report = book.finish();
  await reporters.onEnd(report);
  // 429s waited out leave no mark on a verdict, but the run went slower for them.
  for (const [target, pace] of paces) {
    if (pace.throttled === 0) continue;
    await reporters.onNotice({
      level: 'note',
      text: `the ${target.side} answered 429 Too Many Requests ${pace.throttled} time(s) (requests ${pace.rate ? `paced at ${pace.rate.text}` : 'unpaced'}); each time every request to it waited out the Retry-After; a lower --rate avoids the waits`,
    });
  }
  // A client adapter that outlived the probe but never started: the target was not reached at all.
  for (const target of targets) {
    const never = target.side === 'client' ? await resources.clients.neverStarted(target) : undefined;
    if (never) throw new TargetUnreachableError(redactor.text(never));
  }
  return report;
}

/**
 * A stop request came: stop the commands (the adapter's whole process group), then write what
 * the report can honestly say: the results that came before it, every other selected case ERROR
 * (under way or not started), the interruption as the shared cause first and in report.json's
 * `interrupted`. Throws RunInterrupted when the report was not begun.
 */
async function writeInterrupted({ signal, at }: StopRequest, run: SelectedRun): Promise<RunReport> {
  const { state, selected, reporters } = run;
  state.interrupted = true;
  // As things stood when the request came: what ends after it (the adapter stopped under a case) is not the report's.
  const underWay = new Map(state.underWay);
  const ended = new Map(state.ended);
  await reporters.onStopping(signal);
  await stopAllCommands(`the run was interrupted (${signal})`);
  const begun = await state.starting?.catch(() => false);
  const book = state.book;
  if (!begun || !book || state.closed) throw new RunInterrupted(signal);
  // What came before the request is told first, in order (bounded: the process may end next).
  await settlesWithin(state.flush?.() ?? Promise.resolve(), 2000);
  state.closed = true;
  // Ended before the request but held for the cases' order: their verdicts stand.
  for (const c of selected) {
    const result = ended.get(c.id);
    if (!result || state.finished.has(c.id)) continue;
    state.finished.add(c.id);
    await reporters.onCaseResult(book.add(result));
  }
  const notFinished = unfinishedResults(selected, state.finished, underWay, signal);
  for (const result of notFinished) book.add(result);
  const interrupted = { signal, at: at.toISOString(), notFinished: notFinished.map((r) => r.id) };
  book.setInterrupted(interrupted);
  await reporters.onInterrupted(interrupted, notFinished);
  if (notFinished.length > 0) {
    book.setDiagnoses([interruptedDiagnosis(signal, notFinished, selected.length, underWay)]);
    await reporters.onDiagnoses(book.snapshot().diagnoses ?? []);
  }
  const report = book.finish();
  await reporters.onEnd(report);
  return report;
}
