// Public face of the preflight: before a side's cases, one valid exchange per side (a valid
// callback to a seeded record; a valid collect and its callback). It is the positive control
// the negative cases rest on, and names the cause when it does not hold (harness/diagnoses
// then points the cases it explains to it).
import {
  RunResources, 
  type ConformanceCase, 
} from '../cases/index.ts';
import { openCheckedObservation } from '../observe/index.ts';
import { Redactor } from '../secrets/index.ts';
import { secretsOf } from '../targets/index.ts';
import type { CaseResult } from '../results/index.ts';
import type { ResolvedTarget } from '../targets/index.ts';
import { guardNegatives } from './guard.ts';
import type { Finding, Preflight } from './model.ts';
import { receiverPreflightCase } from './receiver.ts';
import { servicePreflightCase } from './service.ts';
import { clientPreflightCase } from './client.ts';

export type { Control, ControlState, Finding, Preflight, Symptom } from './model.ts';
export { guardNegatives } from './guard.ts';
import { CaseSlots, defaultTimeouts, runCases, selectCases, watchFor, type RunCasesOptions, type Stopped, type TargetWatch } from '../runner/index.ts';
import { shapedIds, transactionIds, type TransactionIdGenerator } from '../ids/index.ts';

/** What runPreflight hands back: what the preflight observed, and its result line (PASS when the controls held and nothing was found). */
export interface PreflightResult {
  preflight: Preflight;
  result: CaseResult;
}

/** The preflight as a side's run hands it back: the Preflight itself, with its result line. */
export interface PreflightRun extends Preflight {
  result: CaseResult;
}

export interface PreflightOptions {
  /**
   * Whether the preflight also makes a status query (§4.2; service and client sides): when a
   * selected case uses the status endpoint (default true). A run of other cases leaves an
   * endpoint that differs from the suite's position out of its verdicts.
   */
  statusQuery?: boolean;
}

/** Runs the side's preflight through the runner (time limit, thrown errors as ERROR, redaction). */
export async function runPreflight<T extends ResolvedTarget>(
  options: Omit<RunCasesOptions<T>, 'cases' | 'only' | 'waivers' | 'onResult'> & PreflightOptions,
): Promise<PreflightResult> {
  const { statusQuery = true, ...runOptions } = options;
  const out: { preflight?: Preflight } = {};
  const side = options.target.side;
  const preflightCase = (side === 'receiver' ? receiverPreflightCase(out)
    : side === 'client' ? clientPreflightCase(out, { statusQuery })
    : servicePreflightCase(out, { statusQuery })) as unknown as ConformanceCase<T>;
  const [result] = await runCases({ ...runOptions, cases: [preflightCase] });
  const observed = result?.reason ?? 'the preflight did not run';
  // A preflight that could not finish (ERROR: the hooks failed, the time limit) leaves no control
  // standing: that is the cause of every negative case it would have proven, unless the run
  // stopped it because the target stopped answering (that cause is named, harness/diagnoses).
  const stopped = options.watch?.stopped?.cases.includes(preflightCase.id) ?? false;
  const preflight = out.preflight ?? {
    side,
    controls: {
      refusal: { state: 'failed', what: 'the preflight', observed },
      'no-delivery': { state: 'failed', what: 'the preflight', observed },
      confirmation: { state: 'failed', what: 'the preflight', observed },
      'status-refusal': { state: 'failed', what: 'the preflight', observed },
    },
    findings: stopped ? [] : [incomplete(side, observed, result?.stated?.causes?.includes('rate-limited') ?? false)],
  };
  return { preflight, result: result! };
}

/**
 * Why a preflight could not finish, as the run's first cause. A target's throttle that refused it
 * (429 again after its Retry-After) is that cause, named once for the preflight and every case it
 * refused the same way; any other error names the cases that met it again.
 */
function incomplete(side: string, observed: string, rateLimited: boolean): Finding {
  if (rateLimited) {
    return {
      id: `${side}.rate-limited`,
      summary: `the ${side} limits the request rate: the preflight could not finish (${observed}), so the negative cases, which rest on it, prove nothing; `
        + 'the cases refused the same way are named here (run --rate sets the pace, docs/command-line.md)',
      symptom: { kind: 'stated', cause: 'rate-limited' },
    };
  }
  return {
    id: `${side}.preflight-incomplete`,
    summary: `the preflight could not finish (${observed}): the negative cases, which rest on it, prove nothing`,
    symptom: { kind: 'same-error', reason: observed },
  };
}

export interface CheckedRun {
  /** What the preflight observed (its controls and findings), with its result line. */
  preflight: PreflightRun;
  results: CaseResult[];
  /** Negative cases whose PASS was taken back for want of a control (ERROR or SKIP now). */
  unproven: string[];
  /** The run gave up on the target: it stopped answering (TargetWatch). */
  stopped?: Stopped;
}

export type CheckedRunOptions<T extends ResolvedTarget> = RunCasesOptions<T> & {
  /** The preflight ended: told before the first case's `onResult`. */
  onPreflight?: (run: PreflightRun) => void | Promise<void>;
};

/**
 * The phase before the cases and the cases: the preflight, and the selected cases with every
 * negative case guarded by its control. They go at once (the preflight takes the first slot;
 * a client's cases start once its plain call is done);
 * a negative case waits for the preflight only to judge its PASS, and `onPreflight` is told
 * before the first case's `onResult` (the terminal names the preflight first).
 */
export async function runChecked<T extends ResolvedTarget>(options: CheckedRunOptions<T>): Promise<CheckedRun> {
  const resources = options.resources ?? new RunResources();
  try {
    return await checkedRunOn(options, resources);
  } finally {
    if (!options.resources) await resources.close();
  }
}

async function checkedRunOn<T extends ResolvedTarget>(
  options: CheckedRunOptions<T>, resources: RunResources,
): Promise<CheckedRun> {
  const slots = options.slots ?? new CaseSlots(options.concurrency);
  // One generator for the preflight and the cases: two made in the same millisecond would repeat ids.
  const ids = options.ids ?? transactionIds(options.seed);
  const watch = options.watch ?? watchFor(options.target, options.perRequestTimeoutMs);
  // The receiver's records, seen one way for the whole run (a pool, a process), checked before
  // any case: a mapping that cannot work throws ObserveCheckError here, not a page of ERRORs.
  const target = options.target;
  if (target.side === 'receiver' && target.observe) {
    const spec = target.observe;
    await resources.observation(target, () => openCheckedObservation(spec, {
      timeoutMs: options.perRequestTimeoutMs ?? defaultTimeouts(target).perRequestTimeoutMs,
      redactor: options.redactor ?? new Redactor(secretsOf(target)),
      ...(options.minObserverAnswerMs !== undefined ? { minCommandAnswerMs: options.minObserverAnswerMs } : {}),
    }, () => {
      const shaped = shapedIds(ids, target.transactionIds);
      return { seeded: shaped.newTransactionId(), unseeded: shaped.newTransactionId() };
    }));
  }
  return checkedRun({ ...options, slots, ids, watch, resources });
}

async function checkedRun<T extends ResolvedTarget>(
  options: CheckedRunOptions<T> & { slots: CaseSlots; watch: TargetWatch; ids: TransactionIdGenerator },
): Promise<CheckedRun> {
  const { onPreflight, cases, only, waivers, onResult, ...rest } = options;
  const { slots, ids, watch } = rest;
  // A status query only when a selected case rests on one (harness/cases: service.status, client.status).
  const statusQuery = selectCases(cases, only).some((c) => c.negative === 'status-refusal' || c.id.startsWith(`${c.side}.status.`));
  // A receiver's preflight measures how late it applies a valid callback; the cases that read a
  // record for late actions wait for that measure (harness/cases/receiver/apply-times.ts).
  const measured = rest.target.side === 'receiver' ? rest.resources?.applyTimes.beginMeasure(rest.target) : undefined;
  const preflightRun = runPreflight({ ...rest, slots, ids, watch, statusQuery }).then(({ preflight, result }): PreflightRun => ({ ...preflight, result }));
  if (measured) void preflightRun.finally(measured).catch(() => undefined);
  const told = preflightRun.then((run) => onPreflight?.(run));
  const unproven: string[] = [];
  // An SDK's adapter takes one call at a time, so its cases gain nothing by starting beside the
  // plain call; they wait for it, which decides whether any other call is sent (harness/sdk).
  const casesMayStart = rest.target.side === 'client' ? preflightRun.then(() => undefined, () => undefined) : undefined;
  const [preflight, results] = await Promise.all([
    preflightRun,
    (casesMayStart ?? Promise.resolve()).then(() => runCases({
      ...rest, slots, ids, watch, cases: guardNegatives(cases, preflightRun, unproven),
      ...(only !== undefined ? { only } : {}), ...(waivers ? { waivers } : {}),
      onResult: async (result) => {
        await told;
        await onResult?.(result);
      },
    })),
    told,
  ]);
  // In case order, whatever order the cases ended in.
  const order = (ids: readonly string[]) => [preflight.result, ...results].map((r) => r.id).filter((id) => ids.includes(id));
  return {
    preflight, results, unproven: order(unproven),
    ...(watch.stopped ? { stopped: { cause: watch.stopped.cause, cases: order(watch.stopped.cases) } } : {}),
  };
}
