// harness/results/evidence.ts: every evidence key named, with its type; the schema names the same keys.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { EVIDENCE_KEYS, type CaseResult, type Evidence } from '../../harness/results/index.ts';
import { REPORT_SCHEMA_PATH } from '../../harness/report/index.ts';

describe('Evidence: a closed set of keys, each typed', () => {
  it('the type: an unknown key, or a known key of another shape, does not compile', () => {
    // @ts-expect-error: `signer` is no key of Evidence
    const unknownKey: Evidence = { signer: { label: 'locale-order' } };
    // @ts-expect-error: counts is the storm's, with its outcomes and bad-token ids
    const wrongShape: Evidence = { counts: { lost: 1 } };
    // @ts-expect-error: notes are strings
    const wrongNotes: CaseResult = { id: 'x', title: 'x', level: 'MUST', specRef: '§0', verdict: 'PASS', durationMs: 1, evidence: { notes: [1] } };
    const known: Evidence = { notes: ['a'], counts: { outcomes: 1, badTokenIds: 0, lost: 0 }, stage: 'message' };
    expect([unknownKey, wrongShape, wrongNotes.evidence, known].map((e) => Object.keys(e ?? {}))).toEqual([['signer'], ['counts'], ['notes'], ['notes', 'counts', 'stage']]);
  });
  it('EVIDENCE_KEYS lists every key of the type, once', () => {
    // Both ways: each listed key is a key of Evidence (`satisfies` in evidence.ts), and no key of Evidence is left out.
    const complete: [Exclude<keyof Evidence, (typeof EVIDENCE_KEYS)[number]>] extends [never] ? true : false = true;
    expect(complete).toBe(true);
    expect(new Set(EVIDENCE_KEYS).size).toBe(EVIDENCE_KEYS.length);
  });
  it('reports/schema/report.schema.json names the same keys, and refuses any other', () => {
    const schema = JSON.parse(readFileSync(REPORT_SCHEMA_PATH, 'utf8')) as { $defs: { evidence: { properties: Record<string, unknown>; additionalProperties: boolean } } };
    expect(Object.keys(schema.$defs.evidence.properties).sort()).toEqual([...EVIDENCE_KEYS].sort());
    expect(schema.$defs.evidence.additionalProperties).toBe(false);
  });
});
