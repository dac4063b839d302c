// GitHub Actions as a reporter of a run (docs/ci.md): the head of report.md (the verdict, the
// shared causes, the preflight, the failures) appended to the job's step summary
// (GITHUB_STEP_SUMMARY), and one `::error` workflow command per failing case, which GitHub shows
// as an annotation on the run. The report is already redacted: nothing here adds a secret.
import { appendFileSync } from 'node:fs';
import { failures, renderMarkdownHead } from '../report/index.ts';
import type { CaseResult, RunReport } from '../results/index.ts';
import type { RunReporter } from './reporter.ts';

export interface GitHubReporterOptions {
  /** The step summary file (GITHUB_STEP_SUMMARY); absent: no summary. */
  summaryFile?: string;
  /** Write `::error` workflow commands (GITHUB_ACTIONS=true). */
  annotations: boolean;
  /** Where workflow commands go (the runner reads them from the step's output). */
  stdout: (text: string) => void;
  /** Where a summary that could not be written is said. */
  stderr: (text: string) => void;
}

/** The reporter the environment asks for: GITHUB_STEP_SUMMARY set, GITHUB_ACTIONS=true; undefined outside GitHub Actions. */
export function gitHubReporterFor(env: Record<string, string | undefined>, io: Pick<GitHubReporterOptions, 'stdout' | 'stderr'>): RunReporter | undefined {
  const summaryFile = env.GITHUB_STEP_SUMMARY || undefined;
  const annotations = env.GITHUB_ACTIONS === 'true';
  if (summaryFile === undefined && !annotations) return undefined;
  return gitHubReporter({ ...io, annotations, ...(summaryFile !== undefined ? { summaryFile } : {}) });
}

export function gitHubReporter(options: GitHubReporterOptions): RunReporter {
  return {
    onEnd(report) {
      if (options.summaryFile !== undefined) {
        try {
          appendFileSync(options.summaryFile, `${renderMarkdownHead(report)}\n`);
        } catch (error) {
          options.stderr(`warning: the step summary (GITHUB_STEP_SUMMARY=${options.summaryFile}) could not be written: ${(error as Error).message}\n`);
        }
      }
      if (options.annotations) {
        for (const line of errorCommands(report)) options.stdout(`${line}\n`);
      }
    },
  };
}

/** One `::error title=…::message` per failing case (FAIL or ERROR, not waived), its shared cause named. */
export function errorCommands(report: RunReport): string[] {
  return failures(report).filter((c) => c.verdict === 'FAIL' || c.verdict === 'ERROR').filter((c) => !c.waiver?.applied).map((c) => {
    const causes = causesNamed(report, c);
    const message = `${c.reason ?? c.verdict}${causes.length > 0 ? ` (shared cause: ${causes.join('; ')})` : ''}`;
    return `::error title=${property(`${c.verdict} ${c.id} (${c.specRef})`)}::${data(message)}`;
  });
}

function causesNamed(report: RunReport, c: CaseResult): string[] {
  return (report.diagnoses ?? []).filter((d) => c.diagnoses?.includes(d.id) || d.cases.includes(c.id)).map((d) => d.id);
}

// GitHub's workflow-command escaping: a message's line breaks and `%`; a property's also `:` and `,`.
function data(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

function property(text: string): string {
  return data(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}
