// `storm --export artillery DIR`: the same storm as the native one, for Artillery to drive. The
// records are seeded through the target's observation exactly as the native storm seeds them;
// then DIR gets the script, the payload of planned deliveries, the processor and storm-plan.json.
// The token is never written: the processor reads it from COLLECT_CALLBACK_TOKEN when it runs.
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { HttpClient } from '../http/index.ts';
import { defaultTimeouts } from '../runner/index.ts';
import { composeCallbackUrl } from '../callback/index.ts';
import { openObservation } from '../observe/index.ts';
import type { Redactor } from '../secrets/index.ts';
import { driverSettings, seedAll, settingsProblems, stormObserveOf, stormPlanFor, StormSetupError, tokenValue, TOKEN_KINDS, type StormPlan, type StormSettings } from '../storm/index.ts';
import type { ResolvedReceiverTarget } from '../targets/index.ts';
import { toolVersion } from '../tool/index.ts';
import { OPEN_WIRE } from '../wire/index.ts';
import { LOG_DIR_ENV, LOG_FIELDS, LOG_FORMAT, loadProcessorSource, METRICS, processorSource, TOKEN_ENV, type ProcessorSettings } from './processor.ts';
import { FILES, PLAN_FORMAT, scriptOf, writePayload, type ExportedPlan } from './script.ts';

export interface ArtilleryExportOptions {
  target: ResolvedReceiverTarget;
  settings: StormSettings;
  /** The folder to write; it must not exist or be empty. */
  dir: string;
  redactor?: Redactor;
  cwd?: string;
  signal?: AbortSignal;
  onPhase?: (phase: 'seeding' | 'writing', detail: string) => void;
}

export interface ArtilleryExport {
  plan: StormPlan;
  exported: ExportedPlan;
  /** The files written, relative to the folder. */
  files: string[];
}

const BANNER = (version: string) => `collect-conformance ${version} storm --export artillery (DESIGN.md "A callback storm"; docs/storm.md)`;

export async function exportArtillery(options: ArtilleryExportOptions): Promise<ArtilleryExport> {
  const { target, settings, dir } = options;
  const problems = settingsProblems(settings);
  if (problems.length > 0) throw new StormSetupError('ERR_STORM_SETTINGS', problems.join('; '));
  const observe = stormObserveOf(target);
  if (existsSync(dir) && readdirSync(dir).length > 0) {
    throw new StormSetupError('ERR_STORM_SETTINGS', `--export artillery ${dir}: the folder is not empty; an export writes a new folder (its payload and its seeded ids go together)`);
  }
  const plan = stormPlanFor(target, settings);
  const driver = driverSettings({ replyDeadlineMs: target.timing.replyDeadlineMs, ...settings.driver });
  const timeoutMs = defaultTimeouts(target).perRequestTimeoutMs;
  const observation = await openObservation(observe, { timeoutMs, ...(options.redactor ? { redactor: options.redactor } : {}), ...(options.cwd ? { cwd: options.cwd } : {}) });
  const http = new HttpClient({ requestTimeoutMs: timeoutMs, ...(target.caCert ? { caCert: target.caCert } : {}) });
  try {
    if (!observation.can.seed) throw new StormSetupError('ERR_STORM_TARGET', `the target's observation (${observation.describe}) cannot seed records (no observe.seed statement): the storm needs a pending record for each id`);
    const observer = observation.forCase({ http, wire: OPEN_WIRE, signal: new AbortController().signal });
    options.onPhase?.('seeding', `${plan.callbacks} records through ${observation.describe}`);
    await seedAll(plan, observer, { concurrency: settings.concurrency ?? 16, ...(options.signal ? { signal: options.signal } : {}) });
    if (options.signal?.aborted) throw new StormSetupError('ERR_STORM_SETTINGS', 'the export was interrupted while seeding: nothing written');

    const version = toolVersion();
    const processorSettings: ProcessorSettings = {
      callbackUrl: target.callbackUrl, hasToken: target.callbackToken !== undefined, tokenEnv: TOKEN_ENV, logDirEnv: LOG_DIR_ENV, runId: plan.tag,
      replyDeadlineMs: target.timing.replyDeadlineMs, timeoutMs: driver.timeoutMs, maxAttempts: driver.maxAttempts, backoffMs: driver.backoffMs,
      maxBackoffMs: driver.maxBackoffMs, timeScale: driver.timeScale, logFormat: LOG_FORMAT, logFields: LOG_FIELDS, metrics: METRICS,
    };
    const processor = processorSource(processorSettings, BANNER(version));
    checkProcessor(processor, plan, target.callbackUrl);

    options.onPhase?.('writing', dir);
    mkdirSync(dir, { recursive: true });
    const { rows, slots } = writePayload(plan, join(dir, FILES.payload));
    const exported: ExportedPlan = {
      format: PLAN_FORMAT,
      tool: { name: 'collect-conformance', version },
      createdAt: new Date().toISOString(),
      callbackUrl: options.redactor ? options.redactor.text(target.callbackUrl) : target.callbackUrl,
      replyDeadlineMs: target.timing.replyDeadlineMs,
      plan: {
        callbacks: plan.callbacks, ratePerS: plan.ratePerS, duplicates: plan.duplicates, badTokensPct: plan.badTokensPct, seed: plan.seed,
        tag: plan.tag, lateGap: plan.lateGap, ...(target.transactionIds ? { shape: target.transactionIds } : {}),
      },
      deliveries: rows,
      slots,
      durationS: Math.max(1, Math.ceil(slots / plan.ratePerS)),
      driver: { timeoutMs: driver.timeoutMs, maxAttempts: driver.maxAttempts, backoffMs: driver.backoffMs, maxBackoffMs: driver.maxBackoffMs, timeScale: driver.timeScale },
      seeded: { count: plan.callbacks, first: plan.idOf(0), last: plan.idOf(plan.callbacks - 1), through: observation.describe },
      tokenEnv: TOKEN_ENV,
      logDirEnv: LOG_DIR_ENV,
      hasToken: target.callbackToken !== undefined,
    };
    writeFileSync(join(dir, FILES.processor), processor);
    writeFileSync(join(dir, FILES.script), scriptOf(exported, BANNER(version)));
    writeFileSync(join(dir, FILES.plan), `${JSON.stringify(exported, null, 2)}\n`);
    return { plan, exported, files: [FILES.script, FILES.payload, FILES.processor, FILES.plan] };
  } finally {
    await http.close();
    await observation.close();
  }
}

/**
 * The processor as written composes the plan's first callbacks exactly as the kit does, and
 * presents every token kind as the native driver does (with a stand-in token): a transpiler that
 * renamed what the generated file relies on fails here, never in the user's Artillery run.
 */
function checkProcessor(source: string, plan: StormPlan, callbackUrl: string): void {
  const standIn = 'stand-in-token-for-the-check';
  const loaded = loadProcessorSource(source, { [TOKEN_ENV]: standIn }, createRequire(import.meta.url));
  for (let i = 0; i < Math.min(plan.callbacks, 8); i++) {
    const params = { transaction_id: plan.idOf(i), status: plan.outcomeOf(i), message: plan.messageOf(i) };
    const got = loaded.composeCallbackUrl(callbackUrl, params);
    if (got !== composeCallbackUrl(callbackUrl, params)) throw new Error(`the generated processor composes ${JSON.stringify(got)} for ${params.transaction_id}, not the kit's URL: its source did not survive generation`);
  }
  for (const kind of TOKEN_KINDS) {
    if (loaded.tokenValue(kind, standIn) !== tokenValue(kind, standIn)) throw new Error(`the generated processor presents a ${kind} token unlike the native storm`);
  }
}
