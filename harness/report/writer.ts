// What every report format implements (in the manner of vitest's reporters: one file per
// format, the same small interface, only the parts it needs).
import type { RunReport } from '../results/index.ts';

export interface ReportWriter {
  /** File name inside the report directory, one of REPORT_FILES. */
  readonly fileName: string;
  /** The whole file for the report as it stands (called again after every case). */
  render(report: RunReport): string;
}
