// The terminal as a reporter of a run (harness/run): the first line (what, against what, the
// seed to repeat it), one line per case as results come (a status line on stderr while cases
// wait), the summary with the shared causes first, where the reports are, and after the embedded
// default the next command. Everything printed passes the run's redactor.
import { formatCaseLine, formatSummary } from '../report/index.ts';
import type { RunReporter, StopSignal } from '../run/index.ts';
import type { CaseResult } from '../results/index.ts';
import type { Redactor } from '../secrets/index.ts';
import { closingLines } from './next-steps.ts';
import { RunStatus } from './run-status.ts';
import { toolVersion } from '../tool/index.ts';

export interface TerminalIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  cwd: string;
  color: boolean;
  /**
   * stderr is a terminal: a live status line while cases wait (see run-status.ts); otherwise a
   * plain line now and then.
   */
  progress: boolean;
  /** Columns of the terminal, for the status line. */
  columns?: number;
}

export interface TerminalOptions {
  /** The report files written, for the summary (the report directory's reporter, told the end first). */
  files: () => readonly string[];
}

export function terminalReporter(io: TerminalIo, options: TerminalOptions): RunReporter {
  let status: RunStatus | undefined;
  let redactor: Redactor | undefined;
  let embedded = false;
  let stopped: StopSignal | undefined;
  const text = (line: string) => (redactor ? redactor.text(line) : line);
  const print = (result: CaseResult) => {
    const line = `${text(formatCaseLine(result, { color: io.color }))}\n`;
    if (status) status.around(() => io.stdout(line));
    else io.stdout(line);
  };
  return {
    onNotice(notice) {
      io.stderr(`${notice.level}: ${text(notice.text)}\n`);
    },
    onRunStart(start) {
      redactor = start.redactor;
      embedded = start.embedded;
      io.stdout(`collect-conformance ${toolVersion()}: ${start.cases.length} case(s) against ${start.against} (seed ${start.seed}; repeat with --seed ${start.seed}${start.paced.length > 0 ? `; requests paced at ${start.paced.join(', ')}` : ''})\n`);
      status = new RunStatus({ stderr: io.stderr, live: io.progress, ...(io.columns ? { width: io.columns - 1 } : {}) }, start.total);
    },
    onCaseStart: (id) => status?.started(id),
    onCaseProgress: (id, line) => status?.progress(id, line),
    onCaseEnd: (id) => status?.ended(id),
    onPreflight: print,
    onCaseResult: print,
    onDiagnoses() {
      status?.stop();
    },
    onStopping(signal) {
      stopped = signal;
      status?.stop();
      io.stderr(`collect-conformance: interrupted by ${signal}: stopping the run's commands and writing the reports (again to end at once)\n`);
    },
    onEnd(report) {
      status?.stop();
      io.stdout(`${text(formatSummary(report, options.files(), { color: io.color, cwd: io.cwd }))}\n`);
      if (stopped) return;
      for (const line of closingLines(options.files(), { cwd: io.cwd, embedded })) io.stdout(`${text(line)}\n`);
    },
    onClose() {
      status?.stop();
    },
  };
}
