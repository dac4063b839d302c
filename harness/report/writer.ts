// What every report format implements (in the manner of vitest's reporters: one file per
// format, the same small interface, only the parts it needs).
import type { RunReport } from '../results/index.ts';

/** The files of a report directory, in the order they are listed and written. */
export const REPORT_FILES = ['report.json', 'junit.xml', 'report.md', 'index.html'] as const;
export type ReportFile = (typeof REPORT_FILES)[number];

export interface ReportWriter {
  /** File name inside the report directory: the writer and its file are paired by this name. */
  readonly fileName: ReportFile;
  /** The whole file for the report as it stands (called again after every case). */
  render(report: RunReport): string;
}
