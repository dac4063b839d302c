// A report session: the files are rewritten after every finished case, each atomically (temp
// file, then rename), so a run that crashes or is killed leaves complete files for the cases
// that finished.
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { countVerdicts, type CaseResult, type Diagnosis, type Interrupted, type RunReport } from '../results/index.ts';
import type { Redactor } from '../secrets/index.ts';
import { htmlWriter } from './html.ts';
import { jsonWriter } from './json.ts';
import { junitWriter } from './junit.ts';
import { markdownWriter } from './markdown.ts';
import { jsonSafe } from './json-safe.ts';
import { deepFreeze } from './memo.ts';
import type { ReportWriter } from './writer.ts';

/** One writer per file of REPORT_FILES (writer.ts), in that order (suites/report/session.test.ts), each naming its file. */
export const WRITERS: readonly ReportWriter[] = [jsonWriter, junitWriter, markdownWriter, htmlWriter];

export interface OpenReportOptions {
  /** Created (recursively) when missing. */
  dir: string;
  /** Everything but the cases and the end: `tool`, `kind`, `target` (already redacted), `startedAt`, `seed`. */
  header: Omit<RunReport, 'summary' | 'cases' | 'finishedAt'>;
  /** Second line of defence: every case and the header pass through it before being written. */
  redactor?: Redactor;
}

export interface ReportSession {
  /**
   * Appends a finished case and rewrites every file. A case already added (same id) is
   * replaced in its place: a result revised once the run knows more (a vector whose ambiguity
   * the signer's summary settled).
   */
  add(result: CaseResult): Promise<void>;
  /** Sets the shared causes (shown before the cases) and rewrites every file. */
  setDiagnoses(diagnoses: readonly Diagnosis[]): Promise<void>;
  /** Adds a side's preflight (RunReport.preflights) and rewrites every file. */
  addPreflight(result: CaseResult): Promise<void>;
  /** Marks the run as interrupted by a signal (RunReport.interrupted) and rewrites every file. */
  setInterrupted(interrupted: Interrupted): Promise<void>;
  /** Sets finishedAt, writes the final files, returns the report and the files' paths. */
  finish(): Promise<{ report: RunReport; files: string[] }>;
}

export class ReportError extends Error {
  readonly code: 'ERR_REPORT_DIR' | 'ERR_REPORT_FINISHED' | 'ERR_REPORT_WRITE';
  constructor(code: ReportError['code'], message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ReportError';
    this.code = code;
  }
}

async function writeAtomically(path: string, content: string): Promise<void> {
  const temp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    await writeFile(temp, content, 'utf8');
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true });
    throw new ReportError('ERR_REPORT_WRITE', `cannot write report file ${path}: ${(error as Error).message}`, { cause: error });
  }
}

/** The case with the ids of the diagnoses naming it (CaseResult.diagnoses): the cases point to their shared cause. */
function pointedTo(c: CaseResult, diagnoses: readonly Diagnosis[]): CaseResult {
  const ids = diagnoses.filter((d) => d.cases.includes(c.id)).map((d) => d.id);
  return ids.length === 0 ? c : { ...c, diagnoses: [...new Set([...(c.diagnoses ?? []), ...ids])] };
}

/**
 * The report of a run as it grows, in memory: the cases (each redacted, made JSON-safe and frozen
 * as it is added), the preflights, the shared causes, the interruption; `snapshot()` is the
 * report.json object as it stands. A run as a library returns its last snapshot; a report
 * directory writes each one (openReportFiles).
 */
export interface ReportBook {
  /** Appends a finished case (one already added, same id, is replaced in its place); returns it as kept. */
  add(result: CaseResult): CaseResult;
  addPreflight(result: CaseResult): CaseResult;
  setDiagnoses(diagnoses: readonly Diagnosis[]): void;
  setInterrupted(interrupted: Interrupted): void;
  /** Sets finishedAt (once); nothing is added after. */
  finish(): RunReport;
  snapshot(): RunReport;
}

export interface ReportBookOptions {
  header: OpenReportOptions['header'];
  redactor?: Redactor;
  /** Where the report is written, named when a case comes after the end. */
  dir?: string;
}

export function reportBook(options: ReportBookOptions): ReportBook {
  const { redactor } = options;
  const safeHeader = jsonSafe(options.header);
  const header = redactor ? redactor.value(safeHeader) : safeHeader;
  const cases: CaseResult[] = [];
  const preflights: CaseResult[] = [];
  let diagnoses: Diagnosis[] = [];
  let interrupted: Interrupted | undefined;
  let finishedAt: string | undefined;
  const where = options.dir === undefined ? 'the report' : `report in ${options.dir}`;

  const snapshot = (): RunReport => ({
    tool: header.tool,
    kind: header.kind,
    target: header.target,
    startedAt: header.startedAt,
    ...(finishedAt === undefined ? {} : { finishedAt }),
    seed: header.seed,
    summary: countVerdicts(cases),
    ...(diagnoses.length > 0 ? { diagnoses: [...diagnoses] } : {}),
    ...(preflights.length > 0 ? { preflights: [...preflights] } : {}),
    cases: cases.map((c) => pointedTo(c, diagnoses)),
    ...(interrupted ? { interrupted } : {}),
  });

  // Frozen: a finished case never changes, and the writers may reuse what they rendered for it.
  const kept = (result: CaseResult): CaseResult => {
    // What the outcome stated is the diagnoses' (in memory), not the report's: its cases point to the diagnoses instead.
    const { stated: _stated, ...written } = result;
    const safe = jsonSafe(written);
    return deepFreeze(redactor ? redactor.value(safe) : safe);
  };

  return {
    add(result) {
      if (finishedAt !== undefined) throw new ReportError('ERR_REPORT_FINISHED', `${where} is finished; case ${result.id} was not added`);
      const at = cases.findIndex((c) => c.id === result.id);
      const k = kept(result);
      if (at === -1) cases.push(k);
      else cases[at] = k;
      return k;
    },
    addPreflight(result) {
      if (finishedAt !== undefined) throw new ReportError('ERR_REPORT_FINISHED', `${where} is finished; ${result.id} was not added`);
      const k = kept(result);
      preflights.push(k);
      return k;
    },
    setDiagnoses(found) {
      const safe = jsonSafe([...found]);
      diagnoses = deepFreeze(redactor ? redactor.value(safe) : safe);
    },
    setInterrupted(found) {
      interrupted = deepFreeze({ ...found, notFinished: [...found.notFinished] });
    },
    finish() {
      finishedAt ??= new Date().toISOString();
      return snapshot();
    },
    snapshot,
  };
}

/** A report directory's files, rewritten from the report as it stands (each write atomic). */
export interface ReportFiles {
  /** The files' paths, one per REPORT_FILES entry. */
  readonly files: readonly string[];
  /** Rewrites every file from a snapshot taken when the write starts. */
  write(): Promise<void>;
}

/** Creates the directory and writes the report as it stands: an empty report is still a valid one. */
export async function openReportFiles(dir: string, snapshot: () => RunReport): Promise<ReportFiles> {
  try {
    await mkdir(dir, { recursive: true });
  } catch (error) {
    throw new ReportError('ERR_REPORT_DIR', `cannot create report directory ${dir}: ${(error as Error).message}`, { cause: error });
  }
  const pathOf = (writer: ReportWriter): string => join(dir, writer.fileName);
  const files = WRITERS.map(pathOf);

  // Writes run one after another, so an older snapshot never lands after a newer one. Cases
  // added while a write is under way share the next write (which snapshots when it starts),
  // so a burst of parallel cases costs two writes, not one per case.
  let running: Promise<void> = Promise.resolve();
  let next: Promise<void> | undefined;

  const writeAll = async (report: RunReport): Promise<void> => {
    // In parallel: the files are independent, and each lands whole by its rename.
    await Promise.all(WRITERS.map((writer) => writeAtomically(pathOf(writer), writer.render(report))));
  };

  const write = (): Promise<void> => {
    if (next) return next;
    const scheduled = running.catch(() => undefined).then(() => {
      next = undefined;
      return writeAll(snapshot());
    });
    next = scheduled;
    running = scheduled;
    return scheduled;
  };

  await write();
  return { files, write };
}

export async function openReport(options: OpenReportOptions): Promise<ReportSession> {
  const { dir } = options;
  const book = reportBook({ header: options.header, dir, ...(options.redactor ? { redactor: options.redactor } : {}) });
  const out = await openReportFiles(dir, () => book.snapshot());
  return {
    async add(result: CaseResult): Promise<void> {
      book.add(result);
      await out.write();
    },
    async addPreflight(result: CaseResult): Promise<void> {
      book.addPreflight(result);
      await out.write();
    },
    async setDiagnoses(found: readonly Diagnosis[]): Promise<void> {
      book.setDiagnoses(found);
      await out.write();
    },
    async setInterrupted(found: Interrupted): Promise<void> {
      book.setInterrupted(found);
      await out.write();
    },
    async finish(): Promise<{ report: RunReport; files: string[] }> {
      book.finish();
      await out.write();
      return { report: book.snapshot(), files: [...out.files] };
    },
  };
}
