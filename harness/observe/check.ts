// The check before any case (and `collect-conformance observe-check`): a record seeded, read
// back, and an id never seeded read, so that a mapping that cannot work is named once, with the
// statement and the store's own message, instead of failing every case. A database is checked
// inside a transaction that is rolled back: the check leaves nothing behind.
import { DatabaseError } from '../database/index.ts';
import { OPEN_WIRE } from '../wire/index.ts';
import { ObserveError, type CaseUse, type Observation, type ObservedStep, type ObserveSpec, type RecordObserver, type RecordReading } from './model.ts';
import { openObservation, type OpenObservationOptions } from './open.ts';
import { SqlObservation } from './sql.ts';
import { describeRecord } from './states.ts';

export type ObservationCheck =
  | { ok: true; lines: string[]; reading: RecordReading | null }
  /** `field`: the JSON pointer of the target file's key the problem is about. */
  | { ok: false; lines: string[]; field: string; problem: string };

export interface CheckIds {
  /** Seeded and read back. */
  seeded: string;
  /** Read without seeding: the receiver must not hold it. */
  unseeded: string;
}

/** The amount the check seeds with (the cases' own). */
export const CHECK_AMOUNT = '10.00';

export async function checkObservation(observation: Observation, use: CaseUse, ids: CheckIds): Promise<ObservationCheck> {
  const lines: string[] = [`observing through ${observation.describe}`];
  if (observation instanceof SqlObservation) {
    lines.push('(in a transaction rolled back at the end: the check leaves nothing behind)');
    try {
      return await observation.database.transaction((session) => steps({
        way: 'sql', can: observation.can,
        seed: (id, amount) => observation.seedOn(session, id, amount),
        read: (id, steps) => observation.readOn(session, id, steps),
        close: async () => {},
      }, ids, lines), 'rollback');
    } catch (error) {
      // BEGIN itself failed: no connection, a refused password, a missing driver.
      if (!(error instanceof DatabaseError)) throw error;
      return { ok: false, lines, field: '/observe/database', problem: observation.failureText('read', error) };
    }
  }
  return steps(observation.forCase(use), ids, lines);
}

async function steps(observer: RecordObserver, ids: CheckIds, lines: string[]): Promise<ObservationCheck> {
  const fail = (field: string, problem: string): ObservationCheck => ({ ok: false, lines, field, problem });
  const readField = observer.way === 'sql' ? '/observe/read' : '/observe';
  const seedField = observer.way === 'sql' ? '/observe/seed' : '/observe';

  let absent: RecordReading | null;
  const absentSteps: ObservedStep[] = [];
  try {
    absent = await observer.read(ids.unseeded, absentSteps);
  } catch (error) {
    return fail(fieldOf(error, readField), messageOf(error));
  }
  lines.push(`read ${JSON.stringify(ids.unseeded)} (never seeded): ${describeRecord(absent)}${stepsText(absentSteps)}`);
  if (absent) {
    return fail(readField, `an id never seeded reads ${describeRecord(absent)}: the read must find only the record of the transaction id it is given (no row for an id the receiver does not hold)`);
  }
  if (!observer.can.seed) {
    lines.push('no seed statement: the cases that need a seeded record will be SKIP');
    return { ok: true, lines, reading: null };
  }
  let seeded: ObservedStep[];
  try {
    seeded = await observer.seed(ids.seeded, CHECK_AMOUNT);
  } catch (error) {
    return fail(fieldOf(error, seedField), messageOf(error));
  }
  lines.push(`seed ${JSON.stringify(ids.seeded)} (amount ${CHECK_AMOUNT}): done${stepsText(seeded)}`);
  let reading: RecordReading | null;
  try {
    reading = await observer.read(ids.seeded);
  } catch (error) {
    return fail(fieldOf(error, readField), messageOf(error));
  }
  lines.push(`read ${JSON.stringify(ids.seeded)}: ${describeRecord(reading)}${stepsText(reading?.read)}`);
  if (!reading) return fail(readField, `the record just seeded for ${JSON.stringify(ids.seeded)} is not found by the read: the read must select the record the seed made`);
  if (reading.state !== 'pending') {
    return fail(observer.way === 'hooks' ? '/hooksUrl' : '/observe/states', `a freshly seeded record reads ${describeRecord(reading)}: the value the seed writes must map to pending${reading.value === null ? '' : ` (e.g. "states": {"pending": [${JSON.stringify(reading.value)}], …})`}`);
  }
  if (reading.actions !== undefined && reading.actions !== 0) {
    return fail(observer.way === 'sql' ? '/observe/actions' : '/observe', `a freshly seeded record counts ${reading.actions} action(s): nothing was applied to it yet, so the count must be 0`);
  }
  lines.push(`ok: a seeded record reads ${describeRecord(reading)}${reading.actions === undefined ? ' (no actions statement: the cases whose verdict rests on the count will be SKIP)' : ''}`);
  return { ok: true, lines, reading };
}

/** The statements run, their parameters and rows, indented under a check line. */
function stepsText(steps: readonly ObservedStep[] | undefined): string {
  return (steps ?? []).map((s) => `\n    ${stepText(s)}`).join('');
}

export function stepText(step: ObservedStep): string {
  if ('statement' in step) {
    const result = step.rows !== undefined ? `${step.rows.length} row(s)${step.rows.length ? ` ${JSON.stringify(step.rows)}` : ''}` : `${step.rowCount ?? 0} row(s) changed`;
    return `${step.statement}: ${step.sql}  parameters ${JSON.stringify(step.parameters)} → ${result} (${step.ms} ms)`;
  }
  return `sent ${JSON.stringify(step.request)} → answered ${JSON.stringify(step.answer)} (${step.ms} ms)`;
}

function messageOf(error: unknown): string {
  if (error instanceof ObserveError) return error.message;
  throw error;
}

/** The key a failed statement's message is about: the statement it names. */
function fieldOf(error: unknown, fallback: string): string {
  const failed = (error instanceof ObserveError ? error.evidence?.records?.failed : undefined) as { statement?: string } | undefined;
  return failed?.statement ? `/observe/${failed.statement}` : fallback;
}

/** The check before any case failed: exit 2 naming the target file's key, the statement and the store's own message. */
export class ObserveCheckError extends Error {
  override readonly name = 'ObserveCheckError';
  readonly code = 'ERR_OBSERVE_CHECK';
  constructor(readonly pointer: string, readonly problem: string, readonly lines: readonly string[]) {
    super(`${pointer}: ${problem}`);
  }
}

/** A case use outside any case: no gate, no abort, and no HTTP (only the hooks need it, and they are not checked before a run). */
const CHECK_USE: CaseUse = {
  http: { send: () => Promise.reject(new Error('the check before a run does not use HTTP')), pace: 'unpaced' },
  wire: OPEN_WIRE,
  signal: new AbortController().signal,
};

/**
 * The run's observation, opened and, for a database or a command, checked before any case (the
 * hooks keep their behaviour: the preflight names what they get wrong). Throws ObserveCheckError
 * (also for a missing driver), having closed what it opened.
 */
export async function openCheckedObservation(spec: ObserveSpec, options: OpenObservationOptions, ids: () => CheckIds): Promise<Observation> {
  let observation: Observation;
  try {
    observation = await openObservation(spec, options);
  } catch (error) {
    if (error instanceof DatabaseError) throw new ObserveCheckError('/observe/database', error.message, []);
    throw error;
  }
  if (spec.kind === 'hooks') return observation;
  try {
    const checked = await checkObservation(observation, CHECK_USE, ids());
    if (!checked.ok) throw new ObserveCheckError(checked.field, checked.problem, checked.lines);
    return observation;
  } catch (error) {
    await observation.close();
    throw error;
  }
}
