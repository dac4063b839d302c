// Observing through a command in any language (an ORM, Redis, SQLite…), over the line protocol
// the signer and SDK adapters speak: one JSON object per line each way, one exchange at a time.
//   → {"id", "op": "seed", "transaction_id", "amount"}   → {"id", "op": "read", "transaction_id"}
//   ← {"id", "state", "actions"}  ·  {"id", "found": false}  ·  {"id", "error"}
// Optional, for a storm's thousands of records: many ids on one line, a reading each in order.
//   → {"id", "op": "read-many", "transaction_ids": [...]}  ← {"id", "records": [{"state", "actions"} | {"found": false}, ...]}
// A command that answers it anything else (its error for an op it does not know) is read one
// id at a time, and not asked again.
// A command that crashes, hangs or writes garbage makes that case ERROR and is restarted for the
// next request (given up on after three failures in a row), as an SDK adapter is.
import { isAbsolute, relative } from 'node:path';
import { excerpt, LineDriver, LineProcess, parseObjectLine, toLine, type LinePolicy, linePolicy, type ParsedAnswer } from '../line-protocol/index.ts';
import { abilitiesOf, ObserveError, onCaseWire, type CaseUse, type Observation, type ObservedStep, type ObserveSpec, type RecordObserver, type RecordReading } from './model.ts';
import { mapState, valueText } from './states.ts';

type CommandSpec = Extract<ObserveSpec, { kind: 'command' }>;

/** What an answer line says. */
export type ObserverAnswer =
  | { kind: 'record'; state: string | null; actions: number }
  | { kind: 'absent' }
  | { kind: 'error'; error: string };

export function parseObserverLine(line: string): ParsedAnswer<ObserverAnswer> {
  const parsed = parseObjectLine(line);
  if (!parsed.ok) return parsed;
  const { id, object } = parsed;
  if (typeof object.error === 'string') return { ok: true, id, answer: { kind: 'error', error: object.error } };
  if (object.found === false) return { ok: true, id, answer: { kind: 'absent' } };
  const state = object.state;
  const actions = object.actions;
  const stateOk = state === null || ['string', 'number', 'boolean'].includes(typeof state);
  if (stateOk && typeof actions === 'number' && Number.isInteger(actions) && actions >= 0) {
    return { ok: true, id, answer: { kind: 'record', state: valueText(state), actions } };
  }
  return {
    ok: false,
    problem: `the answer is none of {"id", "state", "actions": a whole number >= 0}, {"id", "found": false}, {"id", "error"}: ${excerpt(line)}`,
  };
}

/** The answer to read-many: a reading per id (or, from a command without it, anything else). */
export type ObserverManyAnswer = { kind: 'many'; records: Array<Extract<ObserverAnswer, { kind: 'record' | 'absent' }>> } | { kind: 'other'; answer: string };

export function parseObserverManyLine(line: string, count: number): ParsedAnswer<ObserverManyAnswer> {
  const parsed = parseObjectLine(line);
  if (!parsed.ok) return parsed;
  const { id, object } = parsed;
  if (!('records' in object)) return { ok: true, id, answer: { kind: 'other', answer: typeof object.error === 'string' ? `its error ${excerpt(object.error)}` : excerpt(line) } };
  if (!Array.isArray(object.records) || object.records.length !== count) {
    return { ok: false, problem: `"records" must be an array of ${count} readings, one per id asked, in order: ${excerpt(line)}` };
  }
  const records: Array<Extract<ObserverAnswer, { kind: 'record' | 'absent' }>> = [];
  for (const [k, record] of object.records.entries()) {
    const one = typeof record === 'object' && record !== null && !Array.isArray(record) ? parseObserverLine(JSON.stringify({ ...record, id })) : undefined;
    if (!one?.ok || one.answer.kind === 'error') {
      return { ok: false, problem: `"records"[${k}] is neither {"state", "actions": a whole number >= 0} nor {"found": false}: ${excerpt(JSON.stringify(record))}` };
    }
    records.push(one.answer);
  }
  return { ok: true, id, answer: { kind: 'many', records } };
}

export interface CommandObservationOptions extends LinePolicy {
  /** Time allowed for one answer, in ms. */
  answerTimeoutMs: number;
  cwd?: string;
}

export class CommandObservation implements Observation {
  readonly can;
  readonly describe: string;
  private readonly driver: LineDriver;
  private counter = 0;
  /** One exchange at a time: the protocol has no interleaving. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(readonly spec: CommandSpec, options: CommandObservationOptions) {
    this.can = abilitiesOf(spec);
    // The target file's folder, so that a relative path means the same to the command as to the receiver beside it.
    const cwd = spec.cwd ?? options.cwd;
    const inside = cwd === undefined ? '' : relative(process.cwd(), cwd);
    const shownCwd = inside.startsWith('..') || isAbsolute(inside) ? cwd! : inside;
    this.describe = `command (${spec.command}${shownCwd === '' ? '' : `, run in ${shownCwd}`})`;
    this.driver = new LineDriver({
      start: () => new LineProcess(spec.command, cwd ? { cwd } : {}),
      words: { noun: 'observer command', unit: 'request', doing: 'answering this request' },
      timeoutMs: options.answerTimeoutMs,
      ...linePolicy(options),
    });
  }

  forCase(use: CaseUse): RecordObserver {
    const onWire = onCaseWire(use);
    return {
      way: 'command',
      can: this.can,
      seed: (id, amount) => onWire(() => this.seed(id, amount)),
      read: (id, steps) => onWire(() => this.read(id, steps)),
      readMany: (ids) => onWire(() => this.readMany(ids)),
      close: async () => {},
    };
  }

  /** Whether the command answers read-many (unknown until asked); why not, when it does not. */
  private many: { served: true } | { served: false; why: string } | undefined;

  /** Why records are read one id at a time (the command's answer to read-many), once asked. */
  get readManyOff(): string | undefined {
    return this.many?.served === false ? this.many.why : undefined;
  }

  /** The readings of `ids` in one exchange; undefined when the command does not answer read-many. */
  async readMany(transactionIds: readonly string[]): Promise<Array<RecordReading | null> | undefined> {
    if (this.many?.served === false) return undefined;
    if (transactionIds.length === 0) return [];
    const request = { op: 'read-many', transaction_ids: [...transactionIds] };
    let exchanged: { answer: ObserverManyAnswer; step: ObservedStep };
    try {
      exchanged = await this.exchange(request, (line) => parseObserverManyLine(line, transactionIds.length));
    } catch (error) {
      // The first ask: a command that cannot take the op (it wrote no usable answer) is read one id at a time.
      if (this.many === undefined && error instanceof ObserveError) {
        this.many = { served: false, why: error.message };
        return undefined;
      }
      throw error;
    }
    const { answer, step } = exchanged;
    if (answer.kind === 'other') {
      if (this.many === undefined) {
        this.many = { served: false, why: `it answered read-many with ${answer.answer}` };
        return undefined;
      }
      throw this.failure(`the observer command answered read-many without "records" after answering it before: ${answer.answer}`, step);
    }
    this.many = { served: true };
    return answer.records.map((r, k) => (r.kind === 'absent' ? null : { transaction_id: transactionIds[k]!, state: mapState(r.state, this.spec.states), value: r.state, actions: r.actions }));
  }

  async seed(transactionId: string, amount: string): Promise<ObservedStep[]> {
    const { answer, step } = await this.exchange({ op: 'seed', transaction_id: transactionId, amount }, parseObserverLine);
    if (answer.kind === 'error') throw this.failure(`the observer command could not seed ${JSON.stringify(transactionId)}: it answered error ${excerpt(answer.error)}`, step);
    if (answer.kind === 'absent') throw this.failure(`the observer command answered {"found": false} to seed ${JSON.stringify(transactionId)}; a seed is answered with the record ({"state", "actions"})`, step);
    return [step];
  }

  async read(transactionId: string, steps?: ObservedStep[]): Promise<RecordReading | null> {
    const { answer, step } = await this.exchange({ op: 'read', transaction_id: transactionId }, parseObserverLine);
    steps?.push(step);
    if (answer.kind === 'error') throw this.failure(`the observer command could not read ${JSON.stringify(transactionId)}: it answered error ${excerpt(answer.error)}`, step);
    if (answer.kind === 'absent') return null;
    return { transaction_id: transactionId, state: mapState(answer.state, this.spec.states), value: answer.state, actions: answer.actions, read: [step] };
  }

  private exchange<A>(request: { op: string; transaction_id?: string; transaction_ids?: string[]; amount?: string }, parse: (line: string) => ParsedAnswer<A>): Promise<{ answer: A; step: ObservedStep }> {
    const run = this.queue.then(async () => {
      const id = `o${++this.counter}`;
      const sent = { id, ...request };
      const started = performance.now();
      let line = '';
      const result = await this.driver.exchange(id, toLine(JSON.stringify(sent)), (answerLine) => {
        line = answerLine;
        return parse(answerLine);
      });
      const ms = Math.round((performance.now() - started) * 10) / 10;
      const about = request.transaction_ids ? `${request.transaction_ids.length} ids` : JSON.stringify(request.transaction_id);
      if (!result.ok) {
        throw new ObserveError('ERR_OBSERVE_COMMAND', `the observer command gave no usable answer to ${request.op} ${about} (${result.failure}): ${result.reason}`, {
          records: { way: this.describe, failed: { request: sent, answer: line === '' ? null : this.driver.redact(line), ms } },
        });
      }
      return { answer: result.answer, step: { request: sent, answer: JSON.parse(line) as unknown, ms } };
    });
    this.queue = run.catch(() => {});
    return run;
  }

  private failure(message: string, step: ObservedStep): ObserveError {
    return new ObserveError('ERR_OBSERVE_COMMAND', message, { records: { way: this.describe, failed: step } });
  }

  close(): Promise<void> {
    return this.queue.then(() => this.driver.close());
  }
}
