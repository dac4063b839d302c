// `storm --judge DIR`: an exported storm judged after Artillery ran it. The plan is rebuilt from
// DIR/storm-plan.json, every record read back through the target's observation, and the five
// storm cases judged by the native storm's own judgement (harness/storm judgeStorm) on the
// processor's delivery logs: the same case ids, the same per-id histories. Artillery's report is
// evidence beside them. Where no delivery log came back (run-fargate and run-lambda keep their
// containers' files), the judgement rests on the records and the report's counters alone
// (report-only.ts), and says so.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { HttpClient } from '../http/index.ts';
import { defaultTimeouts } from '../runner/index.ts';
import { openObservation } from '../observe/index.ts';
import type { CaseResult } from '../results/index.ts';
import type { Redactor } from '../secrets/index.ts';
import { AttemptLog, judgeStorm, readStormRecords, stormObserveOf, StormPlan, StormSetupError, type JudgeInput } from '../storm/index.ts';
import type { ResolvedReceiverTarget } from '../targets/index.ts';
import { OPEN_WIRE } from '../wire/index.ts';
import { readDeliveryLogs, type DeliveryLogs } from './deliveries.ts';
import { LOG_DIR_ENV } from './processor.ts';
import { judgeOnReport } from './report-only.ts';
import { readArtilleryReport, reportEvidence, type ArtilleryReport } from './report.ts';
import { FILES, PLAN_FORMAT, type ExportedPlan } from './script.ts';

export interface ArtilleryJudgeOptions {
  target: ResolvedReceiverTarget;
  /** The export's folder. */
  dir: string;
  /** Artillery's `--output` report (default DIR/report.json). */
  reportFile?: string;
  /** The delivery logs' folder (default $COLLECT_STORM_LOG_DIR, else DIR/deliveries). */
  logDir?: string;
  env?: Record<string, string | undefined>;
  /** The quiet wait after the last reply before the records are read, and again before the ones still pending are read once more (default max(2000, 2 × deadline)). */
  settleMs?: number;
  concurrency?: number;
  redactor?: Redactor;
  cwd?: string;
  onPhase?: (phase: 'reading' | 'judging', detail: string) => void;
}

export interface ArtilleryJudgement {
  results: CaseResult[];
  plan: StormPlan;
  exported: ExportedPlan;
  logs?: DeliveryLogs;
  report?: ArtilleryReport;
}

/** DIR/storm-plan.json, and the plan it rebuilds (its ids checked against the ones seeded). */
export function readExport(dir: string): { exported: ExportedPlan; plan: StormPlan } {
  const file = join(dir, FILES.plan);
  if (!existsSync(file)) throw new StormSetupError('ERR_STORM_SETTINGS', `--judge ${dir}: no ${FILES.plan} there: give the folder \`storm --export artillery\` wrote`);
  let exported: ExportedPlan;
  try {
    exported = JSON.parse(readFileSync(file, 'utf8')) as ExportedPlan;
  } catch (error) {
    throw new StormSetupError('ERR_STORM_SETTINGS', `${file}: not JSON (${(error as Error).message})`);
  }
  if (exported.format !== PLAN_FORMAT) throw new StormSetupError('ERR_STORM_SETTINGS', `${file}: format ${JSON.stringify(exported.format)}, this kit reads ${JSON.stringify(PLAN_FORMAT)}`);
  const { shape, ...rest } = exported.plan;
  const plan = new StormPlan({ ...rest, ...(shape ? { shape } : {}) });
  if (plan.idOf(0) !== exported.seeded.first || plan.idOf(plan.callbacks - 1) !== exported.seeded.last) {
    throw new StormSetupError('ERR_STORM_SETTINGS', `${file}: its plan rebuilds ids ${plan.idOf(0)} … ${plan.idOf(plan.callbacks - 1)}, but ${exported.seeded.first} … ${exported.seeded.last} were seeded: the file was edited, or comes from another version of the kit`);
  }
  return { exported, plan };
}

export async function judgeArtillery(options: ArtilleryJudgeOptions): Promise<ArtilleryJudgement> {
  const { target, dir } = options;
  const observe = stormObserveOf(target);
  const { exported, plan } = readExport(dir);
  const reportFile = options.reportFile ?? join(dir, 'report.json');
  const report = readArtilleryReport(reportFile);
  const logDir = options.logDir ?? options.env?.[LOG_DIR_ENV] ?? join(dir, FILES.deliveries);
  const logs = readDeliveryLogs(logDir, plan);
  if (!logs && !report) {
    throw new StormSetupError('ERR_STORM_SETTINGS', `--judge ${dir}: neither delivery logs (${logDir}) nor Artillery's report (${reportFile}): run the script first (\`artillery run --output ${reportFile} ${join(dir, FILES.script)}\`)`);
  }
  const settleMs = options.settleMs ?? Math.max(2000, 2 * exported.replyDeadlineMs);
  const timeoutMs = defaultTimeouts(target).perRequestTimeoutMs;
  const observation = await openObservation(observe, { timeoutMs, ...(options.redactor ? { redactor: options.redactor } : {}), ...(options.cwd ? { cwd: options.cwd } : {}) });
  const http = new HttpClient({ requestTimeoutMs: timeoutMs, ...(target.caCert ? { caCert: target.caCert } : {}) });
  try {
    const observer = observation.forCase({ http, wire: OPEN_WIRE, signal: new AbortController().signal });
    // The receiver's quiet wait, counted from the last reply the logs saw (Artillery may have ended a while ago).
    const quietLeft = logs ? settleMs - (Date.now() - logs.lastEndAt) : 0;
    if (quietLeft > 0) await new Promise((resolve) => setTimeout(resolve, quietLeft));
    options.onPhase?.('reading', `${plan.callbacks} records through ${observation.describe}`);
    const delivered = (i: number) => (logs ? logs.delivered[i] === 1 : true);
    const { readings, way } = await readStormRecords(plan, observer, { sent: delivered, concurrency: options.concurrency ?? 16, settleMs });
    options.onPhase?.('judging', '');
    let notDelivered = 0;
    for (let i = 0; i < plan.callbacks; i++) if (!delivered(i) && !plan.isBadToken(i)) notDelivered += 1;
    const notes = [
      logs
        ? `driven by Artillery: ${logs.files.length} delivery ${logs.files.length === 1 ? 'log' : 'logs'}, the plan replayed ${logs.replays} ${logs.replays === 1 ? 'time' : 'times'} (each replay delivers every copy again: ${plan.duplicates} planned copies × ${logs.replays})`
        : `driven by Artillery, judged without delivery logs (none in ${logDir}): records and ${reportFile}'s counters only, no per-id delivery histories`,
      ...(exported.replyDeadlineMs !== target.timing.replyDeadlineMs ? [`judged against the export's deadline ${exported.replyDeadlineMs} ms (the target file now says ${target.timing.replyDeadlineMs} ms)`] : []),
      ...(report ? [] : [`no Artillery report at ${reportFile}: its counters are not in the evidence`]),
    ];
    const input: JudgeInput = {
      plan, log: logs?.log ?? new AttemptLog(16), readings, replyDeadlineMs: exported.replyDeadlineMs, maxAttempts: exported.driver.maxAttempts,
      countsActions: observation.can.actions, planned: delivered, durationMs: logs?.durationMs ?? 0, readWay: way,
      note: notes.join('; '), notDelivered,
      ...(report ? { engineEvidence: { artillery: reportEvidence(report) } } : {}),
    };
    const results = logs ? judgeStorm(input) : judgeOnReport(input, report!, exported);
    return { results, plan, exported, ...(logs ? { logs } : {}), ...(report ? { report } : {}) };
  } finally {
    await http.close();
    await observation.close();
  }
}
