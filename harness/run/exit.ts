// DESIGN.md's exit status of a run's report: 130 / 143 when a signal stopped it, else 0 when no
// case is FAIL or ERROR (waived failures excepted), 1 otherwise.
import { exitCodeFor, type RunReport } from '../results/index.ts';
import { SIGNAL_EXIT_STATUS } from './interrupt.ts';

export function exitStatusOf(report: RunReport): number {
  return report.interrupted ? SIGNAL_EXIT_STATUS[report.interrupted.signal] : exitCodeFor(report.cases);
}
