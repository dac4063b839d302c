// Runs cases against one target, several at once (CaseSlots: a bound, and one wire gate, so a
// case measures time or load with nothing else of ours on the wire): selection, SKIP for unmet
// needs, a time limit per case (paused while it waits for another's measurement), thrown errors
// as ERROR, waivers, and the results told in case order, whatever order they end in.
import { openObservation, type ObserveSpec } from '../observe/index.ts';
import type { CaseResult, Stated } from '../results/index.ts';
import { Redactor } from '../secrets/index.ts';
import { secretsOf, type ResolvedTarget } from '../targets/index.ts';
import { firstUnmet } from './capabilities.ts';
import { clientCaseTimeoutMs, RunResources, type CaseContext, type CaseOutcome, type ConformanceCase } from '../cases/index.ts';
import { shapedIds, transactionIds, type TransactionIdGenerator } from '../ids/index.ts';
import { selectCases } from './select.ts';
import { CaseSlots } from './slots.ts';
import { livenessCheck, TargetWatch } from './watch.ts';
import { CaseWire, Pace } from '../wire/index.ts';
import { applyWaivers, type WaiverEntry } from './waivers.ts';

export interface RunCasesOptions<T extends ResolvedTarget> {
  cases: readonly ConformanceCase<T>[];
  target: T;
  seed: number;
  /** `--only`: comma-separated id globs. */
  only?: string;
  waivers?: readonly WaiverEntry[];
  /**
   * Called once per case, in case order (a case that ends early waits for the ones before it);
   * each call is awaited before the next.
   */
  onResult?: (result: CaseResult) => void | Promise<void>;
  /** A case got its slot and started; then it ended (before its turn in onResult), with its result unless it threw. */
  onStart?: (caseId: string) => void;
  onEnd?: (caseId: string, result?: CaseResult) => void;
  /** What a case is waiting for now; '' when it no longer waits for anything it said. */
  onProgress?: (caseId: string, line: string) => void;
  /** Cases at once (default DEFAULT_CONCURRENCY; 1: one after another). Ignored when `slots` is given. */
  concurrency?: number;
  /** Shared by the runs of several targets, so that the bound and the wire gate hold across them. */
  slots?: CaseSlots;
  /**
   * The pace of the requests to this target (`run --rate`), apart from how many cases run at
   * once; share it between a target's preflight and cases. Default: unpaced (a 429's
   * Retry-After still holds every request to the target until it has passed).
   */
  pace?: Pace;
  /** Gives up on a target that stopped answering (default: one per call; share it with the preflight). */
  watch?: TargetWatch;
  /** Time limit of one HTTP request (default: per side, see defaultTimeouts). */
  perRequestTimeoutMs?: number;
  /** Time limit of one case (default: per side, see defaultTimeouts). */
  caseTimeoutMs?: number;
  /** The shortest time a receiver's observer command gets to answer (default MIN_COMMAND_ANSWER_MS, harness/observe). */
  minObserverAnswerMs?: number;
  /** Default: one built from the target's secrets. */
  redactor?: Redactor;
  /** Share one generator when a run drives several targets, so ids never repeat. */
  ids?: TransactionIdGenerator;
  /**
   * What the run holds for its cases (a client's bench, a service's listener, a confirming
   * receiver's status endpoint, a receiver's records as observed), shared by its preflight and
   * cases, and closed by whoever made it. Default: made here, and closed when the cases end.
   */
  resources?: RunResources;
  now?: () => Date;
}

/** The shortest per-request limit: a loopback round trip on a loaded machine, not a target's promise. */
export const MIN_REQUEST_TIMEOUT_MS = 1000;

/**
 * Time limits that follow the target file's timing, with only a small floor, so a target that
 * hangs costs about its own timings per request (a hung service with 1 s timings used to cost
 * a 10 s floor per request, a receiver 5 s).
 */
export function defaultTimeouts(target: ResolvedTarget): { perRequestTimeoutMs: number; caseTimeoutMs: number } {
  if (target.side === 'receiver') {
    // Twice the deadline: a late reply is measured (and judged late), not cut off at the deadline.
    const perRequestTimeoutMs = Math.max(MIN_REQUEST_TIMEOUT_MS, 2 * target.timing.replyDeadlineMs);
    return { perRequestTimeoutMs, caseTimeoutMs: Math.max(10_000, 6 * perRequestTimeoutMs) };
  }
  if (target.side === 'client') {
    const perRequestTimeoutMs = target.timing.answerDeadlineMs;
    return { perRequestTimeoutMs, caseTimeoutMs: clientCaseTimeoutMs(perRequestTimeoutMs) };
  }
  // A collect answer has no deadline of its own; the callback timeout is the service's pace.
  const perRequestTimeoutMs = Math.min(10_000, Math.max(MIN_REQUEST_TIMEOUT_MS, target.timing.callbackTimeoutMs));
  return {
    perRequestTimeoutMs,
    caseTimeoutMs: target.timing.callbackTimeoutMs + target.timing.retryWindowMs + 3 * perRequestTimeoutMs,
  };
}

class CaseTimeout extends Error {}

/** What the outcome states for the diagnoses (CaseResult.stated), when it states anything. */
function statedBy(outcome: CaseOutcome): Pick<CaseResult, 'stated'> {
  const stated: Stated = { ...(outcome.causes?.length ? { causes: outcome.causes } : {}), ...(outcome.failure ? { failure: outcome.failure } : {}) };
  return Object.keys(stated).length > 0 ? { stated } : {};
}

/** While a case waits at the gate its limit is looked at again at most this often. */
const MIN_LIMIT_RECHECK_MS = 50;

/** The watch of a target, whose liveness check waits twice the per-request limit (default: the target's). */
export function watchFor(target: ResolvedTarget, perRequestTimeoutMs = defaultTimeouts(target).perRequestTimeoutMs): TargetWatch {
  return new TargetWatch(livenessCheck(target, 2 * perRequestTimeoutMs));
}

export async function runCases<T extends ResolvedTarget>(options: RunCasesOptions<T>): Promise<CaseResult[]> {
  if (options.resources) return runHeldCases(options, options.resources);
  const resources = new RunResources();
  try {
    return await runHeldCases(options, resources);
  } finally {
    await resources.close();
  }
}

async function runHeldCases<T extends ResolvedTarget>(options: RunCasesOptions<T>, resources: RunResources): Promise<CaseResult[]> {
  // A confirming receiver calls the harness's status endpoint while it handles a callback: it
  // serves before the first case starts, and for as long as the run's resources are held.
  await resources.statusEndpoints.of(options.target);
  const { target, seed } = options;
  const defaults = defaultTimeouts(target);
  const perRequestTimeoutMs = options.perRequestTimeoutMs ?? defaults.perRequestTimeoutMs;
  const caseTimeoutMs = options.caseTimeoutMs ?? defaults.caseTimeoutMs;
  const redactor = options.redactor ?? new Redactor(secretsOf(target));
  const ids = options.ids ?? transactionIds(seed);
  const selected = selectCases(options.cases, options.only).filter((c) => c.side === target.side);
  const shaped = shapedIds(ids, target.transactionIds);
  const slots = options.slots ?? new CaseSlots(options.concurrency);
  const watch = options.watch ?? watchFor(target, perRequestTimeoutMs);
  const pace = options.pace ?? new Pace(undefined);
  // Only a receiver target has `observe` (the target schema refuses it on the other sides).
  const spec = (target as { observe?: ObserveSpec }).observe;
  const records = spec ? await resources.observation(target, () => openObservation(spec, {
    timeoutMs: perRequestTimeoutMs, redactor, ...(options.minObserverAnswerMs !== undefined ? { minCommandAnswerMs: options.minObserverAnswerMs } : {}),
  })) : undefined;

  const runHeld = async (testCase: ConformanceCase<T>): Promise<CaseResult> => {
    const release = await slots.acquire();
    let ended: CaseResult | undefined;
    try {
      options.onStart?.(testCase.id);
      const started = performance.now();
      // What the case said last, shown again once it no longer waits for the wire.
      let said: string | undefined;
      let waiting = false;
      const tell = (line: string) => options.onProgress?.(testCase.id, redactor.text(line));
      const outcome = await runOne(testCase, {
        target, seed, redactor, requestTimeoutMs: perRequestTimeoutMs, resources,
        ...shaped,
        ...(records ? { records } : {}),
        progress: (line) => {
          said = line;
          if (!waiting) tell(line);
        },
      }, caseTimeoutMs, watch, (signal) => new CaseWire(slots.wire, testCase.id, {
        signal,
        pace,
        onWait: (waitingFor) => {
          waiting = waitingFor !== undefined;
          // '' once the wait is over and the case had said nothing: the status line drops the wait.
          tell(waitingFor ?? said ?? '');
        },
      }));
      const level = outcome.level ?? testCase.level;
      const result: CaseResult = {
        id: testCase.id,
        title: testCase.title,
        level,
        specRef: testCase.specRef,
        // DESIGN.md: WARN is a SHOULD not met; a case reports FAIL and its level decides.
        ...(outcome.verdict === 'PASS'
          ? { verdict: 'PASS' as const, ...(outcome.reason !== undefined ? { reason: redactor.text(outcome.reason) } : {}) }
          : { verdict: outcome.verdict === 'FAIL' && level === 'SHOULD' ? 'WARN' as const : outcome.verdict, reason: redactor.text(outcome.reason) }),
        ...(outcome.evidence !== undefined ? { evidence: redactor.value(outcome.evidence) } : {}),
        durationMs: Math.round(performance.now() - started),
        ...statedBy(outcome),
      };
      watch.observe(result);
      ended = applyWaivers(result, options.waivers ?? [], options.now?.());
      return ended;
    } finally {
      release();
      options.onEnd?.(testCase.id, ended);
    }
  };

  // Every case asks for its slot at once, in case order (first come, first served), those that
  // watch retries first: under a pace their requests then go first (ConformanceCase.watchesRetries).
  const started = new Map<ConformanceCase<T>, Promise<CaseResult>>();
  for (const c of [...selected.filter((c) => c.watchesRetries), ...selected.filter((c) => !c.watchesRetries)]) started.set(c, runHeld(c));
  const running = selected.map((c) => started.get(c)!);
  const results: CaseResult[] = [];
  try {
    for (const result of running) {
      results.push(await result);
      await options.onResult?.(results.at(-1)!);
    }
  } finally {
    await Promise.allSettled(running);
  }
  return results;
}

async function runOne<T extends ResolvedTarget>(
  testCase: ConformanceCase<T>,
  base: Omit<CaseContext<T>, 'signal' | 'wire'>,
  caseTimeoutMs: number,
  watch: TargetWatch,
  wireFor: (signal: AbortSignal) => CaseWire,
): Promise<CaseOutcome> {
  const unmet = firstUnmet(base.target, testCase.needs);
  if (unmet) return { verdict: 'SKIP', reason: unmet };
  if (watch.reason) return { verdict: 'ERROR', reason: `not run: ${watch.reason}` };

  const controller = new AbortController();
  const wire = wireFor(controller.signal);
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => {
    // Time spent waiting at the wire (for another case's measurement to leave it, for the target's
    // turn under --rate, for a 429's Retry-After) is not the case's own: the limit is moved on by
    // it, so neither a slow target's measurements nor the pace turn waiting cases into ERROR.
    const check = () => {
      const left = caseTimeoutMs - (performance.now() - started - wire.waitedMs());
      if (left > 0) {
        timer = setTimeout(check, Math.max(left, MIN_LIMIT_RECHECK_MS));
        return;
      }
      const waited = Math.round(wire.waitedMs());
      reject(new CaseTimeout(`the case did not finish within ${caseTimeoutMs} ms${waited > 0 ? ` (not counting ${waited} ms it waited at the wire: for another case's measurement, or for its turn to send)` : ''}`));
      controller.abort(new CaseTimeout('case time limit reached'));
    };
    timer = setTimeout(check, caseTimeoutMs);
  });
  // The run gave up on the target (TargetWatch): the case stops now, naming that cause.
  let onGiveUp = () => {};
  const givenUp = new Promise<never>((_, reject) => {
    onGiveUp = () => {
      reject(new CaseTimeout(`stopped: ${watch.reason}`));
      controller.abort(new CaseTimeout('the run gave up on the target'));
    };
  });
  const unsubscribe = watch.whenStopped(() => onGiveUp());
  try {
    const outcome = await Promise.race([testCase.run({ ...base, signal: controller.signal, wire }), limit, givenUp]);
    return outcome;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const { evidence, stated } = error as { evidence?: CaseOutcome['evidence']; stated?: Stated };
    return { verdict: 'ERROR', reason: message, ...(evidence ? { evidence } : {}), ...(stated?.causes ? { causes: stated.causes } : {}), ...(stated?.failure ? { failure: stated.failure } : {}) };
  } finally {
    clearTimeout(timer);
    unsubscribe();
    controller.abort();
  }
}
