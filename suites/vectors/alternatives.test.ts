// The labelled alternatives (harness/signing/profile.ts) against the published vectors:
// every label has a vector where it alone fits (so the vectors can tell it from every other),
// and a signer that follows exactly one label gets a summary naming exactly that label.
// The printers each label relies on are checked against the real PHP, Python, Ruby and Java in
// suites/signing/printers.test.ts.
import { describe, expect, it } from 'vitest';
import {
  ALTERNATIVES, joinPairs, pairsOfMembers, profileOf, readRawJsonObject, renderingsOf, SUITE_PROFILE,
} from '../../harness/signing/index.ts';
import { BuiltInSigner, runVectors, summariseSigner } from '../../harness/vectors/index.ts';
import { signatureFile } from './load.ts';

/** For each label, the vectors on which its message differs from the suite's and from every other label's. */
function aloneFits(): Map<string, number[]> {
  const alone = new Map<string, number[]>();
  for (const v of signatureFile().tests) {
    const members = readRawJsonObject(v.body);
    const canonical = joinPairs(pairsOfMembers(members, SUITE_PROFILE));
    const messages = [...renderingsOf(members)].map(([a, pairs]) => [a.label, pairs === undefined ? undefined : joinPairs(pairs)] as const);
    for (const [label, message] of messages) {
      if (message === canonical) continue;
      if (messages.some(([other, m]) => other !== label && m === message)) continue;
      alone.set(label, [...(alone.get(label) ?? []), v.tcId]);
    }
  }
  return alone;
}

describe('every labelled alternative has a vector where it alone fits', () => {
  // Computed inside the test, not while the file loads: mutation testing runs a mutant of code
  // that ran at load (a "static" mutant) against every test of its unit, one run each.
  it('each label', () => {
    const alone = aloneFits();
    for (const { label } of ALTERNATIVES) {
      expect.soft(alone.get(label) ?? [], `no vector tells ${label} apart from every other label`).not.toEqual([]);
    }
  });
  it('labels are unique and each description is written for its own language', () => {
    expect(new Set(ALTERNATIVES.map((a) => a.label)).size).toBe(ALTERNATIVES.length);
    for (const a of ALTERNATIVES.filter((x) => x.language === 'PHP' || x.language === 'Python' || x.language === 'Ruby')) {
      expect(a.description, a.label).not.toMatch(/JavaScript|String\(x\)|localeCompare|Number\(\)|encodeURI/);
    }
  });
});

describe('a signer following exactly one label gets a summary naming exactly it', () => {
  it.each(ALTERNATIVES.map((a) => a))('$label (faithful in-process model of the rule)', async (alternative) => {
    const results = await runVectors({ signer: new BuiltInSigner(profileOf(alternative), alternative.label), files: ['signature'] });
    const diagnoses = summariseSigner(results);
    expect(diagnoses.map((d) => d.id)).toEqual([`signer.${alternative.label}`]);
    const [only] = diagnoses;
    expect(only!.summary).toContain(`follows \`${alternative.label}\``);
    expect(only!.summary).toMatch(/vectors \d/);
    expect(only!.summary).toMatch(/refuse such a request/);
    const failing = results.filter((r) => r.verdict !== 'PASS').map((r) => r.id);
    expect(only!.cases.sort()).toEqual(failing.sort());
  });
  it('a correct signer gets no diagnosis', async () => {
    expect(summariseSigner(await runVectors({ signer: new BuiltInSigner(), files: ['signature'] }))).toEqual([]);
  });
});
