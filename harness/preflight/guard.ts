// Negative cases prove something only beside their positive control (DESIGN.md): when the
// side's control did not hold, a negative case's PASS becomes ERROR naming the control and what
// it observed (SKIP when the control could not be exercised at all). A FAIL stays a FAIL: a
// request wrongly acted on is a finding whatever the control saw. A FAIL on the answer alone
// (nothing acted on) beside a control whose answer did not hold is ERROR too: the valid request
// got no proper answer either, so the wrong answer most likely shares the control's cause.
//
// A control may have two halves (DESIGN.md "A positive control has two halves"), and a case is
// judged beside the half its verdict rests on (CaseOutcome.restsOn): a valid callback answered
// 2xx but never applied holds the answer half, so a bad token answered 2xx is a FAIL (accepted
// like a valid one), while "nothing changed" fails with the effect half: ERROR naming it.
//
// A preflight finding that leaves the other cases unjudged (Finding.blocking: the configured
// token refused, the seeded record unknown) reaches the positive cases too: one whose valid
// callback got the same answer (the finding's symptom) was not exercised, so its FAIL or WARN is
// ERROR naming the finding, except the cases whose own rule the refusal breaks (judgedBy).
import type { CaseOutcome, ConformanceCase, ControlHalf } from '../cases/index.ts';
import type { ResolvedTarget } from '../targets/index.ts';
import type { Control, ControlState, Finding, Preflight } from './model.ts';

/** The state of what a verdict rests on: the half it names, else the whole control. */
function stateFor(control: Control, half: ControlHalf | undefined): ControlState {
  return half !== undefined && control.halves ? control.halves[half] : control.state;
}

/** Why a half of the control proves nothing for this case, after "did not hold: <observed>". */
const HALF_WORDS: Record<ControlHalf, string> = {
  answer: '; this case rests on the answer, which says nothing when a valid callback does not get its answer either',
  effect: '; this case rests on nothing changing, which says nothing when a valid callback changes nothing either',
};

/**
 * `unproven` collects the ids of the cases whose PASS was taken back: the preflight's causes
 * explain them. The preflight may still be under way while the cases run (a run's cases and its
 * preflight go at once): a negative case waits for it only to judge its own PASS.
 */
export function guardNegatives<T extends ResolvedTarget>(
  cases: readonly ConformanceCase<T>[], preflight: Preflight | Promise<Preflight>, takenBack: string[] = [],
): ConformanceCase<T>[] {
  return cases.map((c) => {
    if (!c.negative) return c.side === 'receiver' ? guardPositive(c, preflight, takenBack) : c;
    const kind = c.negative;
    return {
      ...c,
      async run(ctx): Promise<CaseOutcome> {
        const outcome = await c.run(ctx);
        const control = (await preflight).controls[kind];
        const { restsOn, ...plain } = outcome;
        if (!control) return plain;
        const state = stateFor(control, restsOn);
        if (state === 'held') {
          // Accepted like a valid callback, which the receiver does not apply either: the FAIL
          // stands on its answer; what it did with the request cannot be seen, and is not claimed.
          if (outcome.verdict === 'FAIL' && restsOn === 'answer' && control.halves?.effect === 'failed') {
            return { ...plain, reason: `${outcome.reason}; whether the receiver acts on it cannot be seen: ${control.what} was answered 2xx but not applied either` };
          }
          return plain;
        }
        const halfWords = restsOn !== undefined && control.halves ? HALF_WORDS[restsOn] : '';
        const blocking = blockingOf(await preflight);
        if (outcome.verdict === 'FAIL') {
          if (restsOn !== 'answer' || state !== 'failed') return plain;
          takenBack.push(c.id);
          return { ...plain, verdict: 'ERROR', reason: `${outcome.reason}; but that proves nothing here: the positive control (${control.what}) did not hold: ${control.observed}, so this answer likely shares its cause` };
        }
        if (outcome.verdict !== 'PASS') return plain;
        takenBack.push(c.id);
        const unproven = `${blocking ? `not exercised: ${blocking.blocking!.headline} (the preflight's finding ${blocking.id}); ` : ''}the target refused or did nothing, but that proves nothing here: the positive control (${control.what}) did not hold: ${control.observed}${halfWords}`;
        return state === 'failed'
          ? { ...plain, verdict: 'ERROR', reason: unproven }
          : { verdict: 'SKIP', reason: `not exercised: ${control.what} could not run (${control.observed})` };
      },
    };
  });
}

/** The preflight's finding that leaves the other cases unjudged, if any. */
function blockingOf(preflight: Preflight): Finding | undefined {
  return preflight.findings.find((f) => f.blocking !== undefined);
}

/** Whether an outcome shows a status symptom: one of its requests got that answer. */
function showsStatus(outcome: CaseOutcome, finding: Finding): boolean {
  if (finding.symptom.kind !== 'status') return false;
  const status = finding.symptom.status;
  return (outcome.evidence?.exchanges ?? []).some((e) => e.response?.status === status);
}

/**
 * A positive receiver case beside a blocking finding: its FAIL or WARN on the very answer the
 * finding names was not a judgement of its rule (nothing got through), so it is ERROR naming it.
 */
function guardPositive<T extends ResolvedTarget>(c: ConformanceCase<T>, preflight: Preflight | Promise<Preflight>, takenBack: string[]): ConformanceCase<T> {
  return {
    ...c,
    async run(ctx): Promise<CaseOutcome> {
      const outcome = await c.run(ctx);
      if (outcome.verdict !== 'FAIL' && outcome.verdict !== 'WARN') return outcome;
      const finding = blockingOf(await preflight);
      if (!finding || finding.blocking!.judgedBy.includes(c.id) || !showsStatus(outcome, finding)) return outcome;
      takenBack.push(c.id);
      return { ...outcome, verdict: 'ERROR', reason: `not exercised: ${finding.blocking!.headline} (the preflight's finding ${finding.id}), and this case's valid callback got the same answer: ${outcome.reason}` };
    },
  };
}
