// The processor's delivery logs read back into the storm's attempt log, so that an Artillery run
// is judged by the same code, with the same per-id histories, as a native storm. Every log is one
// replay of the plan (a worker of `artillery run`, a container of `run-fargate --count N`): its
// times are taken from its own first intended send, so replays on machines whose clocks differ
// line up by their own start.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AttemptLog, TOKEN_KINDS, type AttemptFailure, type StormPlan, type TokenKind } from '../storm/index.ts';
import { LOG_FIELDS, LOG_FORMAT } from './processor.ts';

export interface DeliveryLogs {
  log: AttemptLog;
  /** The log files read (names). */
  files: string[];
  /** Per id: delivered at least once. */
  delivered: Uint8Array;
  /** The most first attempts of a first copy any id got: how many times the plan was replayed. */
  replays: number;
  /** The longest replay, first intended send to last reply (ms). */
  durationMs: number;
  /** When the last attempt ended (epoch ms). */
  lastEndAt: number;
}

export class DeliveryLogError extends Error {
  override readonly name = 'DeliveryLogError';
}

type Line = [index: number, copy: number, attempt: number, token: string, intended: number, dispatched: number, wire: number | null, end: number, status: number, failure: string | null, retryAfterS: number | null];
const FAILURES: readonly string[] = ['timeout', 'reset', 'refused', 'other', 'stopped'];

/** Reads every `*.jsonl` delivery log in `dir` written for this plan (its tag); undefined when there are none. */
export function readDeliveryLogs(dir: string, plan: StormPlan): DeliveryLogs | undefined {
  if (!existsSync(dir)) return undefined;
  const names = readdirSync(dir).filter((n) => n.endsWith('.jsonl')).sort();
  if (names.length === 0) return undefined;
  const log = new AttemptLog(plan.deliveries + 16);
  const delivered = new Uint8Array(plan.callbacks);
  const firsts = new Uint16Array(plan.callbacks);
  let durationMs = 0;
  let lastEndAt = 0;
  for (const name of names) {
    const where = join(dir, name);
    const lines = readFileSync(where, 'utf8').split('\n').filter((l) => l.length > 0);
    const header = parse(lines[0], where, 1) as { format?: string; fields?: string[]; runId?: string };
    if (header.format !== LOG_FORMAT || JSON.stringify(header.fields) !== JSON.stringify(LOG_FIELDS)) {
      throw new DeliveryLogError(`${where}: not a delivery log of this kit (its first line must be ${JSON.stringify({ format: LOG_FORMAT })} with the fields ${LOG_FIELDS.join(', ')})`);
    }
    if (header.runId !== plan.tag) throw new DeliveryLogError(`${where}: written for the export tagged ${JSON.stringify(header.runId)}, not this one (${JSON.stringify(plan.tag)}): move it out of ${dir}`);
    const rows = lines.slice(1).map((l, k) => parse(l, where, k + 2) as Line);
    if (rows.length === 0) continue;
    const t0 = rows.reduce((min, r) => Math.min(min, r[4]), Number.POSITIVE_INFINITY);
    let fileEnd = 0;
    rows.forEach((r, k) => {
      const [index, copy, attempt, token, intended, dispatched, wire, end, status, failure, retryAfterS] = r;
      if (!Number.isSafeInteger(index) || index < 0 || index >= plan.callbacks || !TOKEN_KINDS.includes(token as TokenKind)) {
        throw new DeliveryLogError(`${where} line ${k + 2}: id index ${JSON.stringify(index)} or token ${JSON.stringify(token)} is not of this plan (${plan.callbacks} ids)`);
      }
      const row = log.start(index, copy, attempt, token as TokenKind, intended - t0, dispatched - t0);
      if (wire !== null) log.onWire(row, wire - t0);
      if (failure !== null && FAILURES.includes(failure)) log.failed(row, end - t0, failure as AttemptFailure);
      else log.answered(row, end - t0, status, retryAfterS ?? Number.NaN);
      delivered[index] = 1;
      if (copy === 0 && attempt === 1) firsts[index]! += 1;
      fileEnd = Math.max(fileEnd, end);
    });
    durationMs = Math.max(durationMs, fileEnd - t0);
    lastEndAt = Math.max(lastEndAt, fileEnd);
  }
  return { log, files: names, delivered, replays: firsts.reduce((a, b) => Math.max(a, b), 0), durationMs: Math.round(durationMs), lastEndAt };
}

function parse(line: string | undefined, where: string, lineNo: number): unknown {
  try {
    return JSON.parse(line ?? '');
  } catch {
    throw new DeliveryLogError(`${where} line ${lineNo}: not JSON (a log cut off mid-line? ${JSON.stringify((line ?? '').slice(0, 60))})`);
  }
}
