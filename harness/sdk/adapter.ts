// Drives an SDK through its adapter: a command in any language (`sh -c CMD`), or an adapter in
// this process over a stream pair (the embedded default), both through the shared line driver.
// An adapter that crashes, hangs, writes garbage or answers another id gives a failure with a
// stable code (for the case concerned); it is restarted for the next request, however many
// failed before: one request an SDK chokes on says nothing about the others. Only when the plain
// call, which every case rests on, gets no usable answer are the rest not sent (`decisive`).
import { InProcessLineEnd, LineDriver, linePolicy, LineProcess, type ExchangeOptions, type Greeting, type LineEnd, type LineFailure, type LinePeer } from '../line-protocol/index.ts';
import type { Redactor } from '../secrets/index.ts';
import type { StatusValue } from '../status/index.ts';
import { encodeRequestLine, parseAdapterLine, type AdapterRequest, type CollectCall, type StatusCall } from './protocol.ts';

export type AdapterFailureCode = 'ERR_ADAPTER_START' | 'ERR_ADAPTER_TIMEOUT' | 'ERR_ADAPTER_CRASHED' | 'ERR_ADAPTER_PROTOCOL';

const CODES: Record<LineFailure, AdapterFailureCode> = {
  start: 'ERR_ADAPTER_START',
  timeout: 'ERR_ADAPTER_TIMEOUT',
  crashed: 'ERR_ADAPTER_CRASHED',
  protocol: 'ERR_ADAPTER_PROTOCOL',
};

/** What the adapter said (with its line, for the evidence), or why nothing usable came. */
export type AdapterAnswer =
  | { kind: 'outcome'; outcome: 'accepted' | 'rejected'; detail?: string; line: string }
  /** What the SDK reported a status query answered (op "status" only). */
  | { kind: 'status'; status: StatusValue; detail?: string; line: string }
  /** The SDK threw (`{"id", "error"}`). */
  | { kind: 'error'; error: string; line: string }
  /** The harness got no usable answer: an ERROR verdict, not the SDK's report. */
  | { kind: 'failed'; code: AdapterFailureCode; failure: LineFailure; reason: string; unsent?: true; limitMs?: number };

/** A command (run in `cwd`, default the current directory) or an in-process peer. */
export type AdapterLaunch =
  /** `started`: this command's process, already running (the start probe's): the first instance, so the command starts once. */
  | { command: string; cwd?: string; env?: NodeJS.ProcessEnv; started?: LineEnd }
  | { peer: LinePeer };

export interface SdkAdapterOptions {
  /** Time allowed for one answer: the target's timing.answerDeadlineMs. */
  answerDeadlineMs: number;
  /** After this many failed requests in a row, the rest fail unsent (default: never; see `decisive`). */
  maxConsecutiveFailures?: number;
  startGraceMs?: number;
  closeGraceMs?: number;
  redactor?: Redactor;
  onNotice?: (line: string) => void;
  /** The hello's time limit (HELLO_LIMIT_MS). */
  helloLimitMs?: number;
}

/** What an adapter can be asked: protocol 1 had collect only; protocol 2 says (its `supports`). */
export interface AdapterCapabilities {
  greeting: Greeting;
  collect: boolean;
  status: boolean;
}

/** The line a version-1 adapter adds to be judged on status (harness/sdk/README.md "Protocol 2"). */
export const HELLO_UPGRADE = 'answer the first line, {"id": "hello", "op": "hello", "protocol": 2}, with {"id": "hello", "protocol": 2, "supports": ["collect", "status"]}';

export class SdkAdapter {
  private readonly driver: LineDriver;

  constructor(launch: AdapterLaunch, options: SdkAdapterOptions) {
    this.driver = new LineDriver({
      start: () => {
        if ('peer' in launch) return new InProcessLineEnd(launch.peer);
        const { started } = launch;
        if (started?.alive) {
          launch.started = undefined;
          return started;
        }
        return new LineProcess(launch.command, { ...(launch.cwd ? { cwd: launch.cwd } : {}), ...(launch.env ? { env: launch.env } : {}) });
      },
      words: { noun: 'adapter', unit: 'request', doing: 'handling this request' },
      timeoutMs: options.answerDeadlineMs,
      hello: options.helloLimitMs !== undefined ? { limitMs: options.helloLimitMs } : {},
      ...linePolicy({ maxConsecutiveFailures: Infinity, ...options }),
    });
  }

  /** Number of times the adapter was started. */
  get starts(): number {
    return this.driver.starts;
  }

  /** Answers received in this run (a command that never answered and cannot start is unreachable). */
  get answers(): number {
    return this.driver.answersInRun;
  }

  /** Set once the driver gave up on the adapter: every later request fails with it, unsent. */
  get givenUp(): boolean {
    return this.driver.gaveUp !== undefined;
  }

  /** How the command's last start ended, when the driver gave up on it because it cannot start (it answered nothing in this run). */
  get cannotStart(): string | undefined {
    return this.driver.gaveUp?.cannotStart;
  }

  /** What the adapter said it supports in its answer to the hello (protocol 1: collect only). */
  async capabilities(): Promise<AdapterCapabilities> {
    const greeting = (await this.driver.greeting()) ?? { protocol: 1, why: 'no hello was sent' };
    if (greeting.protocol === 1) return { greeting, collect: true, status: false };
    return { greeting, collect: greeting.supports.includes('collect'), status: greeting.supports.includes('status') };
  }

  /** One call: `timeoutMs` when this call is allowed more than answerDeadlineMs; `decisive` for the plain call (when it fails, the rest are not sent). */
  async collect(call: CollectCall, options: ExchangeOptions = {}): Promise<AdapterAnswer> {
    return this.exchange({ op: 'collect', ...call }, options);
  }

  /** A status query (§4.2) through the SDK; the same options as a collect call. */
  async status(call: StatusCall, options: ExchangeOptions = {}): Promise<AdapterAnswer> {
    return this.exchange({ op: 'status', ...call }, options);
  }

  private async exchange(request: AdapterRequest, options: ExchangeOptions): Promise<AdapterAnswer> {
    let answerLine = '';
    const result = await this.driver.exchange(request.id, encodeRequestLine(request), (line) => {
      answerLine = line;
      return parseAdapterLine(line, request.op);
    }, options);
    if (!result.ok) {
      return {
        kind: 'failed', code: CODES[result.failure], failure: result.failure, reason: result.reason,
        ...(result.unsent ? { unsent: true as const } : {}), ...(result.limitMs !== undefined ? { limitMs: result.limitMs } : {}),
      };
    }
    const answer = result.answer;
    const line = this.driver.redact(answerLine);
    const detail = 'detail' in answer && answer.detail !== undefined ? { detail: this.driver.redact(answer.detail) } : {};
    if ('error' in answer) return { kind: 'error', error: this.driver.redact(answer.error), line };
    if ('status' in answer) return { kind: 'status', status: answer.status, ...detail, line };
    return { kind: 'outcome', outcome: answer.outcome, ...detail, line };
  }

  async close(): Promise<void> {
    await this.driver.close();
  }
}
