// Every case the kit runs, as data: its id, side, level, section, what it needs, whether it is
// a negative check (and of which control) and its title. Other tools select and waive cases by
// id (DESIGN.md "case-id groups"): a case that vanishes, changes level or loses its control is a
// change of this file, reviewed, never a silent one (a case table entry emptied by mistake
// would otherwise just not run).
import { describe, expect, it } from 'vitest';
import { CLIENT_CASES, RECEIVER_CASES, SERVICE_CASES, type ConformanceCase } from '../../harness/cases/index.ts';

function line(c: ConformanceCase<never>): string {
  const flags = [
    c.needs.length > 0 ? `needs ${c.needs.join('+')}` : '',
    c.negative !== undefined ? `negative of ${c.negative}` : '',
    c.watchesRetries === true ? 'watches retries' : '',
  ].filter((f) => f !== '').join(', ');
  return `${c.id} | ${c.side} | ${c.level} | ${c.specRef} | ${flags} | ${c.title}`;
}

describe('the case list', () => {
  for (const [side, cases] of [['receiver', RECEIVER_CASES], ['service', SERVICE_CASES], ['client', CLIENT_CASES]] as const) {
    it(`${side}: ${cases.length} cases, each as listed in __snapshots__/${side}-cases.txt`, async () => {
      const list = (cases as readonly ConformanceCase<never>[]).map(line);
      expect(new Set(cases.map((c) => c.id)).size).toBe(cases.length);
      await expect(`${list.join('\n')}\n`).toMatchFileSnapshot(`__snapshots__/${side}-cases.txt`);
    });
  }
});
