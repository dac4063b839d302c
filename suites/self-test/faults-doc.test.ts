import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { RECEIVER_FAULTS } from '../../harness/receiver/index.ts';
import { SIMULATOR_FAULTS } from '../../harness/simulator/index.ts';
import { REFERENCE_SDK_FAULTS } from '../../harness/reference-sdk/index.ts';
import { FAULTS_DOC_PATH, faultTable, withFaultTable } from './fault-table.ts';

describe("docs/faults.md's fault table is generated from the self-test catalogs", () => {
  it('names every fault switch of the three reference implementations', () => {
    const table = faultTable();
    for (const f of SIMULATOR_FAULTS) expect(table, f.name).toContain(`| service | \`${f.name}\``);
    for (const f of RECEIVER_FAULTS) expect(table, f.name).toContain(`| receiver | \`${f.name}\``);
    for (const f of REFERENCE_SDK_FAULTS) expect(table, f.name).toContain(`| client | \`${f.name}\``);
  });
  it('docs/faults.md holds the current table (run `npm run docs:faults` after changing a catalog)', () => {
    const page = readFileSync(FAULTS_DOC_PATH, 'utf8');
    expect(withFaultTable(page)).toBe(page);
  });
});
