// A run stopped midway (SIGINT, SIGTERM: Ctrl-C, `timeout`, a cancelled CI job, `docker stop`,
// or a library caller's stop request): the run stops its commands (the SDK adapter, the signer:
// each its whole process group) and its report says what it honestly can: the run was
// interrupted, and the cases that had not finished are ERROR, never PASS. The command line turns
// it into 128 + the signal's number: 130 for SIGINT, 143 for SIGTERM (harness/cli/interrupt.ts
// listens for the signals).
import type { CaseResult, Diagnosis, Interrupted } from '../results/index.ts';
import type { PlannedCase } from './reporter.ts';

export type StopSignal = Interrupted['signal'];

export const SIGNAL_EXIT_STATUS: Readonly<Record<StopSignal, number>> = { SIGINT: 130, SIGTERM: 143 };

/** A request to stop a run: the signal it stands for, and when it came. */
export interface StopRequest {
  signal: StopSignal;
  at: Date;
}

/** A run stopped before its report was begun: there is nothing to report (the command ends 130 / 143). */
export class RunInterrupted extends Error {
  override readonly name = 'RunInterrupted';
  readonly code = 'ERR_RUN_INTERRUPTED';
  constructor(readonly signal: StopSignal) {
    super(`the run was interrupted (${signal}) before its report was begun`);
  }
}

const NOT_RUN = 'not run';

/**
 * ERROR for every planned case without a result: under way when the signal came (how long it
 * had run), or not started. Never PASS: its rule was not exercised to the end.
 */
export function unfinishedResults(
  planned: readonly Omit<PlannedCase, 'side'>[], finished: ReadonlySet<string>, underWay: ReadonlyMap<string, number>, signal: StopSignal, now = performance.now(),
): CaseResult[] {
  return planned.filter((c) => !finished.has(c.id)).map((c) => {
    const since = underWay.get(c.id);
    return {
      id: c.id, title: c.title, level: c.level, specRef: c.specRef, verdict: 'ERROR' as const,
      reason: since === undefined
        ? `${NOT_RUN}: the run was interrupted (${signal}) before this case started`
        : `interrupted (${signal}) while under way, after ${Math.round(now - since)} ms: no verdict`,
      durationMs: since === undefined ? 0 : Math.round(now - since),
    };
  });
}

/** The shared cause of the unfinished cases, named first in every report format. */
export function interruptedDiagnosis(signal: StopSignal, notFinished: readonly CaseResult[], total: number, underWay: ReadonlyMap<string, number>): Diagnosis {
  const notStarted = notFinished.filter((r) => !underWay.has(r.id)).length;
  return {
    id: 'run.interrupted',
    summary: `the run was interrupted by ${signal}: ${notFinished.length} of ${total} cases had not finished `
      + `(${notFinished.length - notStarted} under way, ${notStarted} not started); they are ERROR, not PASS: their rules were not exercised to the end`,
    cases: notFinished.map((r) => r.id),
  };
}
