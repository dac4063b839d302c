// Drives the other end of a line protocol one exchange at a time: a request line out, one
// answer line back. Failures are named (start, timeout, crashed, protocol) with a reason that
// quotes what was seen; after any failure the other end is stopped and started afresh for the
// next exchange, and one that fails several exchanges in a row (or cannot start) is given up
// on, so a command that hangs forever does not cost the time limit on every exchange.
import type { Redactor } from '../secrets/index.ts';
import { delay, type LineEnd } from './end.ts';
import { HELLO_LIMIT_MS, HELLO_LINE, isHelloAnswer, readHelloAnswer, type Greeting } from './hello.ts';
import { excerpt } from './line.ts';
import { LINE_LIMIT } from './process.ts';

/** In the reason of every exchange not sent because the driver gave up (harness/diagnoses names it once). */
export const GIVEN_UP = 'given up: the rest are not sent';

/** Bowtie's StartupFailed, ProtocolError …: what went wrong with the other end, not its opinion. */
export type LineFailure = 'start' | 'timeout' | 'crashed' | 'protocol';

/** How reasons name things: "the signer … while signing this vector", "the adapter … while handling this request". */
export interface LineWords {
  noun: string;
  unit: string;
  doing: string;
}

export interface LineDriverOptions {
  /** A fresh instance of the other end (a command started, an in-process peer). */
  start: () => LineEnd;
  words: LineWords;
  /** Time allowed for one answer. */
  timeoutMs: number;
  /** After this many failed exchanges in a row, the rest fail without being sent (default 3; Infinity: never). */
  maxConsecutiveFailures?: number;
  /** An end that ends this soon after starting, before answering anything, failed to start (default 2000). */
  startGraceMs?: number;
  /**
   * The first request to an instance that has not shown it is running (no hello answered) waits
   * this much longer, less the time it has had since it was started: its start is not its answer
   * time (default 0). For ends whose time limit is short beside a start: a restarted node took
   * over 400 ms to start on a loaded machine. It costs a peer that hangs on every request this
   * much per restart, so an SDK adapter (seconds of deadline, cases that hang on purpose) has none.
   */
  startAllowanceMs?: number;
  /** How long to wait for the end to finish after its input is closed, before stopping it (default 2000). */
  closeGraceMs?: number;
  /** Applied to every reason that quotes the other end's output. */
  redactor?: Redactor;
  /** Restarts and give-ups, for progress output. */
  onNotice?: (line: string) => void;
  /**
   * Open each fresh instance with the hello of protocol 2 (hello.ts), and keep what it answered:
   * a version-1 peer is not sent it again. `limitMs`: the time it has to answer (HELLO_LIMIT_MS).
   */
  hello?: { limitMs?: number };
}

/** The driver's policy knobs a user of it passes through unchanged. */
export type LinePolicy = Partial<Pick<LineDriverOptions, 'maxConsecutiveFailures' | 'startGraceMs' | 'startAllowanceMs' | 'closeGraceMs' | 'redactor' | 'onNotice'>>;

/** The policy knobs of `options` that are set (an exactOptionalPropertyTypes-safe copy). */
export function linePolicy(options: LinePolicy): LinePolicy {
  const out: LinePolicy = {};
  if (options.maxConsecutiveFailures !== undefined) out.maxConsecutiveFailures = options.maxConsecutiveFailures;
  if (options.startGraceMs !== undefined) out.startGraceMs = options.startGraceMs;
  if (options.startAllowanceMs !== undefined) out.startAllowanceMs = options.startAllowanceMs;
  if (options.closeGraceMs !== undefined) out.closeGraceMs = options.closeGraceMs;
  if (options.redactor) out.redactor = options.redactor;
  if (options.onNotice) out.onNotice = options.onNotice;
  return out;
}

/** Why the driver stopped sending: every later exchange fails with it, unsent. */
export interface GivenUp {
  failure: LineFailure;
  reason: string;
  limitMs?: number;
  /** When it gave up because the command cannot start: how the last start ended. */
  cannotStart?: string;
}

/** An answer line after the shared checks: its id and what the protocol made of it. */
export type ParsedAnswer<A> = { ok: true; id: string; answer: A } | { ok: false; problem: string };

/** One exchange's own terms. */
export interface ExchangeOptions {
  /** Time allowed for this answer (default: the driver's timeoutMs). */
  timeoutMs?: number;
  /**
   * The exchange every other one rests on (the SDK's plain call), in words for the reason: when
   * it gets no usable answer, the rest are not sent.
   */
  decisive?: string;
}

export type Exchanged<A> =
  | { ok: true; answer: A }
  /**
   * `unsent`: not sent at all, the driver having given up (the failure is the one it gave up on);
   * `limitMs`: the time limit that ran out (a `timeout`).
   */
  | { ok: false; failure: LineFailure; reason: string; unsent?: true; limitMs?: number };

export class LineDriver {
  private readonly maxConsecutiveFailures: number;
  private readonly startGraceMs: number;
  private readonly closeGraceMs: number;
  private readonly startAllowanceMs: number;
  private end: LineEnd | undefined;
  /** The current instance answered a hello: it is running, so its first answer's time is its own. */
  private endGreeted = false;
  /**
   * The current instance, a restart, was sent the hello and did not answer it within its limit (a
   * slow start on a loaded machine): its answer, when it comes, is the hello's, not a request's.
   */
  private endHelloOwed = false;
  private consecutiveFailures = 0;
  private givenUp: GivenUp | undefined;
  /** Number of times the other end was started, for the report (a version-1 end restarted after it ended on the hello counts once). */
  starts = 0;
  /** Answers in this run, over every instance. */
  answersInRun = 0;
  private startFailures = 0;
  /** What the first instance answered the hello (undefined before it, or without a hello). */
  private greeted: Greeting | undefined;
  /** The hello went unanswered within its limit: an answer that comes before the first request's still counts. */
  private helloLate = false;
  private helloSettled: () => void = () => {};
  private readonly settled = new Promise<void>((resolve) => { this.helloSettled = resolve; });
  /** A start under way (an instance being greeted): every exchange waits for it. */
  private starting: Promise<void> | undefined;

  constructor(private readonly options: LineDriverOptions) {
    this.maxConsecutiveFailures = options.maxConsecutiveFailures ?? 3;
    // 5 s: a start through a version manager's shim (pyenv, rbenv) takes half a second on an idle
    // machine and over 2 s on a loaded one, and a script that dies of a syntax error is still one
    // that cannot start (exit 3), not an SDK that crashed on a request (exit 1).
    this.startGraceMs = options.startGraceMs ?? 5000;
    this.closeGraceMs = options.closeGraceMs ?? 2000;
    this.startAllowanceMs = options.startAllowanceMs ?? 0;
  }

  /**
   * What the peer said it speaks (a hello is sent when none was yet). Version 1 when it met the
   * hello otherwise; undefined for a driver without a hello.
   */
  async greeting(): Promise<Greeting | undefined> {
    if (!this.options.hello) return undefined;
    if (this.greeted === undefined && !this.givenUp) await this.ensureStarted();
    // Unanswered within its limit: the first request's exchange settles it, or this wait does.
    if (this.helloLate) await Promise.race([this.settled, delay(this.options.timeoutMs)]);
    return this.greeted;
  }

  private async ensureStarted(): Promise<LineEnd> {
    while (this.starting) await this.starting;
    if (this.end?.alive) return this.end;
    if (this.end) this.options.onNotice?.(`restarting the ${this.options.words.noun}`);
    this.starting = this.startFresh().finally(() => { this.starting = undefined; });
    await this.starting;
    return this.end!;
  }

  private async startFresh(): Promise<void> {
    this.end = this.options.start();
    this.endGreeted = false;
    this.endHelloOwed = false;
    this.starts++;
    if (!this.options.hello || this.greeted?.protocol === 1) return;
    const first = this.greeted === undefined;
    const end = this.end;
    end.send(HELLO_LINE);
    const limitMs = this.options.hello.limitMs ?? HELLO_LIMIT_MS;
    const event = await end.next(limitMs);
    this.endGreeted = event.type === 'line';
    // A version-2 peer restarted after a failure is greeted again; only the first answer counts.
    if (!first) {
      this.endHelloOwed = event.type === 'timeout';
      return;
    }
    const { noun } = this.options.words;
    if (event.type === 'line') {
      this.greeted = readHelloAnswer(this.redact(event.line));
    } else if (event.type === 'timeout') {
      this.greeted = { protocol: 1, why: `it did not answer the hello within ${limitMs} ms` };
      this.helloLate = true;
      return;
    } else {
      this.greeted = { protocol: 1, why: `it ${end.describeExit(event.exit)} on the hello` };
      // Protocol 1 has no hello: started again, transparently, for the request it was started for.
      // Not counted in `starts`: protocol 1 has no hello, so this start is the one it would have had.
      this.options.onNotice?.(`restarting the ${noun} (protocol 1: it ended on the hello)`);
      this.end = this.options.start();
    }
    this.helloSettled();
  }

  /** The hello settled late, or never will: what the first request's exchange showed is final. */
  private settleHello(line?: string): void {
    if (!this.helloLate) return;
    if (line !== undefined) this.greeted = readHelloAnswer(line);
    this.helloLate = false;
    this.helloSettled();
  }

  /** Set once the driver gave up: every later exchange fails with it, unsent. */
  get gaveUp(): GivenUp | undefined {
    return this.givenUp;
  }

  async exchange<A>(id: string, line: string, parse: (line: string) => ParsedAnswer<A>, options: ExchangeOptions = {}): Promise<Exchanged<A>> {
    if (this.givenUp) {
      const { failure, reason, limitMs } = this.givenUp;
      return { ok: false, failure, reason: `not sent: ${reason}`, unsent: true, ...(limitMs !== undefined ? { limitMs } : {}) };
    }
    const result = await this.once(id, line, parse, options.timeoutMs ?? this.options.timeoutMs);
    this.settleHello();
    if (result.ok) {
      this.consecutiveFailures = 0;
      this.startFailures = 0;
      this.answersInRun++;
      return result;
    }
    this.consecutiveFailures++;
    // An end that has never answered in this run and ends at once twice in a row (so not
    // because of one request it choked on) will not start next time either.
    this.startFailures = result.failure === 'start' ? this.startFailures + 1 : 0;
    // So does one that ends at once on the decisive exchange, the first it is given.
    const cannotStart = (this.startFailures >= 2 || (options.decisive !== undefined && result.failure === 'start')) && this.answersInRun === 0;
    const { noun, unit } = this.options.words;
    if (cannotStart || options.decisive !== undefined || this.consecutiveFailures >= this.maxConsecutiveFailures) {
      this.givenUp = {
        failure: result.failure,
        ...(result.limitMs !== undefined ? { limitMs: result.limitMs } : {}),
        ...(cannotStart ? { cannotStart: result.reason } : {}),
        reason: cannotStart
          ? `the ${noun} command cannot be started (${result.reason})`
          : options.decisive !== undefined
            ? `the ${noun} gave no usable answer to ${options.decisive} (${GIVEN_UP}): ${result.failure}: ${result.reason.replace(/(?: and|; it) is restarted for the next \w+$/, '')}`
            : `the ${noun} failed ${this.consecutiveFailures} ${unit}s in a row (${GIVEN_UP}); last: ${result.failure}: ${result.reason}`,
      };
      this.options.onNotice?.(`${noun} given up: ${this.givenUp.reason}`);
    }
    return result;
  }

  private async once<A>(id: string, line: string, parse: (line: string) => ParsedAnswer<A>, timeoutMs: number): Promise<Exchanged<A>> {
    const { noun, unit, doing } = this.options.words;
    let end = await this.ensureStarted();
    end.send(line);
    const allowance = this.startAllowance(end);
    const deadline = Date.now() + timeoutMs + allowance;
    let event = await end.next(timeoutMs + allowance);
    // The answer to a hello that came after its limit: read as such, and the request's awaited still.
    while (event.type === 'line' && (this.helloLate || this.endHelloOwed) && id !== 'hello' && isHelloAnswer(event.line)) {
      this.settleHello(this.redact(event.line));
      this.endHelloOwed = false;
      event = await end.next(Math.max(0, deadline - Date.now()));
    }
    // Ended before answering anything, the hello still unanswered (a slow start on a loaded
    // machine): it ended on the hello, as protocol 1 does, or on this request. The request is
    // sent once more to a fresh instance, which gets no hello and decides (not counted a start).
    if (event.type === 'exit' && this.helloLate && end.answered === 0 && !end.overlong) {
      this.greeted = { protocol: 1, why: `it ${end.describeExit(event.exit)} before answering the hello` };
      this.settleHello();
      this.options.onNotice?.(`restarting the ${noun} (protocol 1: it ended before answering the hello)`);
      end = this.options.start();
      this.end = end;
      this.endGreeted = false;
      end.send(line);
      event = await end.next(timeoutMs + this.startAllowance(end));
    }
    const fail = async (failure: LineFailure, reason: string): Promise<Exchanged<A>> => {
      // After any failure the stream may be out of step: start afresh for the next exchange.
      await end.stop();
      return { ok: false, failure, reason: this.redact(reason), ...(failure === 'timeout' ? { limitMs: timeoutMs } : {}) };
    };
    switch (event.type) {
      case 'timeout':
        return fail('timeout', `no answer within ${timeoutMs} ms${allowance > 0 ? ` (and ${allowance} ms more for a fresh ${noun} to start)` : ''}; the ${noun} was killed and is restarted for the next ${unit}`);
      case 'exit': {
        if (end.overlong) {
          return fail('protocol', `the ${noun} wrote more than ${LINE_LIMIT} bytes on ${end.overlong} without ending the line, and was killed; it is restarted for the next ${unit}`);
        }
        // A command that answered earlier in the run does start: its instance that ends at once
        // after a restart ended on the request it was given (a JVM restarts within the grace).
        // Its life up to its end, not up to now: the exit may be read long after it came.
        const early = this.answersInRun === 0 && end.answered === 0 && !end.sawOutput && (end.endedAt ?? Date.now()) - end.startedAt < this.startGraceMs;
        const how = end.describeExit(event.exit);
        const answers = this.starts > 1 ? `${end.answered} answers since its restart (${this.answersInRun} in this run)` : `${end.answered} answers`;
        return early
          ? fail('start', `the ${noun} ${how} right after starting, before answering (${end.lastStderr()})`)
          : fail('crashed', `the ${noun} ${how} while ${doing}, after ${answers} (${end.lastStderr()})`);
      }
      case 'line': {
        // Redacted as it is read: a reason quotes a cut of the line, where a secret cut in half would no longer be found.
        const parsed = parse(this.redact(event.line));
        if (!parsed.ok) return fail('protocol', parsed.problem);
        if (parsed.id !== id) return fail('protocol', `answer for id ${excerpt(parsed.id)} while waiting for ${JSON.stringify(id)}`);
        end.answered++;
        return { ok: true, answer: parsed.answer };
      }
    }
  }

  /** The extra time a fresh instance's first request waits: what is left of its start allowance. */
  private startAllowance(end: LineEnd): number {
    if (end.answered > 0 || this.endGreeted) return 0;
    return Math.max(0, end.startedAt + this.startAllowanceMs - Date.now());
  }

  redact(text: string): string {
    return this.options.redactor ? this.options.redactor.text(text) : text;
  }

  async close(): Promise<void> {
    await this.end?.close(this.closeGraceMs);
    this.end = undefined;
  }
}
