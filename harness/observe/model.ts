// Seeing what a receiver did to its records (DESIGN.md "Observing a receiver as it is"): the
// test hooks, its own database, or a command over the line protocol. One interface for the
// three, so a case reads a record the same way whichever the target names.
import type { CompiledStatement, DatabaseUrl } from '../database/index.ts';
import type { Evidence, Exchange, ExchangeFailure, ObservedStep, RecordReading, RecordState, Stated } from '../results/index.ts';
import type { FinalThrottle, Wire } from '../wire/index.ts';

// A reading's shapes are the evidence's (harness/results), named once there.
export type { ObservedStep, RecordReading, RecordState };

export const RECORD_STATES = ['pending', 'SUCCESS', 'FAILED'] as const;
export type MappedState = (typeof RECORD_STATES)[number];

/**
 * The receiver's own values for each state (`states` of the target file). A state left out keeps
 * its own name as its value (`pending`, `SUCCESS`, `FAILED`).
 */
export type StateMap = Readonly<Partial<Record<MappedState, readonly string[]>>>;

/** What a case may lean on. */
export interface ObserverAbilities {
  /** A fresh pending record can be made (hooks POST, a `seed` statement, a command). */
  seed: boolean;
  /** The times an outcome was applied can be read (hooks, an `actions` statement, a command). */
  actions: boolean;
}

/**
 * A case's view of the receiver's records. Failures throw ObserveError (the case is ERROR,
 * naming the statement or request and what the store said); `read` is null for an id the
 * receiver does not hold (the hooks' 404, a statement's empty result, `found: false`).
 */
export interface RecordObserver {
  readonly way: ObserveWay;
  readonly can: ObserverAbilities;
  /** A pending record for `transactionId`; resolves with what ran. */
  seed(transactionId: string, amount: string): Promise<ObservedStep[]>;
  /** `steps`, when given, gets what ran: also for an id not held, whose reading is null. */
  read(transactionId: string, steps?: ObservedStep[]): Promise<RecordReading | null>;
  /**
   * Optional: many records in one statement or request (a storm reads back thousands), in the
   * order asked, null for an id not held, without the `read` steps (kept compact); undefined when
   * the target does not offer it (then the caller reads one id at a time). The hooks offer it
   * when the receiver serves POST {hooks}/transactions/read; a database always (the kit builds
   * the batch form of the target's own statements, docs/observe.md), unless the database refuses
   * that form; a command when it answers the `read-many` request.
   */
  readMany?(transactionIds: readonly string[]): Promise<Array<RecordReading | null> | undefined>;
  /** Optional: many pending records at once (a database: in one transaction, one commit). */
  seedMany?(transactionIds: readonly string[], amount: string): Promise<void>;
  close(): Promise<void>;
}

export type ObserveWay = 'hooks' | 'sql' | 'command';

/** The way a target observes, resolved from its file (`hooksUrl` is the hooks kind). */
export type ObserveSpec =
  | { kind: 'hooks'; url: string }
  | {
    kind: 'sql';
    database: DatabaseUrl;
    /** Absent: records cannot be made by a statement (the cases that need one are SKIP). */
    seed?: CompiledStatement;
    read: CompiledStatement;
    /** Absent: a case whose verdict rests on the count is SKIP. */
    actions?: CompiledStatement;
    states?: StateMap;
  }
  /** `cwd`: where the command starts, the target file's folder (so a relative path in it means what it does to the receiver next to it). */
  | { kind: 'command'; command: string; cwd?: string; states?: StateMap };

/** What a hooks observer needs of the case's HTTP client (harness/cases' HttpClient is one). */
export interface HookHttp {
  send(
    call: { label?: string; method?: 'GET' | 'POST'; url: string; headers?: ReadonlyArray<{ name: string; value: string }>; body?: string },
    record: boolean,
  ): Promise<
    | { ok: true; exchange: Exchange; answer: { status: number; body: string }; retried?: { exchange: Exchange }; final429?: FinalThrottle }
    | { ok: false; exchange: Exchange; failure: ExchangeFailure; retried?: { exchange: Exchange } }
  >;
  /** The pace of the target's requests, for messages (`5/s`, `unpaced`). */
  readonly pace: string;
}

/** What a case lends its observer: its HTTP client (hooks), its way onto the wire and its signal. */
export interface CaseUse {
  http: HookHttp;
  wire: Wire;
  signal: AbortSignal;
}

/** Runs an observer's statement or request through the case's wire (its turn, its pace), not once the case was aborted. */
export function onCaseWire(use: CaseUse): <T>(work: () => Promise<T>) => Promise<T> {
  return (work) => use.wire.exchange(() => {
    if (use.signal.aborted) return Promise.reject(new Error('the case was aborted'));
    return work();
  });
}

/** The run's observation: opened once (a pool, a process), a view per case, closed at the end. */
export interface Observation {
  readonly spec: ObserveSpec;
  readonly can: ObserverAbilities;
  /** How evidence and messages name it: `sql (PostgreSQL at postgresql://app:***@…/shop)`. */
  readonly describe: string;
  forCase(use: CaseUse): RecordObserver;
  close(): Promise<void>;
}

/** What a failed seed or read saw; a case is ERROR with it (the runner keeps `evidence`). */
export class ObserveError extends Error {
  override readonly name = 'ObserveError';
  constructor(
    readonly code: 'ERR_OBSERVE_HOOK' | 'ERR_OBSERVE_SQL' | 'ERR_OBSERVE_COMMAND',
    message: string,
    readonly evidence?: Pick<Evidence, 'exchanges' | 'records'>,
    /** What the failure states for the diagnoses (a 429 that waiting did not end). */
    readonly stated?: Stated,
  ) {
    super(message);
  }
}

export function abilitiesOf(spec: ObserveSpec): ObserverAbilities {
  if (spec.kind === 'sql') return { seed: spec.seed !== undefined, actions: spec.actions !== undefined };
  return { seed: true, actions: true };
}
