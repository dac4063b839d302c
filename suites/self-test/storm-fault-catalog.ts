// The receiver faults that show only at volume (issue 38): a new kind of entry, "passes run,
// caught by storm". storm-faults.test.ts runs every receiver case against each one (all PASS,
// like the fault-free receiver) and suites/storm runs a small storm against each (its storm case
// FAILs, the others PASS). Plain data; the fault table of docs/faults.md lists them too.
import type { ReceiverFault } from '../../harness/receiver/index.ts';

export interface StormFaultEntry {
  side: 'receiver';
  fault: ReceiverFault;
  /** Every case of `run` PASSes with the fault on. */
  run: 'PASS';
  /** The storm case that catches it (FAIL); every other storm case PASSes. */
  caseIds: [string];
  expect: 'FAIL';
  /** What the storm case's reason says. */
  reasonMentions: string;
}

export const STORM_FAULT_CATALOG: readonly StormFaultEntry[] = [
  { side: 'receiver', fault: 'recent-ids-dedupe', run: 'PASS', caseIds: ['storm.exactly-once'], expect: 'FAIL', reasonMentions: 'applied more than once' },
  { side: 'receiver', fault: 'pool-held-before-reply', run: 'PASS', caseIds: ['storm.reply-deadline'], expect: 'FAIL', reasonMentions: 'p99 of the valid deliveries' },
  { side: 'receiver', fault: 'dropping-work-queue', run: 'PASS', caseIds: ['storm.none-lost'], expect: 'FAIL', reasonMentions: 'answered 2xx and never applied' },
];
