// What the driver saw, one row per attempt, in typed columns (about 30 bytes a row): the storm's
// whole history without an object per delivery. Times are ms after the storm's start.
import type { TokenKind } from './plan.ts';
import { TOKEN_KINDS } from './plan.ts';
import type { Percentiles } from '../results/index.ts';

/** How an attempt ended without an answer. */
export type AttemptFailure = 'timeout' | 'reset' | 'refused' | 'other' | 'stopped';
const FAILURES: readonly AttemptFailure[] = ['timeout', 'reset', 'refused', 'other', 'stopped'];

export interface AttemptRow {
  index: number;
  copy: number;
  attempt: number;
  token: TokenKind;
  /** When it was due (the plan's time, or a retry's due time). */
  intendedMs: number;
  /** When the driver handed it to the HTTP client. */
  dispatchedMs: number;
  /** When its request went on the wire (NaN: never). */
  wireMs: number;
  /** When the reply's last byte came, or the attempt was given up (NaN: still under way). */
  endMs: number;
  /** The reply's status; 0 when there was none. */
  status: number;
  failure?: AttemptFailure;
  /** The reply's Retry-After, seconds (NaN: none). */
  retryAfterS: number;
}

export class AttemptLog {
  private size = 0;
  private index: Int32Array;
  private copy: Uint8Array;
  private attempt: Uint8Array;
  private token: Uint8Array;
  private status: Uint16Array;
  private failure: Uint8Array;
  private intended: Float64Array;
  private dispatched: Float32Array;
  private wire: Float32Array;
  private end: Float32Array;
  private retryAfter: Float32Array;

  constructor(capacity = 1024) {
    const n = Math.max(16, capacity);
    this.index = new Int32Array(n);
    this.copy = new Uint8Array(n);
    this.attempt = new Uint8Array(n);
    this.token = new Uint8Array(n);
    this.status = new Uint16Array(n);
    this.failure = new Uint8Array(n);
    this.intended = new Float64Array(n);
    this.dispatched = new Float32Array(n);
    this.wire = new Float32Array(n).fill(Number.NaN);
    this.end = new Float32Array(n).fill(Number.NaN);
    this.retryAfter = new Float32Array(n).fill(Number.NaN);
  }

  get length(): number {
    return this.size;
  }

  /** Bytes held per row (for the bench and the docs). */
  static readonly BYTES_PER_ROW = 4 + 1 + 1 + 1 + 2 + 1 + 8 + 4 + 4 + 4 + 4;

  private grow(): void {
    const n = this.index.length * 2;
    const more = <T extends Int32Array | Uint8Array | Uint16Array | Float64Array | Float32Array>(a: T, fill?: number): T => {
      const b = new (a.constructor as new (n: number) => T)(n);
      if (fill !== undefined) b.fill(fill);
      b.set(a);
      return b;
    };
    this.index = more(this.index);
    this.copy = more(this.copy);
    this.attempt = more(this.attempt);
    this.token = more(this.token);
    this.status = more(this.status);
    this.failure = more(this.failure);
    this.intended = more(this.intended);
    this.dispatched = more(this.dispatched);
    this.wire = more(this.wire, Number.NaN);
    this.end = more(this.end, Number.NaN);
    this.retryAfter = more(this.retryAfter, Number.NaN);
  }

  /** A new row for an attempt handed to the HTTP client now; returns its row number. */
  start(index: number, copy: number, attempt: number, token: TokenKind, intendedMs: number, dispatchedMs: number): number {
    if (this.size === this.index.length) this.grow();
    const row = this.size++;
    this.index[row] = index;
    this.copy[row] = copy;
    this.attempt[row] = attempt;
    this.token[row] = TOKEN_KINDS.indexOf(token);
    this.intended[row] = intendedMs;
    this.dispatched[row] = dispatchedMs;
    return row;
  }

  onWire(row: number, ms: number): void {
    if (Number.isNaN(this.wire[row]!)) this.wire[row] = ms;
  }

  answered(row: number, ms: number, status: number, retryAfterS: number): void {
    this.end[row] = ms;
    this.status[row] = status;
    this.retryAfter[row] = retryAfterS;
  }

  failed(row: number, ms: number, failure: AttemptFailure): void {
    this.end[row] = ms;
    this.failure[row] = FAILURES.indexOf(failure) + 1;
  }

  /** One row as an object (for evidence; never for every row). */
  row(row: number): AttemptRow {
    const failure = this.failure[row]!;
    return {
      index: this.index[row]!,
      copy: this.copy[row]!,
      attempt: this.attempt[row]!,
      token: TOKEN_KINDS[this.token[row]!]!,
      intendedMs: this.intended[row]!,
      dispatchedMs: this.dispatched[row]!,
      wireMs: this.wire[row]!,
      endMs: this.end[row]!,
      status: this.status[row]!,
      ...(failure > 0 ? { failure: FAILURES[failure - 1]! } : {}),
      retryAfterS: this.retryAfter[row]!,
    };
  }

  /** Hot-path readers (no object per row). */
  indexAt(row: number): number { return this.index[row]!; }
  statusAt(row: number): number { return this.status[row]!; }
  isValidToken(row: number): boolean { return this.token[row] === 0; }
  isFailed(row: number): boolean { return this.failure[row]! > 0; }
  intendedAt(row: number): number { return this.intended[row]!; }
  dispatchedAt(row: number): number { return this.dispatched[row]!; }
  wireAt(row: number): number { return this.wire[row]!; }
  endAt(row: number): number { return this.end[row]!; }

  /** The rows of one id, in the order they were sent. */
  rowsOf(index: number): number[] {
    const rows: number[] = [];
    for (let r = 0; r < this.size; r++) if (this.index[r] === index) rows.push(r);
    return rows;
  }
}

/** The q-quantile (0 … 1) of sorted values, nearest rank; NaN for none. */
export function quantile(sorted: ArrayLike<number>, q: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[rank]!;
}

// The evidence's shape (harness/results), named once there.
export type { Percentiles };

/** p50, p99 and max of `values` (sorted in place), rounded to 0.1 ms. */
export function percentiles(values: Float64Array): Percentiles {
  values.sort();
  const round = (n: number) => Math.round(n * 10) / 10;
  return { samples: values.length, p50Ms: round(quantile(values, 0.5)), p99Ms: round(quantile(values, 0.99)), maxMs: round(quantile(values, 1)) };
}
