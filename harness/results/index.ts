// The one result model that every run produces and every report writer reads.
// Unions, not strings, so an impossible verdict or level does not type-check; the evidence's
// keys, each typed, are in evidence.ts.
import type { Evidence, ExchangeFailure } from './evidence.ts';

export type {
  Evidence, CommonEvidence, ReceiverEvidence, ClientCallEvidence, VectorEvidence, StormEvidence,
  FailureCode, ExchangeFailure, Exchange, Delivery, Timeline, Percentiles,
  RecordState, ObservedStep, RecordReading, FailedStatement, RecordsEvidence,
  ServiceScript, SigningEvidence,
  SignerFailureCode, SignerAnswer, DivergentStage, VectorResult, PositionSource, CallbackValues, ParsedCallbackQuery, VectorShown,
  StormCounts, IdHistory, StormSecond, LatencySplit, ArtillerySummary, ArtilleryEvidence,
} from './evidence.ts';
export { EVIDENCE_KEYS } from './evidence.ts';

export type Verdict = 'PASS' | 'FAIL' | 'WARN' | 'SKIP' | 'ERROR';
export const VERDICTS: readonly Verdict[] = ['PASS', 'FAIL', 'WARN', 'SKIP', 'ERROR'];

/** MUST where the spec states the rule; SHOULD where it recommends or the suite interprets. */
export type Level = 'MUST' | 'SHOULD';

export type Side = 'service' | 'receiver' | 'client';

/**
 * Causes a case states in its outcome (harness/diagnoses: several cases stating one are named
 * once, first), by id: the rest not sent once the run gave up on a command; a 429 that waiting
 * did not end; an SDK silent after a refusal; a due rejection answered in a shape the target
 * does not state; a request with a non-matching signature processed; a status query that got
 * no status; a confirming receiver that asked nothing; an adapter with no status call; a body
 * that is not JSON; a signature not over the bytes sent; no callback within the limit.
 */
export type StatedCause =
  | 'given-up' | 'rate-limited' | 'refusals-unreported' | 'rejections-unread' | 'signatures-not-verified' | 'status-not-read'
  | 'no-status-query' | 'status-call-failed' | 'body-not-json' | 'not-signed-as-sent' | 'no-callback'
  /** §4.2: the target has no status endpoint (a service's path answers as no path does), or its adapter declares no status call. */
  | 'status-endpoint-absent' | 'status-not-declared'
  /** An SDK reported a status answer as another status, or answered error to one of a form it reads. */
  | 'status-misreported'
  /** A request due to be rejected was processed (its callback arrived). */
  | 'processed'
  /** A request the service refused was processed all the same (its callback came after the refusal). */
  | 'processed-after-refusal'
  /** A valid callback left its record pending (the receiver's preflight names it once). */
  | 'not-applied'
  /** The harness's own status endpoint answered a confirming receiver's query only after the receiver had given up on it: the kit's delay. */
  | 'status-answer-late'
  /** No signature could be read from the request's Authorization header (the client's preflight names it once). */
  | 'authorization-unreadable'
  /** The request body lacks fields of §2.1 under their names (the client's preflight names it once, with the keys sent). */
  | 'fields-missing';

export interface Waiver {
  reason: string;
  expires?: string;
}

interface CaseResultBase {
  id: string;
  title: string;
  level: Level;
  specRef: string;
  evidence?: Evidence;
  durationMs: number;
  /** Set when a waiver file names this case; the verdict stays what was observed. */
  waiver?: Waiver & { applied: boolean };
  /** Ids of the diagnoses (RunReport.diagnoses) that explain this verdict, when a shared cause does. */
  diagnoses?: string[];
  /**
   * What the outcome stated for the diagnoses, typed (harness/diagnoses reads these, never the
   * reason's words): the causes it names, the exchange failure it rests on. Kept in memory for
   * the run's diagnoses; not written in the report (the diagnoses it points to are).
   */
  stated?: Stated;
}

/** A verdict and its reason: every verdict but PASS says why, in one or two sentences (a PASS may carry a note: a waiver not needed). */
export type VerdictAndReason =
  | { verdict: 'PASS'; reason?: string }
  | { verdict: Exclude<Verdict, 'PASS'>; reason: string };

export type CaseResult = CaseResultBase & VerdictAndReason;

/** A verdict and a reason made apart, as one VerdictAndReason: a verdict other than PASS without its reason is its maker's bug (thrown). */
export function verdictAndReason(verdict: Verdict, reason: string | undefined): VerdictAndReason {
  if (verdict === 'PASS') return reason === undefined ? { verdict } : { verdict, reason };
  if (reason === undefined) throw new TypeError(`a ${verdict} without its reason`);
  return { verdict, reason };
}

/** Causes and a failure an outcome (or a thrown error) states. */
export interface Stated {
  causes?: readonly StatedCause[];
  failure?: ExchangeFailure;
}

/**
 * A cause that explains several non-PASS cases at once (DESIGN.md `diagnoses`), named once and
 * shown before the cases: "every callback was answered 405 (Allow: POST): the endpoint does not
 * accept GET". For a vectors run, one deviation of the signer (an alternative it follows).
 */
export interface Diagnosis {
  /** Stable within a report, e.g. `receiver.route-refuses-get`; cases point to it by this id. */
  id: string;
  /** What was observed and what it likely means, one or two sentences (a guess worded as one). */
  summary: string;
  /** The case ids it explains, in report order. */
  cases: string[];
  /** The evidence the diagnosis rests on (e.g. the preflight's exchange). */
  evidence?: Evidence;
}

export type VerdictCounts = Record<Verdict, number>;

export interface RunReport {
  tool: { name: 'collect-conformance'; version: string };
  /** What was run: `service`, `receiver`, `all` or `vectors`. */
  kind: 'run' | 'vectors' | 'storm';
  /** The target with secrets redacted. */
  target: Record<string, unknown>;
  startedAt: string;
  finishedAt?: string;
  seed: number;
  summary: VerdictCounts;
  /** Shared causes, shown before the cases; absent or empty when none was found. */
  diagnoses?: Diagnosis[];
  /**
   * Each side's preflight (`preflight.<side>`): the positive control the negative cases rest on,
   * with its evidence. Not a case: not in `cases` or `summary`. Absent in a vectors report.
   */
  preflights?: CaseResult[];
  cases: CaseResult[];
  /**
   * Set when the run was stopped by a signal (Ctrl-C, `timeout`, a cancelled CI job): the cases
   * that had not finished are in `cases` as ERROR (never PASS), and listed here.
   */
  interrupted?: Interrupted;
}

/** A run stopped by SIGINT or SIGTERM before its cases finished. */
export interface Interrupted {
  signal: 'SIGINT' | 'SIGTERM';
  /** When the signal came. */
  at: string;
  /** The cases under way or not started when it came: ERROR in `cases`. */
  notFinished: string[];
}

export function emptyCounts(): VerdictCounts {
  return { PASS: 0, FAIL: 0, WARN: 0, SKIP: 0, ERROR: 0 };
}

export function countVerdicts(cases: readonly Pick<CaseResult, 'verdict'>[]): VerdictCounts {
  const counts = emptyCounts();
  for (const c of cases) counts[c.verdict]++;
  return counts;
}

/** DESIGN.md exit status: 0 when no case is FAIL or ERROR (waived failures excepted), else 1. */
export function exitCodeFor(cases: readonly CaseResult[]): 0 | 1 {
  return cases.some((c) => (c.verdict === 'FAIL' || c.verdict === 'ERROR') && !c.waiver?.applied) ? 1 : 0;
}
