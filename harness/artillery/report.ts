// Artillery's `--output` report, read for what the judgement uses: its aggregate counters and
// summaries. Artillery's numbers are evidence beside the records, never a verdict on their own;
// where no delivery logs came back (run-fargate, run-lambda), its custom counters are all the
// judgement has of the deliveries.
import { existsSync, readFileSync } from 'node:fs';
import { METRICS } from './processor.ts';
import type { ArtilleryEvidence, ArtillerySummary } from '../results/index.ts';

// The evidence's shape (harness/results), named once there.
export type { ArtillerySummary };

export interface ArtilleryReport {
  file: string;
  counters: Record<string, number>;
  summaries: Record<string, ArtillerySummary>;
  /** `collect.unanswered.<index>` counters: per id, valid deliveries that ended all their attempts without a 2xx. */
  unanswered: Map<number, number>;
}

export class ArtilleryReportError extends Error {
  override readonly name = 'ArtilleryReportError';
}

/** The report at `file`, or undefined when there is none. */
export function readArtilleryReport(file: string): ArtilleryReport | undefined {
  if (!existsSync(file)) return undefined;
  let json: { aggregate?: { counters?: Record<string, number>; summaries?: Record<string, Partial<ArtillerySummary>> } };
  try {
    json = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new ArtilleryReportError(`${file}: not JSON (${(error as Error).message}): give the file \`artillery run --output FILE\` wrote`);
  }
  if (!json.aggregate || typeof json.aggregate.counters !== 'object') throw new ArtilleryReportError(`${file}: no aggregate.counters: not the report of \`artillery run --output\``);
  const counters: Record<string, number> = {};
  const unanswered = new Map<number, number>();
  for (const [name, value] of Object.entries(json.aggregate.counters)) {
    if (name.startsWith(METRICS.unansweredPrefix)) unanswered.set(Number(name.slice(METRICS.unansweredPrefix.length)), value);
    else counters[name] = value;
  }
  const summaries: Record<string, ArtillerySummary> = {};
  for (const [name, s] of Object.entries(json.aggregate.summaries ?? {})) {
    summaries[name] = { count: s.count ?? 0, p50: s.p50 ?? Number.NaN, p99: s.p99 ?? Number.NaN, max: s.max ?? Number.NaN };
  }
  return { file, counters, summaries, unanswered };
}

/** What the evidence shows of a report: the counters that matter and the two latency summaries. */
export function reportEvidence(report: ArtilleryReport): ArtilleryEvidence {
  const counters = Object.fromEntries(Object.entries(report.counters).filter(([k]) => /^(http\.codes\.|http\.requests$|errors\.|vusers\.(created|completed|failed)$|collect\.)/.test(k)));
  const pick = (name: string) => report.summaries[name];
  return {
    counters: { ...counters, ...(report.unanswered.size > 0 ? { 'collect.unanswered (ids)': report.unanswered.size } : {}) },
    ...(pick(METRICS.deliveryMs) ? { [METRICS.deliveryMs]: pick(METRICS.deliveryMs) } : {}),
    ...(pick('http.response_time') ? { 'http.response_time': pick('http.response_time') } : {}),
  };
}
