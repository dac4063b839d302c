// What a run tells as it goes, in the manner of vitest's reporters: one small interface, every
// hook optional, each reporter taking only what it needs. The report directory is one reporter
// (report-dir.ts), the terminal another (harness/cli), the vitest integration a third
// (harness/vitest). Hooks are called in the order the reporters are given, one after another,
// each awaited; a hook that throws ends the run with that error (the report directory's
// "cannot write" is exit 2).
import type { CaseResult, Diagnosis, Interrupted, Level, RunReport, Side } from '../results/index.ts';
import type { Redactor } from '../secrets/index.ts';

/** A selected case, as the run plans it. */
export interface PlannedCase {
  id: string;
  title: string;
  level: Level;
  specRef: string;
  side: Side;
}

/** The run begins its cases: the targets were reached, the report is begun. */
export interface RunStart {
  seed: number;
  /** The selected cases, in report order. */
  cases: readonly PlannedCase[];
  /** What the run is against: the target file's path, or "the embedded reference implementations". */
  against: string;
  /** The embedded reference implementations (no target given). */
  embedded: boolean;
  /** The paces of the targets' requests (`5/s`), when paced. */
  paced: readonly string[];
  /** What the run will tell results of: every case, and each side's preflight. */
  total: number;
  /** Every secret of the run's targets: text a reporter prints or writes passes it. */
  redactor: Redactor;
  /** The report as it stands (report.json's object), for a reporter that writes it out. */
  report(): RunReport;
}

/** A line for the person running: a waiver that waives nothing, a 429 waited out. */
export interface RunNotice {
  level: 'warning' | 'note';
  text: string;
}

export interface RunReporter {
  /** Before the cases (waivers naming no case, a blanket waiver) and after the end (429s waited out). */
  onNotice?(notice: RunNotice): void | Promise<void>;
  onRunStart?(start: RunStart): void | Promise<void>;
  /** A case (or a preflight) got its slot and started; then what it waits for now; then it ended. */
  onCaseStart?(id: string): void;
  onCaseProgress?(id: string, line: string): void;
  onCaseEnd?(id: string): void;
  /** A side's preflight, before any of its cases' results. */
  onPreflight?(result: CaseResult): void | Promise<void>;
  /** A case's result, in report order (already redacted, as the report keeps it). */
  onCaseResult?(result: CaseResult): void | Promise<void>;
  /** The shared causes, once the cases are done (only when there are some). */
  onDiagnoses?(diagnoses: readonly Diagnosis[]): void | Promise<void>;
  /** A stop request came: the run stops its commands and writes what it can. */
  onStopping?(signal: Interrupted['signal']): void | Promise<void>;
  /** The run was interrupted: the cases that had not finished are ERROR (in the report, not told one by one). */
  onInterrupted?(interrupted: Interrupted, unfinished: readonly CaseResult[]): void | Promise<void>;
  /** The report is complete (finishedAt set): the object runConformance resolves with. */
  onEnd?(report: RunReport): void | Promise<void>;
  /** The run is over, however it ended (a thrown error included): give back what is held. */
  onClose?(): void;
}

/** The reporters as one: each hook called on each reporter in turn, awaited. */
export function allOf(reporters: readonly RunReporter[]): Required<RunReporter> {
  const each = <K extends keyof RunReporter>(hook: K) => async (...args: Parameters<NonNullable<RunReporter[K]>>): Promise<void> => {
    for (const r of reporters) await (r[hook] as ((...a: typeof args) => void | Promise<void>) | undefined)?.apply(r, args);
  };
  const sync = <K extends 'onCaseStart' | 'onCaseProgress' | 'onCaseEnd'>(hook: K) => (...args: Parameters<NonNullable<RunReporter[K]>>): void => {
    for (const r of reporters) (r[hook] as ((...a: typeof args) => void) | undefined)?.apply(r, args);
  };
  return {
    onNotice: each('onNotice'),
    onRunStart: each('onRunStart'),
    onCaseStart: sync('onCaseStart'),
    onCaseProgress: sync('onCaseProgress'),
    onCaseEnd: sync('onCaseEnd'),
    onPreflight: each('onPreflight'),
    onCaseResult: each('onCaseResult'),
    onDiagnoses: each('onDiagnoses'),
    onStopping: each('onStopping'),
    onInterrupted: each('onInterrupted'),
    onEnd: each('onEnd'),
    onClose: () => {
      // Every reporter gives back what it holds, whatever another one throws.
      for (const r of reporters) {
        try {
          r.onClose?.();
        } catch {
          // nothing more to do at the end
        }
      }
    },
  };
}
