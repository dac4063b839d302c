// The exported storm's files besides the processor: the Artillery script (YAML), the payload of
// planned deliveries (CSV, one row per delivery in the plan's send order) and `storm-plan.json`,
// what `storm --judge` needs to rebuild the plan and judge it (never the token).
import { closeSync, openSync, writeSync } from 'node:fs';
import type { TransactionIdShape } from '../ids/index.ts';
import type { StormPlan } from '../storm/index.ts';
import { PAYLOAD_FIELDS } from './processor.ts';

export const FILES = {
  script: 'storm.yml',
  payload: 'deliveries.csv',
  processor: 'processor.cjs',
  plan: 'storm-plan.json',
  deliveries: 'deliveries',
} as const;

export const PLAN_FORMAT = 'collect-conformance storm export 1';

/** `storm-plan.json`. */
export interface ExportedPlan {
  format: typeof PLAN_FORMAT;
  tool: { name: string; version: string };
  createdAt: string;
  callbackUrl: string;
  replyDeadlineMs: number;
  plan: { callbacks: number; ratePerS: number; duplicates: number; badTokensPct: number; seed: number; tag: string; lateGap: number; shape?: TransactionIdShape };
  /** Rows of the payload (every planned delivery once), the plan's slots (deliveries that take a slot of 1/rate), and the phase's length. */
  deliveries: number;
  slots: number;
  durationS: number;
  driver: { timeoutMs: number; maxAttempts: number; backoffMs: number; maxBackoffMs: number; timeScale: number };
  seeded: { count: number; first: string; last: string; through: string };
  tokenEnv: string;
  logDirEnv: string;
  hasToken: boolean;
}

/** One CSV field, quoted where it must be (RFC 4180). */
export function csvField(value: string | number): string {
  const text = String(value);
  return /[",\r\n]/.test(text) || text !== text.trim() ? `"${text.replace(/"/g, '""')}"` : text;
}

/** Writes the payload to `path`, streamed from the plan; the count of rows and of slots. */
export function writePayload(plan: StormPlan, path: string): { rows: number; slots: number } {
  const fd = openSync(path, 'w');
  try {
    let chunk = `${PAYLOAD_FIELDS.join(',')}\n`;
    let rows = 0;
    let slots = 0;
    for (const d of plan.stream()) {
      if (d.when !== 'at-once') slots += 1;
      chunk += `${[rows, d.index, d.copy, d.token, d.when, Math.round(d.atMs * 1000) / 1000, plan.idOf(d.index), plan.outcomeOf(d.index), plan.messageOf(d.index)].map(csvField).join(',')}\n`;
      rows += 1;
      if (chunk.length > 64 * 1024) {
        writeSync(fd, chunk);
        chunk = '';
      }
    }
    writeSync(fd, chunk);
    return { rows, slots };
  } finally {
    closeSync(fd);
  }
}

/**
 * The Artillery script: one phase that starts every row once (`arrivalCount`, spread evenly over
 * the plan's length: Artillery runs such a phase in one worker, which holds the whole payload, in
 * order), each virtual user one delivery and its retries.
 */
export function scriptOf(exported: ExportedPlan, banner: string): string {
  const q = (s: string) => JSON.stringify(s);
  const origin = new URL(exported.callbackUrl).origin;
  return `# ${banner}
# Run it: ${exported.tokenEnv}=… artillery run --output report.json ${FILES.script}
# then: collect-conformance storm --target <the same target file> --judge <this folder> --report-dir …
# Each virtual user is one planned delivery (a row of ${FILES.payload}) and its retries; the
# processor builds the callback URL (§6), reads the token from ${exported.tokenEnv}, and logs
# every attempt under ${FILES.deliveries}/ (or $${exported.logDirEnv}).
config:
  target: ${q(origin)}
  phases:
    - name: ${q(`storm: ${exported.deliveries} deliveries of ${exported.plan.callbacks} outcomes at ${exported.plan.ratePerS}/s`)}
      duration: ${exported.durationS}
      arrivalCount: ${exported.deliveries}
  payload:
    path: ${q(FILES.payload)}
    fields: [${PAYLOAD_FIELDS.map(q).join(', ')}]
    order: sequence
    skipHeader: true
    cast: false
  processor: ${q(`./${FILES.processor}`)}
  http:
    timeout: ${exported.driver.timeoutMs / 1000}
scenarios:
  - name: "callback"
    onError:
      - recordNoReply
    flow:
      - function: startDelivery
      - loop:
          - get:
              url: "/"
              beforeRequest: composeCallback
              afterResponse: recordReply
        whileTrue: sendAgain
`;
}
