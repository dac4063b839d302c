// Issue 39: the vectors runners a team copies into its SDK's own test suite, one per language,
// each run in its own framework over our correct example (every vector passes) and over the
// same example with each of five faults (the signer's keys left in body order, its values
// URL-encoded, non-ASCII messages refused; the composer always appending with ?, the parser keeping + instead of reading a
// space), where it must report exactly the vectors the kit's own implementation with that
// fault gets wrong: the failing `valid` and `invalid` ones as failures and the differing
// `acceptable` ones as WARN skips, in the framework's own output, with the fault's label in the
// failure's text.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { describeNeeding } from '../support/programs.ts';
import { copiedRunner, expectedVerdicts, FAULTS, idsWith, ROOT, RUNNERS_BY_LANGUAGE } from './runners.ts';

const CORRECT = expectedVerdicts();

it('the expected verdicts are computed, not empty: each fault fails valid vectors of its own file only, and the faults differ', () => {
  expect(idsWith(CORRECT, 'fail')).toEqual([]);
  expect(idsWith(CORRECT, 'skip')).toEqual([]);
  expect(CORRECT.size).toBe(192);
  const file = { signer: 'signature', composer: 'callback-url', parser: 'callback-query' };
  for (const fault of FAULTS) {
    const failing = idsWith(expectedVerdicts(fault), 'fail');
    expect(failing.length, fault.label).toBeGreaterThan(1);
    expect(failing.filter((id) => !id.startsWith(`vectors.${file[fault.of]}.`)), fault.label).toEqual([]);
  }
  expect(idsWith(expectedVerdicts(FAULTS[0]), 'fail')).not.toEqual(idsWith(expectedVerdicts(FAULTS[1]), 'fail'));
  // The signer's renderings also reach `acceptable` vectors (WARN).
  for (const fault of FAULTS.slice(0, 2)) {
    expect(idsWith(expectedVerdicts(fault), 'skip').length, fault.label).toBeGreaterThan(0);
  }
});

for (const runner of RUNNERS_BY_LANGUAGE) {
  describeNeeding(runner.needs, `the ${runner.language} vectors runner (examples/vectors-runners)`, () => {
    it('over the correct signer: every vector of the three files passes, exit status 0', async () => {
      const ran = await runner.run({});
      expect(ran.code, ran.output.slice(-3000)).toBe(0);
      expect(Object.fromEntries(ran.verdicts), ran.output.slice(-3000)).toEqual(Object.fromEntries(CORRECT));
    }, 180_000);
    it('copied with its signer into another folder (COLLECT_VECTORS_DIR), composer and parser unset: every signature vector passes, each callback file is one skipped test naming what to set', async () => {
      const dir = copiedRunner(runner, { runner: runner.unsetCallbacks });
      try {
        const ran = await runner.run({ COLLECT_VECTORS_DIR: join(ROOT, 'vectors') }, dir);
        expect(ran.code, ran.output.slice(-3000)).toBe(0);
        const signature = [...CORRECT].filter(([id]) => id.startsWith('vectors.signature.'));
        expect(Object.fromEntries(ran.verdicts)).toEqual({ ...Object.fromEntries(signature), 'vectors.callback-url': 'skip', 'vectors.callback-query': 'skip' });
        expect(ran.output).toMatch(/no composer given: set `?composer`? in /i);
        expect(ran.output).toMatch(/no parser given: set `?parser`? in /i);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }, 180_000);
    it('COLLECT_VECTORS_DIR naming a folder without the vectors: the run fails, naming the path and the variable', async () => {
      const ran = await runner.run({ COLLECT_VECTORS_DIR: join(ROOT, 'no-such-folder') });
      expect(ran.code).not.toBe(0);
      expect(ran.output).toContain(`no vector file at ${join(ROOT, 'no-such-folder', 'signature.json')}: set COLLECT_VECTORS_DIR`);
    }, 180_000);
    it('a signer that answers its signature alone (no message): the same verdicts as with the message, correct and with body-order', async () => {
      const dir = copiedRunner(runner, runner.signatureOnly);
      try {
        const correct = await runner.run({ COLLECT_VECTORS_DIR: join(ROOT, 'vectors') }, dir);
        expect(correct.code, correct.output.slice(-3000)).toBe(0);
        expect(Object.fromEntries(correct.verdicts)).toEqual(Object.fromEntries(CORRECT));
        const faulty = await runner.run({ COLLECT_VECTORS_DIR: join(ROOT, 'vectors'), COLLECT_SIGNER_FAULT: 'body-order' }, dir);
        expect(Object.fromEntries(faulty.verdicts)).toEqual(Object.fromEntries(expectedVerdicts(FAULTS[0])));
        expect(faulty.output).toContain('follows `body-order`');
        expect(faulty.output).not.toContain('your message:');
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }, 180_000);
    for (const fault of FAULTS) {
      it(`over the ${fault.of} with ${fault.env}=${fault.label}: fails exactly the vectors the kit's ${fault.of} with that fault fails, naming \`${fault.label}\``, async () => {
        const ran = await runner.run({ [fault.env]: fault.label });
        const expected = expectedVerdicts(fault);
        expect(ran.code, ran.output.slice(-3000)).not.toBe(0); // every fault fails a valid vector (checked above)
        expect(idsWith(ran.verdicts, 'fail')).toEqual(idsWith(expected, 'fail'));
        expect(idsWith(ran.verdicts, 'skip')).toEqual(idsWith(expected, 'skip'));
        expect(Object.fromEntries(ran.verdicts)).toEqual(Object.fromEntries(expected));
        // A refusal is named as one (the vectors list no rendering of an alternative that refuses).
        expect(ran.output).toContain(fault.label === 'python-ascii-only' ? 'refused the input of a valid vector: ' : `follows \`${fault.label}\``);
        if (idsWith(expected, 'skip').length > 0) expect(ran.output).toContain('WARN acceptable vector (the spec is silent)');
      }, 180_000);
    }
  }, { concurrent: true });
}
