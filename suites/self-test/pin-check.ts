// What "a fault pins its cause" means in every side's self-test: each case the catalog entry
// lists gives a reason carrying the entry's words for it (the branch of the check that caught the
// fault, not only some failure), and the shared cause the entry names is among the run's
// diagnoses, names only cases that did not pass, and, where the entry pins by it alone, every
// listed case.
import { expect } from 'vitest';
import type { CaseResult, Diagnosis } from '../../harness/results/index.ts';
import { missingMentions, type ReasonMentions } from './fault-catalog.ts';

export interface PinnedEntry {
  fault: string;
  caseIds: readonly string[];
  reasonMentions?: ReasonMentions | undefined;
  diagnosis?: string | undefined;
}

export function expectPinned(entry: PinnedEntry, results: readonly CaseResult[], diagnoses: readonly Diagnosis[]): void {
  for (const r of results.filter((x) => entry.caseIds.includes(x.id))) {
    expect(missingMentions(entry, r.id, r.reason), `${r.id} with ${entry.fault} says why: ${r.reason ?? ''}`).toEqual([]);
  }
  if (!entry.diagnosis) return;
  const named = diagnoses.find((d) => d.id === entry.diagnosis);
  expect(named, `${entry.fault}: the diagnoses are ${JSON.stringify(diagnoses.map((d) => d.id))}`).toBeDefined();
  const notPassed = results.filter((r) => r.verdict !== 'PASS').map((r) => r.id);
  expect(named!.cases.filter((id) => !notPassed.includes(id)), `${entry.diagnosis} names only cases that did not pass`).toEqual([]);
  if (entry.reasonMentions === undefined) {
    expect(entry.caseIds.filter((id) => !named!.cases.includes(id)), `${entry.diagnosis} names every case that caught ${entry.fault}`).toEqual([]);
  }
}
