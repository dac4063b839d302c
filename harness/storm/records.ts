// The storm's records, through the target's own observation (harness/observe: test hooks, its
// database, a command): every id seeded pending before the storm, every id read back after it.
// Many at once (a bounded number of statements or requests in flight); readings kept compact.
import type { RecordObserver, RecordReading } from '../observe/index.ts';
import type { StormPlan } from './plan.ts';

/** State codes of a reading: absent (the receiver does not hold the id), or the suite's states. */
export const STATE_CODES = ['absent', 'pending', 'SUCCESS', 'FAILED', 'unmapped'] as const;
export type StateCode = (typeof STATE_CODES)[number];

export class Readings {
  readonly state: Uint8Array;
  /** -1: the observation does not count actions. */
  readonly actions: Int32Array;
  /** The receiver's own value where it maps to no state (few). */
  readonly unmapped = new Map<number, string | null>();
  constructor(n: number) {
    this.state = new Uint8Array(n);
    this.actions = new Int32Array(n).fill(-1);
  }
  set(i: number, reading: RecordReading | null): void {
    if (!reading) {
      this.state[i] = 0;
      return;
    }
    this.state[i] = STATE_CODES.indexOf(reading.state);
    if (reading.state === 'unmapped') this.unmapped.set(i, reading.value);
    this.actions[i] = reading.actions ?? -1;
  }
  stateOf(i: number): StateCode {
    return STATE_CODES[this.state[i]!]!;
  }
  /** As the evidence shows it: `SUCCESS, actions 1`. */
  describe(i: number): string {
    const state = this.stateOf(i);
    const shown = state === 'absent' ? 'no record' : state === 'unmapped' ? `unmapped value ${JSON.stringify(this.unmapped.get(i))}` : state;
    return this.actions[i]! >= 0 ? `${shown}, actions ${this.actions[i]}` : shown;
  }
}

/** Runs `work(i)` for i in `indices`, `concurrency` at a time; stops at the first failure. */
async function eachAtOnce(indices: Iterable<number>, concurrency: number, work: (i: number) => Promise<void>, signal?: AbortSignal): Promise<void> {
  const it = indices[Symbol.iterator]();
  let failed: unknown;
  const worker = async () => {
    for (let next = it.next(); !next.done && failed === undefined && !signal?.aborted; next = it.next()) {
      try {
        await work(next.value);
      } catch (error) {
        failed ??= error;
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  if (failed !== undefined) throw failed;
}

function* range(n: number): Generator<number> {
  for (let i = 0; i < n; i++) yield i;
}

export const SEED_AMOUNT = '10.00';

/** Ids per seedMany call (a database: one transaction each). */
export const SEED_MANY_BATCH = 250;

/** Every id of the plan seeded pending: many per call where the observer offers it (`seedMany`), else one at a time; `concurrency` calls at once. */
export async function seedAll(plan: StormPlan, observer: RecordObserver, options: { concurrency: number; signal?: AbortSignal; onSeeded?: (n: number) => void }): Promise<void> {
  let seeded = 0;
  const counted = (n: number) => {
    const before = seeded;
    seeded += n;
    if (Math.floor(seeded / 500) > Math.floor(before / 500)) options.onSeeded?.(seeded);
  };
  if (observer.seedMany) {
    const batches = Math.ceil(plan.callbacks / SEED_MANY_BATCH);
    await eachAtOnce(range(batches), options.concurrency, async (b) => {
      const ids = Array.from({ length: Math.min(SEED_MANY_BATCH, plan.callbacks - b * SEED_MANY_BATCH) }, (_, k) => plan.idOf(b * SEED_MANY_BATCH + k));
      await observer.seedMany!(ids, SEED_AMOUNT);
      counted(ids.length);
    }, options.signal);
    return;
  }
  await eachAtOnce(range(plan.callbacks), options.concurrency, async (i) => {
    await observer.seed(plan.idOf(i), SEED_AMOUNT);
    counted(1);
  }, options.signal);
}

/** Ids per readMany statement or request (the hooks take at most 1000). */
export const READ_MANY_BATCH = 500;

/**
 * Reads `indices` into `readings`: many per statement or request where the observer offers it
 * (`readMany`), else one id at a time, `concurrency` at once. Resolves with how it read.
 */
export async function readAll(plan: StormPlan, observer: RecordObserver, readings: Readings, indices: Iterable<number>, concurrency: number): Promise<'many' | 'one by one'> {
  const list = [...indices];
  if (observer.readMany && list.length > 0) {
    const batches: number[][] = [];
    for (let at = 0; at < list.length; at += READ_MANY_BATCH) batches.push(list.slice(at, at + READ_MANY_BATCH));
    const first = await observer.readMany(batches[0]!.map((i) => plan.idOf(i)));
    if (first) {
      first.forEach((reading, k) => readings.set(batches[0]![k]!, reading));
      await eachAtOnce(range(batches.length), Math.max(1, Math.floor(concurrency / 4)), async (b) => {
        if (b === 0) return;
        const batch = batches[b]!;
        const got = await observer.readMany!(batch.map((i) => plan.idOf(i)));
        if (!got) throw new Error('the observer stopped offering readMany in the middle of a storm\'s reading');
        got.forEach((reading, k) => readings.set(batch[k]!, reading));
      });
      return 'many';
    }
  }
  await eachAtOnce(list, concurrency, async (i) => {
    readings.set(i, await observer.read(plan.idOf(i)));
  });
  return 'one by one';
}

export { range };
