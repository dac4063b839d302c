// Issue 39: the vectors runners a team copies into its SDK's own test suite, one per language,
// each run in its own framework over our correct example signer (every vector passes) and over
// the same signer with each of two faults (keys left in body order; values URL-encoded), where it
// must report exactly the vectors the kit's own signer with that fault gets wrong: the failing
// `valid` and `invalid` ones as failures and the differing `acceptable` ones as WARN skips, in
// the framework's own output, with the label of the fault in the failure's text.
import { expect, it } from 'vitest';
import { describeNeeding } from '../support/programs.ts';
import { expectedVerdicts, FAULTS, idsWith, RUNNERS_BY_LANGUAGE } from './runners.ts';

const CORRECT = expectedVerdicts();

it('the expected verdicts are computed, not empty: each fault fails valid vectors and warns on acceptable ones', () => {
  expect(idsWith(CORRECT, 'fail')).toEqual([]);
  expect(CORRECT.size).toBe(192);
  for (const fault of FAULTS) {
    const expected = expectedVerdicts(fault);
    expect(idsWith(expected, 'fail').length, fault).toBeGreaterThan(10);
    expect(idsWith(expected, 'skip').length, fault).toBeGreaterThan(0);
  }
  // The two faults are told apart: neither fails the other's set.
  expect(idsWith(expectedVerdicts('body-order'), 'fail')).not.toEqual(idsWith(expectedVerdicts('url-encoded-values'), 'fail'));
});

for (const runner of RUNNERS_BY_LANGUAGE) {
  describeNeeding(runner.needs, `the ${runner.language} vectors runner (examples/vectors-runners)`, () => {
    it('over the correct signer: every vector of the three files passes, exit status 0', async () => {
      const ran = await runner.run({});
      expect(ran.code, ran.output.slice(-3000)).toBe(0);
      expect(Object.fromEntries(ran.verdicts), ran.output.slice(-3000)).toEqual(Object.fromEntries(CORRECT));
    }, 90_000);
    for (const fault of FAULTS) {
      it(`over the signer with COLLECT_SIGNER_FAULT=${fault}: fails exactly the vectors the kit's signer with that fault fails, naming \`${fault}\``, async () => {
        const ran = await runner.run({ COLLECT_SIGNER_FAULT: fault });
        const expected = expectedVerdicts(fault);
        expect(ran.code, ran.output.slice(-3000)).not.toBe(0);
        expect(idsWith(ran.verdicts, 'fail')).toEqual(idsWith(expected, 'fail'));
        expect(idsWith(ran.verdicts, 'skip')).toEqual(idsWith(expected, 'skip'));
        expect(Object.fromEntries(ran.verdicts)).toEqual(Object.fromEntries(expected));
        expect(ran.output).toContain(`follows \`${fault}\``);
        expect(ran.output).toContain('WARN acceptable vector (the spec is silent)');
      }, 90_000);
    }
  }, { concurrent: true });
}
