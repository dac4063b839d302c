// Negative cases prove something only beside their positive control (DESIGN.md): when the
// side's control did not hold, a negative case's PASS becomes ERROR naming the control and what
// it observed (SKIP when the control could not be exercised at all). A FAIL stays a FAIL: a
// request wrongly acted on is a finding whatever the control saw. A FAIL on the answer alone
// (nothing acted on) beside a failed control is ERROR too: the valid request got no proper
// answer either, so the wrong answer most likely shares the control's cause.
import type { CaseOutcome, ConformanceCase } from '../cases/index.ts';
import type { ResolvedTarget } from '../targets/index.ts';
import type { Preflight } from './model.ts';

/**
 * `unproven` collects the ids of the cases whose PASS was taken back: the preflight's causes
 * explain them. The preflight may still be under way while the cases run (a run's cases and its
 * preflight go at once): a negative case waits for it only to judge its own PASS.
 */
export function guardNegatives<T extends ResolvedTarget>(
  cases: readonly ConformanceCase<T>[], preflight: Preflight | Promise<Preflight>, takenBack: string[] = [],
): ConformanceCase<T>[] {
  return cases.map((c) => {
    if (!c.negative) return c;
    const kind = c.negative;
    return {
      ...c,
      async run(ctx): Promise<CaseOutcome> {
        const outcome = await c.run(ctx);
        const control = (await preflight).controls[kind];
        const { onlyTheAnswer, ...plain } = outcome;
        if (!control || control.state === 'held') return plain;
        if (outcome.verdict === 'FAIL' && onlyTheAnswer && control.state === 'failed') {
          takenBack.push(c.id);
          return { ...plain, verdict: 'ERROR', reason: `${outcome.reason}; but that proves nothing here: the positive control (${control.what}) did not hold: ${control.observed}, so this answer likely shares its cause` };
        }
        if (outcome.verdict !== 'PASS') return plain;
        takenBack.push(c.id);
        const unproven = `the target refused or did nothing, but that proves nothing here: the positive control (${control.what}) did not hold: ${control.observed}`;
        return control.state === 'failed'
          ? { ...plain, verdict: 'ERROR', reason: unproven }
          : { verdict: 'SKIP', reason: `not exercised: ${control.what} could not run (${control.observed})` };
      },
    };
  });
}
