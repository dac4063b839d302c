// The check before any case (and `collect-conformance observe-check`): a record seeded, read
// back, and an id never seeded read, so that a mapping that cannot work is named once, with the
// statement and the store's own message, instead of failing every case. A database is checked
// inside a transaction that is rolled back: the check leaves nothing behind.
import { composeCallbackUrl } from '../callback/index.ts';
import { DatabaseError } from '../database/index.ts';
import type { Redactor } from '../secrets/index.ts';
import { OPEN_WIRE } from '../wire/index.ts';
import { ObserveError, type CaseUse, type Observation, type ObservedStep, type ObserveSpec, type ObserveWay, type RecordObserver, type RecordReading } from './model.ts';
import { openObservation, type OpenObservationOptions } from './open.ts';
import { SqlObservation } from './sql.ts';
import { describeRecord } from './states.ts';
import { isSuccess } from '../http/index.ts';

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
  const failed = error instanceof ObserveError ? error.evidence?.records?.failed : undefined;
  return failed && 'statement' in failed ? `/observe/${failed.statement}` : fallback;
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

/** What the callback step needs of the receiver target. */
export interface CallbackTarget {
  callbackUrl: string;
  callbackToken?: string;
  /** The environment variable the token comes from, named in messages (never the token). */
  tokenEnv: string;
  replyDeadlineMs: number;
}

/** Where the callback step's problems point: the key of the target file to look at. */
function recordsField(way: ObserveWay): string {
  return way === 'hooks' ? '/hooksUrl' : '/observe';
}

/**
 * `observe-check`'s last step: the receiver sees the records this observe seeds (test hooks or
 * a command; a database's check is rolled back, so it sends none). One record seeded (it stays,
 * as every case's record does), one valid callback for it with the configured token, as the
 * service sends it, and the record read until it changes (up to the reply deadline). A refused
 * token, a record the receiver does not know (another database, a relative path read from
 * another folder) and a receiver that is not listening are each named once, with the key to
 * look at.
 */
export async function checkCallbackSeen(observation: Observation, use: CaseUse, target: CallbackTarget, id: string, redactor: Redactor): Promise<ObservationCheck> {
  const lines: string[] = [];
  const fail = (field: string, problem: string): ObservationCheck => ({ ok: false, lines, field, problem });
  const observer = observation.forCase(use);
  // A database check leaves nothing behind; a callback's record and what the receiver wrote could not be rolled back.
  const token = target.callbackToken;
  const why = observation instanceof SqlObservation ? 'the database check is rolled back, and what a callback makes the receiver write could not be'
    : token === undefined ? 'the target names no callbackToken'
    : !observer.can.seed ? 'the observe cannot seed a record' : undefined;
  if (why !== undefined || token === undefined) {
    lines.push(`no callback sent: ${why}; the run's preflight tells a receiver that does not know the seeded records`);
    return { ok: true, lines, reading: null };
  }
  let seeded: ObservedStep[];
  try {
    seeded = await observer.seed(id, CHECK_AMOUNT);
  } catch (error) {
    return fail(fieldOf(error, recordsField(observer.way)), messageOf(error));
  }
  lines.push(`seed ${JSON.stringify(id)} (amount ${CHECK_AMOUNT}) for one callback: done (this record stays, as a case's does)${stepsText(seeded)}`);
  const url = composeCallbackUrl(target.callbackUrl, { transaction_id: id, status: 'SUCCESS', message: 'Payment received' });
  const sent = await use.http.send({ label: 'observe-check: one valid callback', url, headers: [{ name: 'X-Callback-Token', value: token }] }, false);
  if (!sent.ok) {
    const where = new URL(target.callbackUrl).host;
    const hint = sent.failure.code === 'refused' ? ` (is the receiver listening on ${where}?)` : '';
    return fail('/callbackUrl', `the callback to ${target.callbackUrl} got no answer: ${sent.failure.message}${hint}`);
  }
  const body = sent.answer.body.replace(/\s+/g, ' ').trim();
  const answer = `${sent.answer.status}${body === '' ? '' : ` ${redactor.clip(body, 120)}`}`;
  lines.push(`callback GET ${url.replace(/\?.*$/, '?transaction_id=…&status=SUCCESS&message=…')} with X-Callback-Token from ${target.tokenEnv}: answered ${answer}`);
  if (sent.answer.status === 401 || sent.answer.status === 403) {
    return fail('/callbackToken', `the receiver refused the configured token (answered ${answer}): check that ${target.tokenEnv} holds the receiver's token`);
  }
  let reading: RecordReading | null = null;
  const started = Date.now();
  try {
    do {
      reading = await observer.read(id);
      if (reading?.state !== 'pending') break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    } while (Date.now() - started < target.replyDeadlineMs);
  } catch (error) {
    return fail(fieldOf(error, recordsField(observer.way)), messageOf(error));
  }
  lines.push(`read ${JSON.stringify(id)}: ${describeRecord(reading)}${stepsText(reading?.read)}`);
  if (reading?.state === 'SUCCESS' && isSuccess(sent.answer.status)) {
    lines.push(`ok: the receiver applied a valid callback for a record this observe seeded (${describeRecord(reading)}): it sees the records the cases seed`);
    return { ok: true, lines, reading };
  }
  if (reading?.state === 'pending' && sent.answer.status >= 400) {
    return fail(recordsField(observer.way), `the receiver answered ${answer} to a valid callback for the record this check seeded, and the record still reads ${describeRecord(reading)}: `
      + 'likely the receiver does not see the records this observe seeds (another database or file; an observe command runs in the target file\'s folder, so a relative path in it starts from there), or callbackUrl is not its callback route');
  }
  return fail(recordsField(observer.way), `a valid callback for the record this check seeded was answered ${answer}, and the record reads ${describeRecord(reading)} ${Date.now() - started} ms later; a valid callback is answered 2xx and applied (state SUCCESS)`);
}
