// The positions the kit takes where the spec is silent: each with evidence, and docs/positions.md
// generated from them (a page edited by hand, or data changed without `npm run docs:positions`, fails here).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CLIENT_CASES, RECEIVER_CASES, SERVICE_CASES } from '../../harness/cases/index.ts';
import { codeEvidence, position, POSITIONS, positionsPage, POSITIONS_DOC_PATH, TOPICS } from '../../harness/positions/index.ts';

const CASE_IDS = [...CLIENT_CASES, ...RECEIVER_CASES, ...SERVICE_CASES].map((c) => c.id);

describe('positions: data with evidence', () => {
  it('ids are unique, each under a known topic, each with evidence and cases', () => {
    expect(new Set(POSITIONS.map((p) => p.id)).size).toBe(POSITIONS.length);
    for (const p of POSITIONS) {
      expect(TOPICS, p.id).toContain(p.topic);
      expect(p.evidence.length, p.id).toBeGreaterThan(0);
      expect(p.cases.length, p.id).toBeGreaterThan(0);
    }
  });

  it('every case a position names exists (an id, or a group.* that matches one)', () => {
    for (const p of POSITIONS) {
      for (const ref of p.cases.filter((c) => /^(client|service|receiver)\./.test(c))) {
        const match = ref.endsWith('*') ? CASE_IDS.some((id) => id.startsWith(ref.slice(0, -1))) : CASE_IDS.includes(ref);
        expect(match, `${p.id}: ${ref}`).toBe(true);
      }
    }
  });

  it('the status answer positions rest on the real client that ran in production, and say which form the reference uses', () => {
    expect(codeEvidence('status.answer-values')).toMatch(/Ghana.*lower-case `success`, `pending`, `failed`/);
    expect(codeEvidence('status.unknown-id')).toMatch(/421/);
    expect(position('status.answer-values').reads).toMatch(/reference service, and the kit's own endpoint a confirming receiver asks .*answer in \*\*lower case\*\*/);
    expect(() => position('no.such')).toThrow(/no position "no.such"/);
  });
});

describe('docs/positions.md is generated', () => {
  it('the committed page is the generated one (run `npm run docs:positions`)', () => {
    expect(readFileSync(POSITIONS_DOC_PATH, 'utf8')).toBe(positionsPage());
  });

  it('lists every position with its evidence, and keeps the anchors other pages link to', () => {
    const page = positionsPage();
    for (const p of POSITIONS) expect(page).toContain(`\`${p.id}\``);
    expect(page).toMatch(/^## Levels$/m);
    expect(page).toMatch(/^## Signing and the callback URL$/m);
  });
});
