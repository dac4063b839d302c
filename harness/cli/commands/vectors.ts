// `collect-conformance vectors`: every golden vector, one case each (`vectors.<file>.<tcId>`).
// Signature vectors go to the signer under test (built-in, or --signer over the line protocol);
// without --signer the callback-url and callback-query vectors also run, against the built-in
// composer and parser, so a plain `vectors` run checks the kit's whole reading of §5.1 and §6.
import { Command, Option } from 'commander';
import { resolve } from 'node:path';
import type { SetExitCode } from '../command.ts';
import { UsageError } from '../../tool/index.ts';
import { toolVersion } from '../../tool/index.ts';
import { formatCaseLine, formatSummary } from '../../report/index.ts';
import { colorFor } from '../color.ts';
import { exitCodeFor, type CaseResult } from '../../results/index.ts';
import { watchStopSignals } from '../interrupt.ts';
import { interruptedDiagnosis, onlyMatcher, openReportDir, SIGNAL_EXIT_STATUS, unfinishedResults, type PlannedCase } from '../../run/index.ts';
import { allowCommands, describeGreeting, settlesWithin, stopAllCommands } from '../../line-protocol/index.ts';
import {
  BuiltInSigner, ExternalSigner, VectorFileError, runVectors, loadVectorFile, vectorCaseId, signerSummary,
  type Signer, type VectorFileName,
} from '../../vectors/index.ts';

const PROTOCOL_HELP = `
Signer protocol (for --signer):
  The harness starts CMD with \`sh -c CMD\` and writes one JSON object per line on its stdin:
    {"id": "vectors.signature.17", "body": "<raw JSON body, the bytes sent>", "secret": "<secret key>"}
  The signer answers each line, in order, with one line on stdout:
    {"id": "vectors.signature.17", "message": "<canonical message>", "signature": "<lower-case hex HMAC-SHA256>"}
  or, for a body it refuses to sign:
    {"id": "vectors.signature.17", "error": "<why>"}
  stderr is free for logs. stdin is closed after the last vector; the signer should then exit.
  No answer within the time limit (5 s) is an ERROR (ERR_SIGNER_TIMEOUT); so are a line that is
  not a valid answer or carries another id (ERR_SIGNER_PROTOCOL), a signer that exits
  mid-run (ERR_SIGNER_CRASHED) or cannot start (ERR_SIGNER_START). After such a failure the
  signer is restarted for the remaining vectors; after 3 failures in a row (2 for a command
  that never starts) the rest are ERROR without being sent. The secrets in the vector files
  are published test values, not credentials.

Verdicts: a valid vector passes when message and signature match exactly; an invalid vector
passes when the signature differs from the presented (tampered) one; an acceptable vector
passes when it matches the suite's position or is refused, and is WARN when it follows a
labelled alternative (named in the reason; every one that fits, when several do) or none.
The run ends with the signer's deviations, once each (the alternatives it follows, by language:
php-string, python-str, ruby-to-s, utf16-order, ...), as the shared causes before the summary
line and as the diagnoses of report.json.

With --signer only the signature vectors run (the protocol covers signing); without it the
callback-url and callback-query vectors also run against the built-in composer and parser.`;

interface VectorsOptions {
  signer?: string;
  reportDir: string;
  only?: string;
  vectorsDir?: string;
  timeout: string;
}

export function vectorsCommand(setExitCode: SetExitCode): Command {
  return new Command('vectors')
    .description('run the golden vectors against the built-in signer or an external one (--signer)')
    .option('--signer <cmd>', 'signer command, run with sh -c and driven over the line protocol below')
    .option('--report-dir <dir>', 'where the reports go (report.json, junit.xml, report.md, index.html)', 'reports/latest')
    .option('--only <pattern>', 'run only the case ids matching these globs (comma-separated; * any run, ? one character)')
    .option('--vectors-dir <dir>', 'read the vector files from this folder instead of the package\'s vectors/')
    .addOption(new Option('--timeout <ms>', 'time limit per vector for --signer, in milliseconds').default('5000'))
    .addHelpText('after', PROTOCOL_HELP)
    .action(async (options: VectorsOptions) => {
      setExitCode(await runVectorsCommand(options));
    });
}

async function runVectorsCommand(options: VectorsOptions): Promise<number> {
  const timeoutMs = Number(options.timeout);
  if (!Number.isInteger(timeoutMs) || timeoutMs <= 0) throw new UsageError(`--timeout must be a positive integer of milliseconds, got ${JSON.stringify(options.timeout)}`);
  if (options.signer !== undefined && options.signer.trim() === '') throw new UsageError('--signer is empty; give the command that runs your signer');

  const notice = (line: string) => process.stderr.write(`collect-conformance vectors: ${line}\n`);
  const signer: Signer = options.signer === undefined
    ? new BuiltInSigner()
    : new ExternalSigner(options.signer, { timeoutMs, onNotice: notice });
  const files: VectorFileName[] = options.signer === undefined ? ['signature', 'callback-url', 'callback-query'] : ['signature'];
  const include = onlyMatcher(options.only);
  const dir = options.vectorsDir === undefined ? undefined : resolve(options.vectorsDir);

  // Load (and validate) before opening the report, so a bad vector folder is a usage error.
  let planned: Omit<PlannedCase, 'side'>[];
  try {
    planned = plannedVectors(files, include, dir);
  } catch (error) {
    if (error instanceof VectorFileError) throw new UsageError(error.message, error.code);
    throw error;
  }
  if (planned.length === 0) {
    let onlyCallback = false;
    try {
      onlyCallback = options.signer !== undefined && countPlanned(['callback-url', 'callback-query'], include, dir) > 0;
    } catch {
      // A --vectors-dir without callback files: the plain message below says enough.
    }
    throw new UsageError(onlyCallback
      ? `--only ${JSON.stringify(options.only ?? '')} selects callback vectors, and with --signer only the signature vectors run (the protocol covers signing)`
      : `no vector matches --only ${JSON.stringify(options.only ?? '')} (case ids look like vectors.signature.17)`);
  }

  const target: Record<string, unknown> = { side: 'signer', command: signer.description };
  if (signer instanceof ExternalSigner) target.timeoutMs = timeoutMs;
  const report = await openReportDir({
    dir: resolve(options.reportDir),
    header: { tool: { name: 'collect-conformance', version: toolVersion() }, kind: 'vectors', target, startedAt: new Date().toISOString(), seed: 0 },
  });
  const color = colorFor(process.stdout, process.env);
  process.stdout.write(`${planned.length} vectors against ${signer instanceof ExternalSigner ? `signer \`${signer.description}\`` : 'the built-in signer'}\n`);

  // SIGINT and SIGTERM: the signer (its whole process group) is stopped, the report says what
  // finished and marks the rest ERROR, and the command ends 130 / 143 (harness/cli/interrupt.ts).
  const signals = watchStopSignals();
  const finished = new Set<string>();
  let current: { id: string; since: number } | undefined;
  let interrupted = false;
  const reportWrites: Promise<void>[] = [];
  let writeError: unknown;
  /** Every result's write done, its first failure thrown (a report file that cannot be written). */
  const allWritten = async () => {
    await Promise.all(reportWrites);
    if (writeError !== undefined) throw writeError;
  };
  const work = runVectors({
    signer,
    files,
    include: (id) => {
      // Asked just before the vector is sent: the one under way when a signal comes.
      if (include(id)) current = { id, since: performance.now() };
      return include(id);
    },
    ...(dir === undefined ? {} : { dir }),
    onResult: (result) => {
      if (interrupted) return;
      process.stdout.write(`${formatCaseLine(result, { color })}\n`);
      // Counted as written from here: a signal that comes during the write must not add it again.
      finished.add(result.id);
      // Not awaited: the session holds the result at once, and vectors that finish while a write
      // is under way share the next one (harness/report/session.ts). Awaited, each of the 125
      // vectors waited for all four files to be rendered and written again (about 10 s a run).
      reportWrites.push(report.add(result).catch((error: unknown) => { writeError ??= error; }));
    },
  });
  work.catch(() => {});
  let results: CaseResult[] = [];
  try {
    const first = await Promise.race([work.then((done) => ({ done })), signals.first]);
    if (!('done' in first)) {
      interrupted = true;
      process.stderr.write(`collect-conformance: interrupted by ${first.signal}: stopping the signer and writing the reports (again to end at once)\n`);
      await stopAllCommands(`the run was interrupted (${first.signal})`);
      const underWay = new Map(current && !finished.has(current.id) ? [[current.id, current.since]] : []);
      const notFinished = unfinishedResults(planned, finished, underWay, first.signal);
      await allWritten();
      for (const result of notFinished) await report.add(result);
      await report.setInterrupted({ signal: first.signal, at: first.at.toISOString(), notFinished: notFinished.map((r) => r.id) });
      if (notFinished.length > 0) await report.setDiagnoses([interruptedDiagnosis(first.signal, notFinished, planned.length, underWay)]);
      const { report: stopped, files: written } = await report.finish();
      process.stdout.write(`${formatSummary(stopped, written, { color })}\n`);
      return SIGNAL_EXIT_STATUS[first.signal];
    }
    results = first.done;
    // What the signer said to the hello, settled by now by the first exchange (never waited for
    // before the run: a silent signer would hold the report directory's lock back).
    if (signer instanceof ExternalSigner) process.stdout.write(`the signer speaks ${describeGreeting(await signer.greeting())}\n`);
  } finally {
    signals.dispose();
    if (interrupted) {
      await settlesWithin(signer.close(), 1000);
      allowCommands();
    } else {
      await signer.close();
    }
  }
  // The signer's deviations, once each: the report's diagnoses, which formatSummary prints as the
  // "Shared causes" before the summary line, as every report format does. A vector that alone
  // was ambiguous, told apart by the others, is reported again naming the label settled on.
  await allWritten();
  if (files.includes('signature')) {
    const { diagnoses, settled } = signerSummary(results);
    await Promise.all(settled.map((result) => report.add(result)));
    await report.setDiagnoses(diagnoses);
  }
  const { report: finishedReport, files: written } = await report.finish();
  process.stdout.write(`${formatSummary(finishedReport, written, { color })}\n`);
  return exitCodeFor(finishedReport.cases);
}

function countPlanned(files: readonly VectorFileName[], include: (id: string) => boolean, dir: string | undefined): number {
  return plannedVectors(files, include, dir).length;
}

/** The vectors a run will send, as cases (a vector's level as its judge gives it: acceptable ones SHOULD). */
function plannedVectors(files: readonly VectorFileName[], include: (id: string) => boolean, dir: string | undefined): Omit<PlannedCase, 'side'>[] {
  const planned: Omit<PlannedCase, 'side'>[] = [];
  for (const name of files) {
    const file = loadVectorFile(name, dir === undefined ? {} : { dir });
    for (const t of file.tests) {
      const id = vectorCaseId(name, t.tcId);
      if (include(id)) planned.push({ id, title: t.comment, level: t.result === 'acceptable' ? 'SHOULD' : 'MUST', specRef: file.specRef });
    }
  }
  return planned;
}
