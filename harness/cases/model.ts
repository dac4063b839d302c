// A conformance case is data (id, title, spec reference, level, needs) plus a check.
import type { IdRequest } from '../ids/index.ts';
import type { Observation } from '../observe/index.ts';
import type { Evidence, ExchangeFailure, Level, Stated, StatedCause } from '../results/index.ts';
import type { Redactor } from '../secrets/index.ts';
import type { ResolvedTarget } from '../targets/index.ts';
import type { CaseWireUse } from '../wire/index.ts';
import type { RunResources } from './resources.ts';

/**
 * What a negative case's PASS rests on: see ConformanceCase.negative. `confirmation`: a
 * confirming receiver queried the status endpoint for a valid SUCCESS callback and applied it
 * once confirmed (receiver.confirm). `status-refusal`: a status query refused (§4.2), resting on
 * a correctly signed one answered with a status (service.status, client.status).
 */
export type NegativeKind = 'refusal' | 'no-delivery' | 'confirmation' | 'status-refusal';

/**
 * The two halves of a positive control (DESIGN.md "A positive control has two halves"): the
 * answer a valid request got, and its effect (the record changed).
 */
export type ControlHalf = 'answer' | 'effect';

/**
 * What a case needs from the target; unmet → SKIP with the reason, without running. Receiver
 * side: `records` (the harness sees the receiver's records: hooks or observe), `seed` (it can
 * make a pending record), `actions` (it can count the outcomes applied), `token`.
 */
export type Capability =
  | 'records' | 'seed' | 'actions' | 'token' | 'confirms' // receiver side
  | 'notWhitelistedSource' | 'failingNumber' | 'sandbox' | 'production' // service side
  | 'statusEndpoint';                          // service side: §4.2, unless the target says "status": false

export interface CaseContext<T extends ResolvedTarget> {
  target: T;
  seed: number;
  /**
   * Unique per run, in the target's `transactionIds` shape: `{id}` is the harness's own id
   * (`cc-<runTag>-<counter>-<random>`), `{uuid}` a UUID v4, both from the seed.
   */
  newTransactionId(): string;
  /**
   * An id whose `{id}` part carries `text` after the harness's id (reserved characters, a
   * space…), or the reason the target's shape cannot (no `{id}`, maxLength): SKIP with it.
   */
  transactionIdCarrying(text: string): IdRequest;
  /** A fresh URL-safe token unique per run, for routing (listener tags); not a transaction id. */
  newTag(): string;
  redactor: Redactor;
  /** Aborted when the case's time limit is reached. */
  signal: AbortSignal;
  /** For long cases ("waiting for retries 3/5…"). */
  progress(line: string): void;
  /** Time limit of one HTTP request of the case (the runner's perRequestTimeoutMs). */
  requestTimeoutMs: number;
  /**
   * The case's way onto the wire, shared by everything that shares the run's CaseSlots: every
   * exchange with a target goes through `wire.exchange` (HttpClient and CollectClient take it),
   * and a case that measures time or load (reply latency, a burst, concurrent duplicates) wraps
   * exactly the part that measures in `wire.alone`, so no other exchange of ours is on the wire
   * meanwhile (DESIGN.md: those cases run alone). Time spent waiting at the gate does not count
   * against the case's time limit.
   */
  wire: CaseWireUse;
  /** The run's view of a receiver's records (opened once per run; receiver side, when the target observes). */
  records?: Observation;
  /** What the run holds for its cases (a client's bench, a service's listener, a status endpoint), closed at its end. */
  resources: RunResources;
}

/** What every outcome may say beside its verdict. */
interface OutcomeCommon {
  evidence?: Evidence;
  /**
   * The level that applied in this run, when the target decides it (DESIGN.md: a deadline the
   * target file sets is a MUST; a defaulted one only a SHOULD). Default: the case's level.
   */
  level?: Level;
  /**
   * The half of the positive control a negative case's verdict rests on (harness/preflight/
   * guard.ts): `answer` for a FAIL whose only finding is the answer (the hooks showing nothing
   * was acted on, or no hooks) and for a PASS on a refusal seen without the hooks; `effect` for
   * a PASS on "nothing changed". Absent: the control as one whole. A FAIL on the effect (a
   * request wrongly acted on) is a finding whatever the control saw.
   */
  restsOn?: ControlHalf;
  /**
   * Causes the outcome states, by id (harness/diagnoses names one that several cases state
   * once, first): read by the diagnoses, never from the reason's words.
   */
  causes?: readonly StatedCause[];
  /** The exchange failure the outcome rests on (a time-out, a refused connection), typed for the diagnoses. */
  failure?: ExchangeFailure;
}

/**
 * A case's outcome: every verdict but PASS says why (DESIGN.md), so a reason-less FAIL, WARN,
 * SKIP or ERROR does not type-check. A case reports FAIL and its level decides WARN (runner).
 */
export type CaseOutcome =
  | ({ verdict: 'PASS'; reason?: string } & OutcomeCommon)
  | ({ verdict: 'FAIL' | 'WARN' | 'SKIP' | 'ERROR'; reason: string } & OutcomeCommon);

/** An outcome that is not a PASS: it has its reason. */
export type ReasonedOutcome = Exclude<CaseOutcome, { verdict: 'PASS' }>;

export interface ConformanceCase<T extends ResolvedTarget = ResolvedTarget> {
  /** e.g. 'receiver.token.missing' (groups of DESIGN.md); stable forever. */
  id: string;
  /** Present-tense fact, under 70 characters. */
  title: string;
  /** '§6 rule 1' */
  specRef: string;
  level: Level;
  side: T['side'];
  needs: readonly Capability[];
  /**
   * A negative case passes when the target refuses or changes nothing (`refusal`) or delivers
   * nothing (`no-delivery`), which proves something only beside a positive control showing the
   * target accepts and acts on a valid request, or delivers its callback (the side's
   * preflight, harness/preflight). Without a passing control, its PASS becomes ERROR or SKIP.
   */
  negative?: NegativeKind;
  /**
   * The case watches a retry schedule (up to timing.retryWindowMs), the longest wait of its side:
   * it starts before the others, so under a pace (`run --rate`) its requests go first and the run
   * ends about when it does, not a backlog of other cases' requests later.
   */
  watchesRetries?: true;
  /** A thrown error → ERROR with its message. */
  run(ctx: CaseContext<T>): Promise<CaseOutcome>;
}

/** An ERROR with evidence: the runner keeps `evidence` on the result, and what it states (causes, a typed failure) for the diagnoses. */
export class CaseError extends Error {
  override readonly name = 'CaseError';
  readonly code = 'ERR_CASE';
  constructor(message: string, readonly evidence?: Evidence, readonly stated?: Stated) {
    super(message);
  }
}
