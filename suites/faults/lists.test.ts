// harness/faults: the one shape of the three references' fault switches, each list the one
// source of its names (the union type derived from it), and the guard built from it.
import { describe, expect, it } from 'vitest';
import { faultGuard, faultList, type FaultInfo } from '../../harness/faults/index.ts';
import { RECEIVER_FAULT_NAMES, RECEIVER_FAULTS, isReceiverFault } from '../../harness/receiver/index.ts';
import { REFERENCE_SDK_FAULTS, isReferenceSdkFault } from '../../harness/reference-sdk/index.ts';
import { SIMULATOR_FAULTS, isSimulatorFault } from '../../harness/simulator/index.ts';

const LISTS: ReadonlyArray<[string, readonly FaultInfo[], (name: string) => boolean]> = [
  ['simulator', SIMULATOR_FAULTS, isSimulatorFault],
  ['receiver', RECEIVER_FAULTS, isReceiverFault],
  ['reference SDK', REFERENCE_SDK_FAULTS, isReferenceSdkFault],
];

describe('faultList and faultGuard', () => {
  it('the list is frozen, entries too; the guard knows exactly its names', () => {
    const list = faultList([{ name: 'a', description: 'A', specRef: '§1' }, { name: 'b', description: 'B', specRef: '§2' }]);
    expect(Object.isFrozen(list)).toBe(true);
    expect(Object.isFrozen(list[0])).toBe(true);
    const isFault = faultGuard(list);
    expect(['a', 'b', 'c', 'A', ''].map(isFault)).toEqual([true, true, false, false, false]);
  });
});

describe.each(LISTS)('the %s faults', (_side, list, guard) => {
  it('each name once, each with what it does and the rule it breaks', () => {
    const names = list.map((f) => f.name);
    expect(new Set(names).size).toBe(names.length);
    for (const f of list) {
      expect(f.name, f.name).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
      expect(f.description.length, f.name).toBeGreaterThan(10);
      expect(f.specRef, f.name).toMatch(/§|README/);
    }
  });
  it('the guard takes every listed name and no other', () => {
    for (const f of list) expect(guard(f.name), f.name).toBe(true);
    expect(guard('not-a-fault')).toBe(false);
    expect(guard('toString')).toBe(false);
  });
});

describe('RECEIVER_FAULT_NAMES', () => {
  it('is RECEIVER_FAULTS\'s names, in its order', () => {
    expect(RECEIVER_FAULT_NAMES).toEqual(RECEIVER_FAULTS.map((f) => f.name));
  });
});
