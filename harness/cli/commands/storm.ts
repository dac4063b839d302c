// `collect-conformance storm`: a receiver at production volume (DESIGN.md "A callback storm").
// Flags in, exit status out over the library's runStorm (harness/storm): the target's records
// seeded, the deliveries driven open-loop, the five storm cases judged on the records, the same
// four report files as `run`. Live progress on stderr; SIGINT / SIGTERM stop the storm and the
// report is still written (judged on the ids sent). Exit status as `run`: 0 pass, 1 FAIL/ERROR,
// 2 usage or target file, 3 unreachable, 130/143 signal. Without --target: the reference
// receiver embedded in this process (a demonstration; a real storm names a target file).
import { Command } from 'commander';
import { join, resolve } from 'node:path';
import { ARTILLERY_FILES, ArtilleryReportError, DeliveryLogError, exportArtillery, judgeArtillery, LOG_DIR_ENV, readExport, TOKEN_ENV } from '../../artillery/index.ts';
import { startEmbeddedReceiver, type EmbeddedReceiver } from '../../embedded/index.ts';
import { ObserveError } from '../../observe/index.ts';
import { formatCaseLine, formatSummary } from '../../report/index.ts';
import { exitCodeFor, type CaseResult } from '../../results/index.ts';
import { DEFAULT_REPORT_DIR, openReportDir, resolveTarget, SIGNAL_EXIT_STATUS } from '../../run/index.ts';
import { Redactor } from '../../secrets/index.ts';
import { runStorm, settingsProblems, StormSetupError, type DriveProgress, type StormSettings } from '../../storm/index.ts';
import { probeTarget, redactTarget, secretsOf, type ResolvedReceiverTarget } from '../../targets/index.ts';
import { TargetUnreachableError, toolVersion, UsageError } from '../../tool/index.ts';
import { watchStopSignals } from '../interrupt.ts';
import type { SetExitCode } from '../index.ts';
import { processIo, type RunIo } from './run.ts';

/** One machine, about a minute: 6,000 outcomes twice each at 200/s, 5 % of the ids with bad tokens. */
export const STORM_DEFAULTS = { callbacks: 6000, rate: 200, duplicates: 2, badTokens: 5, maxAttempts: 5, connections: 256 } as const;

export interface StormFlags {
  target?: string;
  callbacks?: string;
  rate?: string;
  duplicates?: string;
  badTokens?: string;
  seed?: string;
  maxAttempts?: string;
  connections?: string;
  reportDir?: string;
  /** `--export artillery DIR`: the engine and the folder. */
  export?: string[];
  /** `--judge DIR`: an exported storm, after Artillery ran it. */
  judge?: string;
  artilleryReport?: string;
  deliveryLogs?: string;
}

/** What `run` writes to and reads: stdout, stderr, the environment, the folder, the terminal. */
export type StormIo = RunIo;

export function stormCommand(setExitCode: SetExitCode): Command {
  return new Command('storm')
    .description('a callback storm against a receiver: duplicates, late copies and bad tokens at a rate, judged on its records')
    .option('--target <file>', 'a receiver target file with hooksUrl or observe (default: the reference receiver, in this process)')
    .option('--callbacks <n>', `transaction ids in the storm, each seeded pending (default: ${STORM_DEFAULTS.callbacks})`)
    .option('--rate <r>', `deliveries per second, open loop: N or N/s (default: ${STORM_DEFAULTS.rate})`)
    .option('--duplicates <k>', `copies of each callback, some at once, some long after (default: ${STORM_DEFAULTS.duplicates})`)
    .option('--bad-tokens <p>', `share of the ids that get only bad tokens, in % (default: ${STORM_DEFAULTS.badTokens})`)
    .option('--seed <n>', 'seed of the plan (default: random, printed)')
    .option('--max-attempts <n>', `attempts per delivery, retries included, as the service makes them (default: ${STORM_DEFAULTS.maxAttempts})`)
    .option('--connections <n>', `connections to the receiver at most (default: ${STORM_DEFAULTS.connections})`)
    .option('--report-dir <dir>', 'where the reports go', DEFAULT_REPORT_DIR)
    .option('--export <engine...>', 'artillery DIR: seed the records and write the same storm for Artillery into DIR (a script, the payload, a processor), instead of sending it')
    .option('--judge <dir>', 'judge a storm exported to DIR after Artillery ran it: the records, the processor\'s delivery logs, Artillery\'s report')
    .option('--artillery-report <file>', 'with --judge: Artillery\'s --output report (default: DIR/report.json)')
    .option('--delivery-logs <dir>', `with --judge: the processor's delivery logs (default: $${LOG_DIR_ENV}, else DIR/deliveries)`)
    .addHelpText('after', `
A backlog after an outage is the usual callback rate × the outage: 2 callbacks/s down for an
hour is 7,200. Verdicts: storm.exactly-once, storm.none-lost, storm.bad-token-inert,
storm.reply-deadline (MUST) and storm.shedding (SHOULD); see docs/storm.md.
Past one machine: --export artillery DIR, then \`artillery run\` (or run-fargate --count N
--secret ${TOKEN_ENV}) with the receiver's token in ${TOKEN_ENV}, then --judge DIR.`)
    .action(async (flags: StormFlags) => {
      setExitCode(await stormFromFlags(flags));
    });
}

function wholeNumber(flag: string, text: string | undefined, fallback: number): number {
  if (text === undefined) return fallback;
  if (!/^\d+$/.test(text.trim())) throw new UsageError(`${flag} must be a whole number (got ${JSON.stringify(text)})`);
  return Number(text.trim());
}

/** `200`, `200/s` or `12000/min`, in deliveries per second. */
export function parseStormRate(text: string | undefined): number {
  if (text === undefined) return STORM_DEFAULTS.rate;
  const m = /^\s*(\d+(?:\.\d+)?)\s*(?:\/\s*(s|min))?\s*$/.exec(text);
  if (!m || Number(m[1]) <= 0) throw new UsageError(`--rate must be deliveries per second: N, N/s or N/min, above 0 (got ${JSON.stringify(text)})`);
  return m[2] === 'min' ? Number(m[1]) / 60 : Number(m[1]);
}

export function settingsFromFlags(flags: StormFlags, randomSeed: () => number = () => Math.floor(Math.random() * 2 ** 31)): StormSettings {
  const badText = flags.badTokens?.replace(/%$/, '');
  const settings: StormSettings = {
    callbacks: wholeNumber('--callbacks', flags.callbacks, STORM_DEFAULTS.callbacks),
    ratePerS: parseStormRate(flags.rate),
    duplicates: wholeNumber('--duplicates', flags.duplicates, STORM_DEFAULTS.duplicates),
    badTokensPct: badText === undefined ? STORM_DEFAULTS.badTokens : Number(badText),
    seed: flags.seed === undefined ? randomSeed() : wholeNumber('--seed', flags.seed, 0),
    driver: {
      maxAttempts: wholeNumber('--max-attempts', flags.maxAttempts, STORM_DEFAULTS.maxAttempts),
      connections: wholeNumber('--connections', flags.connections, STORM_DEFAULTS.connections),
    },
  };
  if (badText !== undefined && !/^\d+(\.\d+)?$/.test(badText.trim())) throw new UsageError(`--bad-tokens must be a share in % from 0 to 100 (got ${JSON.stringify(flags.badTokens)})`);
  const problems = settingsProblems(settings);
  if (settings.driver!.maxAttempts! < 1) problems.push('--max-attempts must be 1 or more');
  if (settings.driver!.connections! < 1) problems.push('--connections must be 1 or more');
  if (problems.length > 0) throw new UsageError(problems.join('; '));
  return settings;
}

export function formatStormProgress(p: DriveProgress): string {
  const p99 = Number.isNaN(p.p99Ms) ? '–' : `${Math.round(p.p99Ms)} ms`;
  return `storm ${(p.elapsedMs / 1000).toFixed(0)} s: sent ${p.sent} (planned ${p.planned}), answered ${p.answered}, p99 so far ${p99}, errors ${p.errors}, retries ${p.retries}`;
}

/** What the command does: a native storm, an export for Artillery, or the judgement of one. */
export function stormModeOf(flags: StormFlags): { mode: 'storm' } | { mode: 'export'; dir: string } | { mode: 'judge'; dir: string } {
  if (flags.export !== undefined && flags.judge !== undefined) throw new UsageError('--export and --judge go in two commands: export, run Artillery, then judge');
  const artilleryOnly = flags.artilleryReport !== undefined ? '--artillery-report' : flags.deliveryLogs !== undefined ? '--delivery-logs' : undefined;
  if (artilleryOnly && flags.judge === undefined) throw new UsageError(`${artilleryOnly} goes with --judge DIR`);
  if (flags.export !== undefined) {
    const [engine, dir, ...rest] = flags.export;
    if (engine !== 'artillery' || dir === undefined || rest.length > 0) throw new UsageError(`--export takes an engine and a folder: --export artillery DIR (got ${JSON.stringify(flags.export.join(' '))}; artillery is the one engine)`);
    if (flags.target === undefined) throw new UsageError('--export needs --target: the records it seeds must still be there when Artillery runs and --judge reads them (the reference receiver inside this command ends with it)');
    return { mode: 'export', dir };
  }
  if (flags.judge !== undefined) {
    if (flags.target === undefined) throw new UsageError('--judge needs --target: the target file the storm was exported for, to read its records');
    const given = (['callbacks', 'rate', 'duplicates', 'badTokens', 'seed', 'maxAttempts', 'connections'] as const).find((k) => flags[k] !== undefined);
    if (given) throw new UsageError(`--${given.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)} does not go with --judge: the plan is the one exported (storm-plan.json)`);
    return { mode: 'judge', dir: flags.judge };
  }
  return { mode: 'storm' };
}

export async function stormFromFlags(flags: StormFlags, io: StormIo = processIo()): Promise<number> {
  const how = stormModeOf(flags);
  const settings = settingsFromFlags(flags);
  let embedded: EmbeddedReceiver | undefined;
  let target: ResolvedReceiverTarget;
  if (flags.target !== undefined) {
    const resolved = resolveTarget(flags.target, io.env, io.cwd);
    if (resolved.side !== 'receiver') throw new UsageError(`--target: ${flags.target} is a ${resolved.side} target; a storm is sent to a receiver`);
    if (!resolved.observe) throw new UsageError(`--target: ${flags.target} names neither hooksUrl nor observe: the storm's verdicts rest on the receiver's records (docs/observe.md)`);
    target = resolved;
  } else {
    embedded = await startEmbeddedReceiver();
    target = embedded.target;
  }
  const redactor = new Redactor(secretsOf(target));
  // A judgement's plan is the exported one: read (and refused) before anything else.
  let exportedSeed: number | undefined;
  try {
    if (how.mode === 'judge') exportedSeed = readExport(resolve(io.cwd, how.dir)).exported.plan.seed;
  } catch (error) {
    throw usageErrorOf(error, redactor);
  }
  const signals = watchStopSignals();
  const stop = new AbortController();
  void signals.first.then(() => stop.abort());
  try {
    try {
      await probeTarget(target);
    } catch (error) {
      if (error instanceof TargetUnreachableError) throw new TargetUnreachableError(redactor.text(error.message));
      throw error;
    }
    if (how.mode === 'export') {
      // Ctrl-C while seeding: nothing written, and the signal's exit status.
      return await exportFromFlags(target, settings, how.dir, flags.target!, redactor, stop.signal, io).catch((error: unknown) => {
        if (!signals.received) throw error;
        io.stderr(`${redactor.text((error as Error).message)}\n`);
        return SIGNAL_EXIT_STATUS[signals.received];
      });
    }
    const report = await openReportDir({
      dir: resolve(io.cwd, flags.reportDir ?? DEFAULT_REPORT_DIR),
      header: { tool: { name: 'collect-conformance', version: toolVersion() }, kind: 'storm', target: redactTarget(target), startedAt: new Date().toISOString(), seed: exportedSeed ?? settings.seed },
      redactor,
    });
    const where = embedded ? 'the embedded reference receiver (no --target)' : target.callbackUrl;
    const onPhase = (phase: string, detail: string) => io.stderr(`${io.progress ? '\r\x1b[K' : ''}${phase}${detail ? ` ${redactor.text(detail)}` : ''}\n`);
    const setupError = (error: unknown): never => {
      report.release();
      throw usageErrorOf(error, redactor);
    };
    let lastPrinted = 0;
    const run = how.mode === 'judge'
      ? await judgeFromFlags(target, resolve(io.cwd, how.dir), flags, { redactor, cwd: io.cwd, env: io.env, onPhase, stdout: io.stdout }).catch(setupError)
      : await (io.stdout(`storm: ${settings.callbacks} callbacks × ${settings.duplicates} at ${settings.ratePerS}/s, ${settings.badTokensPct} % of the ids with bad tokens, against ${redactor.text(where)} (seed ${settings.seed}; deadline ${target.timing.replyDeadlineMs} ms)\n`), runStorm({
      target, settings, signal: stop.signal, redactor, cwd: io.cwd, onPhase,
      onProgress: (p) => {
        if (io.progress) io.stderr(`\r\x1b[K${formatStormProgress(p)}`);
        else if (p.elapsedMs - lastPrinted >= 10_000) {
          lastPrinted = p.elapsedMs;
          io.stderr(`${formatStormProgress(p)}\n`);
        }
      },
    }).catch(setupError));
    if (io.progress) io.stderr('\n');
    for (const result of run.results) {
      await report.add(result);
      io.stdout(`${formatCaseLine(result, { color: io.color })}\n`);
    }
    const stoppedBy = signals.received;
    if (stoppedBy) await report.setInterrupted({ signal: stoppedBy, at: new Date().toISOString(), notFinished: [] });
    const { report: finished, files } = await report.finish();
    const phases = Object.entries(run.phases).map(([k, v]) => `${k} ${((v ?? 0) / 1000).toFixed(1)} s`).join(', ');
    io.stdout(`phases: ${phases}\n${formatSummary(finished, files, { color: io.color })}\n`);
    return stoppedBy ? SIGNAL_EXIT_STATUS[stoppedBy] : exitCodeFor(finished.cases);
  } finally {
    signals.dispose();
    await embedded?.close();
  }
}

/** A storm's setup problem (settings, target, its observation, an export's files) as exit 2, redacted; anything else as it is. */
function usageErrorOf(error: unknown, redactor: Redactor): unknown {
  if (error instanceof StormSetupError) return new UsageError(redactor.text(error.message), error.code);
  if (error instanceof ObserveError) return new UsageError(redactor.text(`the target's observation failed: ${error.message}`), error.code);
  if (error instanceof DeliveryLogError || error instanceof ArtilleryReportError) return new UsageError(redactor.text(error.message), 'ERR_STORM_SETTINGS');
  return error;
}

/** `--export artillery DIR`: the records seeded, the files written, the next two commands printed. Exit 0. */
async function exportFromFlags(target: ResolvedReceiverTarget, settings: StormSettings, shown: string, targetFile: string, redactor: Redactor, signal: AbortSignal, io: StormIo): Promise<number> {
  const done = await exportArtillery({
    target, settings, dir: resolve(io.cwd, shown), redactor, cwd: io.cwd, signal,
    onPhase: (phase, detail) => io.stderr(`${phase} ${redactor.text(detail)}\n`),
  }).catch((error: unknown) => {
    throw usageErrorOf(error, redactor);
  });
  const e = done.exported;
  io.stdout([
    `storm: exported for Artillery to ${shown}: ${e.plan.callbacks} callbacks × ${e.plan.duplicates} (${e.deliveries} deliveries, ${e.durationS} s at ${e.plan.ratePerS}/s), ${e.plan.badTokensPct} % of the ids with bad tokens, against ${redactor.text(target.callbackUrl)} (seed ${e.plan.seed}; deadline ${e.replyDeadlineMs} ms)`,
    `seeded ${e.seeded.count} records through ${redactor.text(e.seeded.through)}; wrote ${done.files.join(', ')} (no token: the processor reads it from ${TOKEN_ENV})`,
    'next:',
    `  ${TOKEN_ENV}=… artillery run --output ${join(shown, 'report.json')} ${join(shown, ARTILLERY_FILES.script)}`,
    `  collect-conformance storm --target ${targetFile} --judge ${shown}`,
    '',
  ].join('\n'));
  return 0;
}

/** `--judge DIR`: the five storm cases on the records and what Artillery and the processor left. */
async function judgeFromFlags(
  target: ResolvedReceiverTarget, dir: string, flags: StormFlags,
  options: { redactor: Redactor; cwd: string; env: Record<string, string | undefined>; onPhase: (phase: string, detail: string) => void; stdout: (text: string) => void },
): Promise<{ results: CaseResult[]; phases: Record<string, number> }> {
  const phases: Record<string, number> = {};
  let current: { phase: string; at: number } | undefined;
  const mark = (phase: string) => {
    const now = performance.now();
    if (current) phases[current.phase] = Math.round(now - current.at);
    current = { phase, at: now };
  };
  const { exported } = readExport(dir);
  options.stdout(`storm --judge: ${exported.plan.callbacks} callbacks × ${exported.plan.duplicates} exported at ${exported.plan.ratePerS}/s (seed ${exported.plan.seed}), against ${options.redactor.text(target.callbackUrl)} (deadline ${exported.replyDeadlineMs} ms)\n`);
  const judged = await judgeArtillery({
    target, dir, redactor: options.redactor, cwd: options.cwd, env: options.env,
    ...(flags.artilleryReport !== undefined ? { reportFile: resolve(options.cwd, flags.artilleryReport) } : {}),
    ...(flags.deliveryLogs !== undefined ? { logDir: resolve(options.cwd, flags.deliveryLogs) } : {}),
    onPhase: (phase, detail) => {
      mark(phase);
      options.onPhase(phase, detail);
    },
  });
  mark('end');
  return { results: judged.results, phases };
}
