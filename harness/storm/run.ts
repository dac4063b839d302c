// A storm from start to end, as a library (the `storm` command is flags in, exit status out over
// it): the records seeded through the target's observation, the deliveries driven open-loop, the
// receiver left to settle, every record read back, the five cases judged.
import { defaultTimeouts } from '../runner/index.ts';
import { openObservation, type Observation, type RecordObserver } from '../observe/index.ts';
import type { CaseResult } from '../results/index.ts';
import type { Redactor } from '../secrets/index.ts';
import type { ResolvedReceiverTarget } from '../targets/index.ts';
import { OPEN_WIRE } from '../wire/index.ts';
import { drive, type DriveProgress, type DriveResult, type DriverOptions } from './driver.ts';
import { judgeStorm } from './judge.ts';
import { StormPlan, type StormPlanOptions } from './plan.ts';
import { readAll, Readings, range, seedAll } from './records.ts';
import { HttpClient } from '../http/index.ts';

export interface StormSettings extends Omit<StormPlanOptions, 'shape'> {
  /** Driver settings beyond the plan (defaults in driver.ts). */
  driver?: Pick<DriverOptions, 'timeoutMs' | 'maxAttempts' | 'backoffMs' | 'maxBackoffMs' | 'timeScale' | 'connections'>;
  /** The quiet wait after the last reply before the records are read, and again before the ones not final are read once more (default max(2000, 2 × deadline)). */
  settleMs?: number;
  /** Seeds and reads in flight at once (default 16; a command observer takes one at a time anyway). */
  concurrency?: number;
}

export type StormPhase = 'seeding' | 'storming' | 'settling' | 'reading' | 'judging';

export interface StormRunOptions {
  target: ResolvedReceiverTarget;
  settings: StormSettings;
  signal?: AbortSignal;
  redactor?: Redactor;
  cwd?: string;
  onPhase?: (phase: StormPhase, detail: string) => void;
  onProgress?: (progress: DriveProgress) => void;
}

export interface StormRun {
  results: CaseResult[];
  plan: StormPlan;
  drive?: DriveResult;
  /** ms each phase took. */
  phases: Partial<Record<StormPhase, number>>;
  interrupted: boolean;
}

export class StormSetupError extends Error {
  override readonly name = 'StormSetupError';
  constructor(readonly code: 'ERR_STORM_TARGET' | 'ERR_STORM_SETTINGS', message: string) {
    super(message);
  }
}

/** The problems of a storm's settings, each naming its flag. */
export function settingsProblems(s: StormSettings): string[] {
  const problems: string[] = [];
  if (!Number.isSafeInteger(s.callbacks) || s.callbacks < 1) problems.push(`--callbacks must be a whole number >= 1 (got ${s.callbacks})`);
  if (!Number.isFinite(s.ratePerS) || s.ratePerS <= 0) problems.push(`--rate must be a number of deliveries per second > 0 (got ${s.ratePerS})`);
  if (!Number.isSafeInteger(s.duplicates) || s.duplicates < 1 || s.duplicates > 63) problems.push(`--duplicates must be a whole number from 1 to 63 (got ${s.duplicates})`);
  if (!Number.isFinite(s.badTokensPct) || s.badTokensPct < 0 || s.badTokensPct > 100) problems.push(`--bad-tokens must be a share from 0 to 100 % (got ${s.badTokensPct})`);
  if (!Number.isSafeInteger(s.seed)) problems.push(`--seed must be a whole number (got ${s.seed})`);
  return problems;
}

/** The storm's plan for this target: its id shape, no bad tokens without a token to get wrong. */
export function stormPlanFor(target: ResolvedReceiverTarget, settings: StormSettings): StormPlan {
  const badTokensPct = target.callbackToken === undefined ? 0 : settings.badTokensPct;
  // The ids carry a tag of this run (default: its start time), so a second storm against the same records seeds new ones.
  return new StormPlan({ ...settings, tag: settings.tag ?? Date.now().toString(36), badTokensPct, ...(target.transactionIds ? { shape: target.transactionIds } : {}) });
}

/** The target's observation, which a storm needs to seed and read its records (else ERR_STORM_TARGET). */
export function stormObserveOf(target: ResolvedReceiverTarget): NonNullable<ResolvedReceiverTarget['observe']> {
  if (!target.observe) throw new StormSetupError('ERR_STORM_TARGET', 'the target names neither hooksUrl nor observe: the storm\'s verdicts rest on the receiver\'s records, so it needs a way to seed and read them (docs/observe.md)');
  return target.observe;
}

export async function runStorm(options: StormRunOptions): Promise<StormRun> {
  const { target, settings } = options;
  const problems = settingsProblems(settings);
  if (problems.length > 0) throw new StormSetupError('ERR_STORM_SETTINGS', problems.join('; '));
  const observe = stormObserveOf(target);
  const plan = stormPlanFor(target, settings);
  const deadline = target.timing.replyDeadlineMs;
  const timeoutMs = defaultTimeouts(target).perRequestTimeoutMs;
  const concurrency = settings.concurrency ?? 16;
  const settleMs = settings.settleMs ?? Math.max(2000, 2 * deadline);
  const phases: Partial<Record<StormPhase, number>> = {};
  const timed = async <T>(phase: StormPhase, detail: string, work: () => Promise<T>): Promise<T> => {
    options.onPhase?.(phase, detail);
    const started = performance.now();
    try {
      return await work();
    } finally {
      phases[phase] = Math.round(performance.now() - started);
    }
  };

  const observation: Observation = await openObservation(observe, { timeoutMs, ...(options.redactor ? { redactor: options.redactor } : {}), ...(options.cwd ? { cwd: options.cwd } : {}) });
  const http = new HttpClient({ requestTimeoutMs: timeoutMs, ...(target.caCert ? { caCert: target.caCert } : {}) });
  try {
    if (!observation.can.seed) throw new StormSetupError('ERR_STORM_TARGET', `the target's observation (${observation.describe}) cannot seed records (no observe.seed statement): the storm needs a pending record for each id`);
    // Seeding stops with the storm (seedAll checks the signal between records); reading never does:
    // an interrupted storm is still judged on its records.
    const observer: RecordObserver = observation.forCase({ http, wire: OPEN_WIRE, signal: new AbortController().signal });
    await timed('seeding', `${plan.callbacks} records through ${observation.describe}`, () => seedAll(plan, observer, { concurrency, ...(options.signal ? { signal: options.signal } : {}) }));
    if (options.signal?.aborted) return { results: [], plan, phases, interrupted: true };

    const driven = await timed('storming', `${plan.deliveries} deliveries at ${plan.ratePerS}/s`, () => drive({
      plan, callbackUrl: target.callbackUrl, replyDeadlineMs: deadline, ...settings.driver,
      ...(target.callbackToken !== undefined ? { token: target.callbackToken } : {}),
      ...(target.caCert ? { caCert: target.caCert } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.onProgress ? { onProgress: options.onProgress } : {}),
    }));
    const interrupted = driven.stopped;
    // An interrupted storm is judged on the ids it sent at least once.
    const sent = new Uint8Array(plan.callbacks);
    for (let r = 0; r < driven.log.length; r++) sent[driven.log.indexAt(r)] = 1;

    await timed('settling', `${settleMs} ms of quiet`, () => sleep(interrupted ? Math.min(settleMs, 500) : settleMs));
    const { readings, way: readWay } = await timed('reading', `${plan.callbacks} records`, () => readStormRecords(plan, observer, {
      sent: (i) => sent[i] === 1, concurrency, ...(interrupted ? {} : { settleMs }),
    }));
    const results = await timed('judging', '', async () => judgeStorm({
      plan, log: driven.log, readings, replyDeadlineMs: deadline, maxAttempts: driven.settings.maxAttempts,
      countsActions: observation.can.actions, planned: (i) => sent[i] === 1, loopDelay: driven.loopDelay, stalls: driven.stalls, durationMs: Math.round(driven.durationMs),
      readWay,
      ...(interrupted ? { note: `the storm was interrupted: judged on the ${sent.reduce((a, b) => a + b, 0)} ids sent at least once, of ${plan.callbacks} planned` } : {}),
    }));
    return { results, plan, drive: driven, phases, interrupted };
  } finally {
    await http.close();
    await observation.close();
  }
}

/**
 * Every record of the plan read back; then, after another quiet wait of `settleMs` (none when
 * absent), the valid ids sent and still pending read once more (a receiver still applying: a
 * queue's worker).
 */
export async function readStormRecords(plan: StormPlan, observer: RecordObserver, options: { sent: (i: number) => boolean; concurrency: number; settleMs?: number }): Promise<{ readings: Readings; way: 'many' | 'one by one' }> {
  const readings = new Readings(plan.callbacks);
  const way = await readAll(plan, observer, readings, range(plan.callbacks), options.concurrency);
  const unsettled = [...range(plan.callbacks)].filter((i) => options.sent(i) && !plan.isBadToken(i) && readings.stateOf(i) === 'pending');
  if (unsettled.length > 0 && options.settleMs !== undefined) {
    await sleep(options.settleMs);
    await readAll(plan, observer, readings, unsettled, options.concurrency);
  }
  return { readings, way };
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
