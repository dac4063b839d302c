// The storm's plan (DESIGN.md "A callback storm"): N transaction ids, each with a terminal
// outcome, every valid callback delivered K times (some copies at once, some long after, past a
// short-lived cache of recent ids), a share of the ids getting only bad tokens. Deterministic from
// the seed, and STREAMED: every fact about id i is computed from (seed, i) when asked, and the
// deliveries are generated in send order, so a plan of any size holds no per-delivery memory.
import { DEFAULT_ID_TEMPLATE, renderId, uuidFrom, type TransactionIdShape } from '../ids/index.ts';

export interface StormPlanOptions {
  /** Transaction ids, valid and bad-token ones together. */
  callbacks: number;
  /** Deliveries per second, open loop. */
  ratePerS: number;
  /** Copies of each callback (K >= 1). */
  duplicates: number;
  /** Share of the ids (0–100 %) that get only bad tokens. */
  badTokensPct: number;
  seed: number;
  /**
   * A late copy goes out with the first copy of the id this many ids later (default half the
   * ids, at least 1): past any cache of recent ids smaller than that. Late copies of the last
   * ids go out after every first copy, past all the ids after them.
   */
  lateGap?: number;
  /** The ids' shape (the target's `transactionIds`; default the harness's own `{id}`). */
  shape?: TransactionIdShape;
  /** Kept in every id so a second storm against the same records does not collide (default 's'). */
  tag?: string;
}

export type Outcome = 'SUCCESS' | 'FAILED';
/** How a delivery presents the token: the right one, or one of the wrong ways (§6 rule 1). */
export type TokenKind = 'valid' | 'wrong' | 'missing' | 'one-char-extra' | 'different-case';
export const TOKEN_KINDS: readonly TokenKind[] = ['valid', 'wrong', 'missing', 'one-char-extra', 'different-case'];
const BAD_KINDS = TOKEN_KINDS.slice(1);

/** One planned delivery, in send order. */
export interface PlannedDelivery {
  /** The id's index in the plan (0 … callbacks-1). */
  index: number;
  /** 0 for the first copy, 1 … K-1 for the duplicates. */
  copy: number;
  token: TokenKind;
  /** Intended send time, ms after the storm's start. */
  atMs: number;
  /** 'first', a copy 'at-once' with the first, or a 'late' copy. */
  when: 'first' | 'at-once' | 'late';
}

/** A 32-bit hash of (seed, i, salt): murmur3's finaliser over their mix. */
function hash32(seed: number, i: number, salt: number): number {
  let h = (seed ^ Math.imul(i + 1, 0x9e3779b1) ^ Math.imul(salt + 1, 0x85ebca77)) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** A number in [0, 1) from (seed, i, salt). */
export function unitFrom(seed: number, i: number, salt: number): number {
  return hash32(seed, i, salt) / 2 ** 32;
}

/** A little generator seeded from (seed, i): for the {uuid} of one id. */
function randomFor(seed: number, i: number): () => number {
  let n = 0;
  return () => unitFrom(seed, i, 1000 + n++);
}

const SALT = { bad: 1, outcome: 2, copy: 3, badKind: 4 } as const;

export class StormPlan {
  readonly callbacks: number;
  readonly duplicates: number;
  readonly ratePerS: number;
  readonly seed: number;
  readonly lateGap: number;
  readonly badTokensPct: number;
  private readonly shape: TransactionIdShape;
  readonly tag: string;

  constructor(options: StormPlanOptions) {
    this.callbacks = options.callbacks;
    this.duplicates = options.duplicates;
    this.ratePerS = options.ratePerS;
    this.seed = options.seed >>> 0;
    this.badTokensPct = options.badTokensPct;
    this.lateGap = Math.min(Math.max(1, options.callbacks), Math.max(1, options.lateGap ?? Math.floor(options.callbacks / 2)));
    this.shape = options.shape ?? { template: DEFAULT_ID_TEMPLATE };
    this.tag = options.tag ?? 's';
  }

  /** Every delivery of the plan (callbacks × duplicates). */
  get deliveries(): number {
    return this.callbacks * this.duplicates;
  }

  /** The id of index i, in the target's shape. */
  idOf(i: number): string {
    return renderId(this.shape, `storm-${this.tag}-${i}`, () => uuidFrom(randomFor(this.seed, i)));
  }

  /** True for an id that gets only bad tokens. */
  isBadToken(i: number): boolean {
    return unitFrom(this.seed, i, SALT.bad) * 100 < this.badTokensPct;
  }

  outcomeOf(i: number): Outcome {
    return unitFrom(this.seed, i, SALT.outcome) < 0.8 ? 'SUCCESS' : 'FAILED';
  }

  messageOf(i: number): string {
    return this.outcomeOf(i) === 'SUCCESS' ? 'Payment received' : 'Insufficient funds';
  }

  /** Copy c (>= 1) of id i goes with the first ('at-once') or lateGap ids later ('late'). */
  copyWhen(i: number, c: number): 'at-once' | 'late' {
    return unitFrom(this.seed, i * 64 + c, SALT.copy) < 0.5 ? 'at-once' : 'late';
  }

  tokenOf(i: number, c: number): TokenKind {
    if (!this.isBadToken(i)) return 'valid';
    return BAD_KINDS[hash32(this.seed, i * 64 + c, SALT.badKind) % BAD_KINDS.length]!;
  }

  /**
   * The deliveries in send order: step s sends the first copy of id s (and its at-once copies,
   * at the same intended time), then the late copies of id s - lateGap. Each step's deliveries
   * other than at-once copies take one slot of 1/rate seconds.
   */
  *stream(): Generator<PlannedDelivery> {
    const slotMs = 1000 / this.ratePerS;
    let slot = 0;
    const steps = this.callbacks + this.lateGap;
    for (let s = 0; s < steps; s++) {
      if (s < this.callbacks) {
        const atMs = slot * slotMs;
        slot += 1;
        yield { index: s, copy: 0, token: this.tokenOf(s, 0), atMs, when: 'first' };
        for (let c = 1; c < this.duplicates; c++) {
          if (this.copyWhen(s, c) === 'at-once') yield { index: s, copy: c, token: this.tokenOf(s, c), atMs, when: 'at-once' };
        }
      }
      const late = s - this.lateGap;
      if (late >= 0) {
        for (let c = 1; c < this.duplicates; c++) {
          if (this.copyWhen(late, c) !== 'late') continue;
          yield { index: late, copy: c, token: this.tokenOf(late, c), atMs: slot * slotMs, when: 'late' };
          slot += 1;
        }
      }
    }
  }
}
