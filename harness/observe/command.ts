// Observing through a command in any language (an ORM, Redis, SQLite…), over the line protocol
// the signer and SDK adapters speak: one JSON object per line each way, one exchange at a time.
//   → {"id", "op": "seed", "transaction_id", "amount"}   → {"id", "op": "read", "transaction_id"}
//   ← {"id", "state", "actions"}  ·  {"id", "found": false}  ·  {"id", "error"}
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
      close: async () => {},
    };
  }

  async seed(transactionId: string, amount: string): Promise<ObservedStep[]> {
    const { answer, step } = await this.exchange({ op: 'seed', transaction_id: transactionId, amount });
    if (answer.kind === 'error') throw this.failure(`the observer command could not seed ${JSON.stringify(transactionId)}: it answered error ${excerpt(answer.error)}`, step);
    if (answer.kind === 'absent') throw this.failure(`the observer command answered {"found": false} to seed ${JSON.stringify(transactionId)}; a seed is answered with the record ({"state", "actions"})`, step);
    return [step];
  }

  async read(transactionId: string, steps?: ObservedStep[]): Promise<RecordReading | null> {
    const { answer, step } = await this.exchange({ op: 'read', transaction_id: transactionId });
    steps?.push(step);
    if (answer.kind === 'error') throw this.failure(`the observer command could not read ${JSON.stringify(transactionId)}: it answered error ${excerpt(answer.error)}`, step);
    if (answer.kind === 'absent') return null;
    return { transaction_id: transactionId, state: mapState(answer.state, this.spec.states), value: answer.state, actions: answer.actions, read: [step] };
  }

  private exchange(request: Record<string, string>): Promise<{ answer: ObserverAnswer; step: ObservedStep }> {
    const run = this.queue.then(async () => {
      const id = `o${++this.counter}`;
      const sent = { id, ...request };
      const started = performance.now();
      let line = '';
      const result = await this.driver.exchange(id, toLine(JSON.stringify(sent)), (answerLine) => {
        line = answerLine;
        return parseObserverLine(answerLine);
      });
      const ms = Math.round((performance.now() - started) * 10) / 10;
      if (!result.ok) {
        throw new ObserveError('ERR_OBSERVE_COMMAND', `the observer command gave no usable answer to ${request.op} ${JSON.stringify(request.transaction_id)} (${result.failure}): ${result.reason}`, {
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
