// SIGINT and SIGTERM during a run (Ctrl-C, `timeout`, a cancelled CI job, `docker stop`): the
// run stops its commands (the SDK adapter, the signer: each its whole process group), writes
// what its reports can honestly say (the run was interrupted; the cases that had not finished
// are ERROR, never PASS), gives the report directory back and ends with 128 + the signal's
// number: 130 for SIGINT, 143 for SIGTERM. A second signal ends it at once.
import type { CaseResult, Diagnosis, Interrupted, Level } from '../results/index.ts';

export type StopSignal = Interrupted['signal'];

export const SIGNAL_EXIT_STATUS: Readonly<Record<StopSignal, number>> = { SIGINT: 130, SIGTERM: 143 };

export interface StopSignals {
  /** Resolves with the first signal and when it came. */
  readonly first: Promise<{ signal: StopSignal; at: Date }>;
  /** The first signal, once it came. */
  readonly received: StopSignal | undefined;
  /** Stops listening (the end of the run). */
  dispose(): void;
}

/** Listens for SIGINT and SIGTERM until disposed; a second one exits at once with its status. */
export function watchStopSignals(): StopSignals {
  let received: StopSignal | undefined;
  let resolveFirst: (value: { signal: StopSignal; at: Date }) => void = () => {};
  const first = new Promise<{ signal: StopSignal; at: Date }>((resolve) => {
    resolveFirst = resolve;
  });
  const on = (signal: StopSignal) => () => {
    if (received !== undefined) {
      // Asked twice: no more waiting. The exit handlers still kill the commands' groups and give the lock back.
      process.exit(SIGNAL_EXIT_STATUS[signal]);
    }
    received = signal;
    resolveFirst({ signal, at: new Date() });
  };
  const onInt = on('SIGINT');
  const onTerm = on('SIGTERM');
  process.on('SIGINT', onInt);
  process.on('SIGTERM', onTerm);
  return {
    first,
    get received() {
      return received;
    },
    dispose() {
      process.off('SIGINT', onInt);
      process.off('SIGTERM', onTerm);
    },
  };
}

const NOT_RUN = 'not run';

/** A case the run had planned: what an unfinished one's ERROR line needs. */
export interface PlannedCase {
  id: string;
  title: string;
  level: Level;
  specRef: string;
}

/**
 * ERROR for every planned case without a result: under way when the signal came (how long it
 * had run), or not started. Never PASS: its rule was not exercised to the end.
 */
export function unfinishedResults(
  planned: readonly PlannedCase[], finished: ReadonlySet<string>, underWay: ReadonlyMap<string, number>, signal: StopSignal, now = performance.now(),
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
export function interruptedDiagnosis(signal: StopSignal, notFinished: readonly CaseResult[], total: number): Diagnosis {
  const notStarted = notFinished.filter((r) => r.reason?.startsWith(NOT_RUN)).length;
  return {
    id: 'run.interrupted',
    summary: `the run was interrupted by ${signal}: ${notFinished.length} of ${total} cases had not finished `
      + `(${notFinished.length - notStarted} under way, ${notStarted} not started); they are ERROR, not PASS: their rules were not exercised to the end`,
    cases: notFinished.map((r) => r.id),
  };
}
