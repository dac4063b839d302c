// What a preflight finds: whether the side's positive controls held (the negative cases rest on
// them), and the causes it could name, each with the symptom that marks the cases it explains.
import type { ControlHalf, NegativeKind } from '../cases/index.ts';
import type { Evidence, FailureCode, Side, StatedCause } from '../results/index.ts';

/**
 * How a case shows a named cause (data, matched by harness/diagnoses on codes and ids, never on
 * the words of a reason): one of its requests was answered `status` (or any 5xx), one failed
 * with the failure `code` (or its outcome rests on such a failure), its outcome states `cause`,
 * it ended in the very error the preflight could not finish for, or, for a cause that leaves
 * nothing of the side testable, every non-PASS case of the side.
 */
export type Symptom =
  | { kind: 'status'; status: number }
  | { kind: 'server-error' }
  | { kind: 'failure'; code: FailureCode }
  /** The cases that state this cause (one wrong signer behind every signature FAIL). */
  | { kind: 'stated'; cause: StatedCause }
  /** The cases whose reason holds the error the preflight could not finish for (the harness's own words, met again). */
  | { kind: 'same-error'; reason: string }
  | { kind: 'whole-side' };

/** A cause the preflight observed; `summary` states what was seen, a guess worded as one. */
export interface Finding {
  id: string;
  summary: string;
  symptom: Symptom;
  evidence?: Evidence;
  /**
   * A failed positive control that leaves the side's other cases unjudged (the configured token
   * refused, the seeded record unknown to the receiver): the preflight's result opens with
   * `headline` and `advice` (what to check), and every case that needs a valid callback to get through and shows the symptom
   * is ERROR naming it (not exercised), except `judgedBy`, the cases whose own rule the refusal
   * breaks (receiver.token.valid FAILs on its own evidence). harness/preflight/guard.ts.
   */
  blocking?: { headline: string; advice: string; judgedBy: readonly string[] };
}

/** `held`: the control ran and showed the target acting; `failed`: it ran and did not; `not-run`: nothing could be exercised. */
export type ControlState = 'held' | 'failed' | 'not-run';

export interface Control {
  /** The whole control: held only when every half it has held. */
  state: ControlState;
  /** What the control is, named in the reasons of the negative cases it guards. */
  what: string;
  /** What it observed, one sentence. */
  observed: string;
  /**
   * Each half, for a control that has two (DESIGN.md "A positive control has two halves"): a
   * valid callback answered 2xx but not applied holds the answer half and fails the effect
   * half. A negative case is judged beside the half its verdict rests on (CaseOutcome.restsOn).
   */
  halves?: Record<ControlHalf, ControlState>;
}

export interface Preflight {
  side: Side;
  /** One control per kind of negative case; a kind the side lacks is absent. */
  controls: Partial<Record<NegativeKind, Control>>;
  findings: Finding[];
}
