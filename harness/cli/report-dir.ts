import { openReport, ReportError, type OpenReportOptions, type ReportSession } from '../report/index.ts';
import { UsageError } from './errors.ts';

/** A report directory that cannot be created is the user's to fix (exit 2), not a harness bug. */
export async function openReportDir(options: OpenReportOptions): Promise<ReportSession> {
  try {
    return await openReport(options);
  } catch (error) {
    if (error instanceof ReportError && error.code === 'ERR_REPORT_DIR') throw new UsageError(`--report-dir: ${error.message}`, error.code);
    throw error;
  }
}
