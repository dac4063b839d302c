// Drives a signer written in any language: `sh -c CMD`, one request line per vector, one
// answer line back (protocol.ts). Failures get stable codes and become ERROR verdicts for the
// vector concerned; the signer is restarted for the rest, and a signer that fails several
// vectors in a row is given up on, so a signer that hangs forever does not cost 5 s per vector.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { Redactor } from '../secrets/index.ts';
import { encodeRequestLine, parseAnswerLine, excerpt } from './protocol.ts';
import type { Signer, SignerAnswer, SignerFailureCode, SignRequest } from './signer.ts';

export interface ExternalSignerOptions {
  /** Time allowed for one answer (DESIGN.md: 5 s). */
  timeoutMs?: number;
  /** After this many failed vectors in a row, the rest are ERROR without being sent. */
  maxConsecutiveFailures?: number;
  /** A signer that exits this soon after starting, before answering anything, failed to start. */
  startGraceMs?: number;
  /** How long to wait for the signer to exit after its stdin is closed, before killing it. */
  closeGraceMs?: number;
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** Applied to every reason that quotes the signer's output. */
  redactor?: Redactor;
  /** Restarts and give-ups, for progress output. */
  onNotice?: (line: string) => void;
}

const STDERR_LINES_KEPT = 20;
/** The longest line read from a signer (stdout or stderr): one without an end is not kept growing. */
export const SIGNER_LINE_LIMIT = 1024 * 1024;
const STDERR_LINES_SHOWN = 5;

type Exit = { code: number | null; signal: NodeJS.Signals | null; spawnError?: string };
type Event = { type: 'line'; line: string } | { type: 'exit'; exit: Exit } | { type: 'timeout' };

/** One running instance of the signer command. */
class SignerProcess {
  readonly child: ChildProcessWithoutNullStreams;
  readonly startedAt = Date.now();
  answered = 0;
  sawOutput = false;
  exit: Exit | undefined;
  /** The stream on which the signer wrote a line longer than SIGNER_LINE_LIMIT (it was killed for it). */
  overlong: 'stdout' | 'stderr' | undefined;
  private readonly lines: string[] = [];
  private readonly stderr: string[] = [];
  private wake: (() => void) | undefined;
  readonly exited: Promise<Exit>;
  // The signer has its own process group, so it would outlive a harness that dies abruptly.
  private readonly killOnExit = () => this.kill('SIGKILL');

  constructor(command: string, options: ExternalSignerOptions) {
    // detached: the signer gets its own process group, so a kill reaches what `sh` started too.
    this.child = spawn('sh', ['-c', command], { stdio: ['pipe', 'pipe', 'pipe'], detached: true, cwd: options.cwd, env: options.env ?? process.env });
    process.on('exit', this.killOnExit);
    this.child.stdin.on('error', () => {}); // EPIPE when the signer is gone: seen as its exit.
    this.guardLineLength('stdout');
    this.guardLineLength('stderr');
    createInterface({ input: this.child.stdout, crlfDelay: Infinity }).on('line', (line) => {
      this.sawOutput = true;
      if (line.trim() === '') return;
      this.lines.push(line);
      this.wake?.();
    });
    createInterface({ input: this.child.stderr, crlfDelay: Infinity }).on('line', (line) => {
      this.stderr.push(line);
      if (this.stderr.length > STDERR_LINES_KEPT) this.stderr.shift();
    });
    this.exited = new Promise((resolve) => {
      const done = (exit: Exit) => {
        if (this.exit) return;
        this.exit = exit;
        process.off('exit', this.killOnExit);
        this.wake?.();
        resolve(exit);
      };
      // 'close' waits for stdout to drain, so a last answer is read before the exit is seen.
      this.child.on('close', (code, signal) => done({ code, signal }));
      this.child.on('error', (error) => done({ code: null, signal: null, spawnError: error.message }));
    });
  }

  /**
   * readline keeps a line until its end: a signer that writes without ever ending a line would
   * take the harness's memory with it. Past SIGNER_LINE_LIMIT bytes without a line end, the
   * signer is killed (and the vector is ERROR, saying why).
   */
  private guardLineLength(stream: 'stdout' | 'stderr'): void {
    let sinceEnd = 0;
    this.child[stream].on('data', (chunk: Buffer) => {
      const end = Math.max(chunk.lastIndexOf(0x0a), chunk.lastIndexOf(0x0d));
      sinceEnd = end >= 0 ? chunk.length - end - 1 : sinceEnd + chunk.length;
      if (sinceEnd > SIGNER_LINE_LIMIT && this.overlong === undefined) {
        this.overlong = stream;
        this.kill('SIGKILL');
        this.child[stream].destroy();
      }
    });
  }

  get alive(): boolean {
    return this.exit === undefined;
  }

  send(line: string): void {
    if (this.alive && this.child.stdin.writable) this.child.stdin.write(line);
  }

  /** The next answer line, the exit, or the time limit, whichever comes first. */
  async next(timeoutMs: number): Promise<Event> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const line = this.lines.shift();
      if (line !== undefined) return { type: 'line', line };
      if (this.exit) return { type: 'exit', exit: this.exit };
      const left = deadline - Date.now();
      if (left <= 0) return { type: 'timeout' };
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.wake = undefined;
    }
  }

  lastStderr(): string {
    const shown = this.stderr.slice(-STDERR_LINES_SHOWN);
    return shown.length === 0 ? 'no stderr output' : `last stderr: ${shown.join(' | ')}`;
  }

  describeExit(exit: Exit): string {
    if (exit.spawnError) return `could not be spawned (${exit.spawnError})`;
    return exit.signal ? `was killed by ${exit.signal}` : `exited with code ${exit.code}`;
  }

  kill(signal: NodeJS.Signals): void {
    if (!this.alive || this.child.pid === undefined) return;
    try {
      process.kill(-this.child.pid, signal);
    } catch {
      // The group is already gone.
    }
  }

  /** Kills the process group and waits (briefly) for the exit to be seen. */
  async stop(): Promise<void> {
    this.kill('SIGKILL');
    await Promise.race([this.exited, delay(1000)]);
  }

  /** Closes stdin, lets the signer finish, then escalates. */
  async close(graceMs: number): Promise<void> {
    if (!this.alive) return;
    this.child.stdin.end();
    if (await settlesWithin(this.exited, graceMs)) return;
    this.kill('SIGTERM');
    if (await settlesWithin(this.exited, 500)) return;
    await this.stop();
  }
}

export class ExternalSigner implements Signer {
  readonly description: string;
  private readonly timeoutMs: number;
  private readonly maxConsecutiveFailures: number;
  private readonly startGraceMs: number;
  private readonly closeGraceMs: number;
  private process: SignerProcess | undefined;
  private consecutiveFailures = 0;
  private givenUp: { code: SignerFailureCode; reason: string } | undefined;
  /** Number of times the command was started, for the report. */
  starts = 0;
  private answersInRun = 0;
  private startFailures = 0;

  constructor(readonly command: string, private readonly options: ExternalSignerOptions = {}) {
    this.description = command;
    this.timeoutMs = options.timeoutMs ?? 5000;
    this.maxConsecutiveFailures = options.maxConsecutiveFailures ?? 3;
    this.startGraceMs = options.startGraceMs ?? 2000;
    this.closeGraceMs = options.closeGraceMs ?? 2000;
  }

  async sign(request: SignRequest): Promise<SignerAnswer> {
    if (this.givenUp) {
      return { kind: 'failed', code: this.givenUp.code, reason: `not sent: ${this.givenUp.reason}` };
    }
    const answer = await this.exchange(request);
    if (answer.kind !== 'failed') {
      this.consecutiveFailures = 0;
      this.startFailures = 0;
      this.answersInRun++;
      return answer;
    }
    this.consecutiveFailures++;
    // A command that has never answered in this run and exits at once twice in a row (so not
    // because of one body it choked on) will not start next time either.
    this.startFailures = answer.code === 'ERR_SIGNER_START' ? this.startFailures + 1 : 0;
    const cannotStart = this.startFailures >= 2 && this.answersInRun === 0;
    if (cannotStart || this.consecutiveFailures >= this.maxConsecutiveFailures) {
      this.givenUp = {
        code: answer.code,
        reason: cannotStart
          ? `the signer command cannot be started (${answer.reason})`
          : `the signer failed ${this.consecutiveFailures} vectors in a row; last: ${answer.code}: ${answer.reason}`,
      };
      this.options.onNotice?.(`signer given up: ${this.givenUp.reason}`);
    }
    return answer;
  }

  private async exchange(request: SignRequest): Promise<SignerAnswer> {
    if (!this.process || !this.process.alive) {
      if (this.process) this.options.onNotice?.('restarting the signer');
      this.process = new SignerProcess(this.command, this.options);
      this.starts++;
    }
    const proc = this.process;
    proc.send(encodeRequestLine(request));
    const event = await proc.next(this.timeoutMs);
    const fail = async (code: SignerFailureCode, reason: string): Promise<SignerAnswer> => {
      // After any failure the stream may be out of step: start afresh for the next vector.
      await proc.stop();
      return { kind: 'failed', code, reason: this.redact(reason) };
    };
    switch (event.type) {
      case 'timeout':
        return fail('ERR_SIGNER_TIMEOUT', `no answer within ${this.timeoutMs} ms; the signer was killed and is restarted for the next vector`);
      case 'exit': {
        if (proc.overlong) {
          return fail('ERR_SIGNER_PROTOCOL', `the signer wrote more than ${SIGNER_LINE_LIMIT} bytes on ${proc.overlong} without ending the line, and was killed; it is restarted for the next vector`);
        }
        const early = proc.answered === 0 && !proc.sawOutput && Date.now() - proc.startedAt < this.startGraceMs;
        const how = proc.describeExit(event.exit);
        return early
          ? fail('ERR_SIGNER_START', `the signer ${how} right after starting, before answering (${proc.lastStderr()})`)
          : fail('ERR_SIGNER_CRASHED', `the signer ${how} while signing this vector, after ${proc.answered} answers (${proc.lastStderr()})`);
      }
      case 'line': {
        const parsed = parseAnswerLine(event.line);
        if (!parsed.ok) return fail('ERR_SIGNER_PROTOCOL', parsed.problem);
        if (parsed.answer.id !== request.id) {
          return fail('ERR_SIGNER_PROTOCOL', `answer for id ${excerpt(parsed.answer.id)} while waiting for ${JSON.stringify(request.id)}`);
        }
        proc.answered++;
        return 'error' in parsed.answer
          ? { kind: 'refused', error: this.redact(parsed.answer.error) }
          : { kind: 'signed', message: parsed.answer.message, signature: parsed.answer.signature };
      }
    }
  }

  private redact(text: string): string {
    return this.options.redactor ? this.options.redactor.text(text) : text;
  }

  async close(): Promise<void> {
    await this.process?.close(this.closeGraceMs);
    this.process = undefined;
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let settled = false;
  await Promise.race([promise.then(() => (settled = true)), delay(ms)]);
  return settled;
}
