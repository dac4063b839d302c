// Report writers: one result model (harness/results), one file per format.
export { WRITERS, openReport, openReportFiles, reportBook, ReportError } from './session.ts';
export type { OpenReportOptions, ReportSession, ReportBook, ReportBookOptions, ReportFiles } from './session.ts';
export { REPORT_FILES, type ReportFile } from './writer.ts';
export { validateReportJson, REPORT_SCHEMA_PATH, jsonWriter } from './json.ts';
export { renderJunit, junitWriter } from './junit.ts';
export { renderMarkdown, renderMarkdownHead, markdownWriter, MARKDOWN_BUDGET } from './markdown.ts';
export { renderHtml, htmlWriter, timelineSvg } from './html.ts';
export { formatCaseLine, formatSummary, formatProgress } from './progress.ts';
export { outline, failures, headline, sideOf } from './outline.ts';
export type { SideOutline, GroupOutline, Headline } from './outline.ts';
export { printable } from './printable.ts';
export type { ProgressOptions, SummaryOptions, RunningState, RunningCase } from './progress.ts';
export { caseGroup, specSection, isWaived, waiverState } from './group.ts';
export type { WaiverState } from './group.ts';
export type { ReportWriter } from './writer.ts';
