// Drives a signer written in any language: `sh -c CMD`, one request line per vector, one
// answer line back (protocol.ts), through the shared line driver (harness/line-protocol). Its
// first line is protocol 2's hello; a version-2 signer answers with `"supports": ["sign"]` and
// what it wraps (for the report), and one that answers otherwise is version 1 and signs as ever.
// Failures get stable codes and become ERROR verdicts for the vector concerned; the signer is
// restarted for the rest, and a signer that fails several vectors in a row is given up on, so
// a signer that hangs forever does not cost 5 s per vector.
import { LineDriver, linePolicy, LineProcess, LINE_LIMIT, type Greeting, type LineFailure } from '../line-protocol/index.ts';
import type { Redactor } from '../secrets/index.ts';
import { encodeRequestLine, parseAnswerLine } from './protocol.ts';
import type { Signer, SignerAnswer, SignerFailureCode, SignRequest } from './signer.ts';

export interface ExternalSignerOptions {
  /** Time allowed for one answer (DESIGN.md: 5 s). */
  timeoutMs?: number;
  /** After this many failed vectors in a row, the rest are ERROR without being sent. */
  maxConsecutiveFailures?: number;
  /** A signer that exits this soon after starting, before answering anything, failed to start. */
  startGraceMs?: number;
  /** The first vector to a signer not yet shown running waits this much longer, for its start (SIGNER_START_ALLOWANCE_MS). */
  startAllowanceMs?: number;
  /** How long to wait for the signer to exit after its stdin is closed, before killing it. */
  closeGraceMs?: number;
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** Applied to every reason that quotes the signer's output. */
  redactor?: Redactor;
  /** Restarts and give-ups, for progress output. */
  onNotice?: (line: string) => void;
  /** The hello's time limit (HELLO_LIMIT_MS). */
  helloLimitMs?: number;
}

/** How much longer the first vector to a signer not yet shown running waits, for its start. */
export const SIGNER_START_ALLOWANCE_MS = 2000;

/** The longest line read from a signer (stdout or stderr): one without an end is not kept growing. */
export const SIGNER_LINE_LIMIT = LINE_LIMIT;

const CODES: Record<LineFailure, SignerFailureCode> = {
  start: 'ERR_SIGNER_START',
  timeout: 'ERR_SIGNER_TIMEOUT',
  crashed: 'ERR_SIGNER_CRASHED',
  protocol: 'ERR_SIGNER_PROTOCOL',
};

export class ExternalSigner implements Signer {
  readonly description: string;
  private readonly driver: LineDriver;

  constructor(readonly command: string, options: ExternalSignerOptions = {}) {
    this.description = command;
    this.driver = new LineDriver({
      start: () => new LineProcess(command, { ...(options.cwd ? { cwd: options.cwd } : {}), ...(options.env ? { env: options.env } : {}) }),
      words: { noun: 'signer', unit: 'vector', doing: 'signing this vector' },
      timeoutMs: options.timeoutMs ?? 5000,
      hello: options.helloLimitMs !== undefined ? { limitMs: options.helloLimitMs } : {},
      // A vector's time limit may be set well under a second (--timeout): a restart's start is not its answer time.
      startAllowanceMs: SIGNER_START_ALLOWANCE_MS,
      ...linePolicy(options),
    });
  }

  /** Number of times the command was started, for the report. */
  get starts(): number {
    return this.driver.starts;
  }

  /** What the signer said in its answer to the hello (protocol 1: it answered otherwise). */
  async greeting(): Promise<Greeting> {
    return (await this.driver.greeting()) ?? { protocol: 1, why: 'no hello was sent' };
  }

  async sign(request: SignRequest): Promise<SignerAnswer> {
    const result = await this.driver.exchange(request.id, encodeRequestLine(request), (line) => {
      const parsed = parseAnswerLine(line);
      return parsed.ok ? { ok: true, id: parsed.answer.id, answer: parsed.answer } : parsed;
    });
    if (!result.ok) return { kind: 'failed', code: CODES[result.failure], reason: result.reason };
    const answer = result.answer;
    return 'error' in answer
      ? { kind: 'refused', error: this.driver.redact(answer.error) }
      : { kind: 'signed', message: answer.message, signature: answer.signature };
  }

  async close(): Promise<void> {
    await this.driver.close();
  }
}
