// The report directory of `run` (a reporter of the run) and `vectors`: a directory that cannot be created or written is
// the user's to fix (exit 2, one line, no stack), and two runs never write into one directory
// at once (each would silently replace the other's files after every case).
import { linkSync, mkdirSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { openReport, openReportFiles, ReportError, type OpenReportOptions, type ReportFiles, type ReportSession } from '../report/index.ts';
import type { RunReporter } from './reporter.ts';
import { UsageError } from '../tool/index.ts';

/** Held while a run writes into the directory: `{"pid", "startedAt", "token", "processStart"?}` (LockOwner). */
export const LOCK_FILE = '.collect-conformance.lock';

export interface ReportDirSession extends ReportSession {
  /** Gives the directory back (also done by finish(), and at process exit). Idempotent. */
  release(): void;
}

/** Creates the directory and takes its lock; returns the release. */
function takeReportDir(dir: string): () => void {
  try {
    mkdirSync(dir, { recursive: true });
  } catch (error) {
    throw new UsageError(`--report-dir: cannot create report directory ${dir}: ${(error as Error).message}`, 'ERR_REPORT_DIR');
  }
  return lock(dir);
}

/** A report file that cannot be written is the user's to fix (exit 2). */
function asUsageError(error: unknown): unknown {
  if (error instanceof ReportError && (error.code === 'ERR_REPORT_DIR' || error.code === 'ERR_REPORT_WRITE')) {
    return new UsageError(`--report-dir: ${error.message}`, error.code);
  }
  return error;
}

export async function openReportDir(options: OpenReportOptions): Promise<ReportDirSession> {
  const release = takeReportDir(options.dir);
  let session: ReportSession;
  try {
    session = await openReport(options);
  } catch (error) {
    release();
    throw asUsageError(error);
  }
  return {
    add: (result) => session.add(result),
    setDiagnoses: (found) => session.setDiagnoses(found),
    addPreflight: (result) => session.addPreflight(result),
    setInterrupted: (interrupted) => session.setInterrupted(interrupted),
    async finish() {
      try {
        return await session.finish();
      } finally {
        release();
      }
    },
    release,
  };
}

/** The report directory as a reporter of a run: its files and where they are. */
export interface ReportDirReporter extends RunReporter {
  readonly dir: string;
  /** The files written (one per REPORT_FILES entry); empty until the run started writing. */
  readonly files: readonly string[];
}

/**
 * Writes the run's report into `dir` (report.json, junit.xml, report.md, index.html), rewritten
 * after every result, each file atomically, holding the directory's lock from the run's start to
 * its end (a directory another run holds is exit 2 naming it).
 */
export function reportDirReporter(dir: string): ReportDirReporter {
  let release: (() => void) | undefined;
  let out: ReportFiles | undefined;
  const write = async () => {
    try {
      await out?.write();
    } catch (error) {
      throw asUsageError(error);
    }
  };
  return {
    dir,
    get files() {
      return out?.files ?? [];
    },
    async onRunStart(start) {
      release = takeReportDir(dir);
      try {
        out = await openReportFiles(dir, start.report);
      } catch (error) {
        release();
        throw asUsageError(error);
      }
    },
    onPreflight: write,
    onCaseResult: write,
    onDiagnoses: write,
    onInterrupted: write,
    async onEnd() {
      try {
        await write();
      } finally {
        release?.();
      }
    },
    onClose() {
      release?.();
    },
  };
}

/**
 * Who holds a lock: a pid alone does not say (in a container the tool is often pid 1, in every
 * run; a pid is reused), so also a random token, and, where /proc tells it, when that process
 * started (`<boot id>:<start time in clock ticks>`).
 */
interface LockOwner {
  pid: number;
  startedAt?: string;
  token?: string;
  processStart?: string;
}

/** Tokens of the locks this process holds: a lock with our pid and another token is a dead run's. */
const heldHere = new Set<string>();

/**
 * Takes the directory's lock, or refuses (exit 2) naming the run that holds it. A lock whose
 * owner is gone (its pid is not alive, or is alive but started at another time: the pid was
 * reused) or is this process under a token it does not hold (a run before it, with the same pid)
 * is taken over.
 */
function lock(dir: string): () => void {
  const path = join(dir, LOCK_FILE);
  const token = randomBytes(12).toString('hex');
  const processStart = processStartOf(process.pid);
  const mine = JSON.stringify({ pid: process.pid, startedAt: new Date().toISOString(), token, ...(processStart ? { processStart } : {}) });
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      createWhole(path, mine, token);
      heldHere.add(token);
      let held = true;
      const release = () => {
        if (!held) return;
        held = false;
        heldHere.delete(token);
        process.off('exit', release);
        // Only our own lock: one taken over meanwhile (it should not be, but) stays its owner's.
        if (readOwner(path)?.token !== token) return;
        try {
          unlinkSync(path);
        } catch {
          // Already gone: nothing to give back.
        }
      };
      process.on('exit', release);
      return release;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'EEXIST') throw new UsageError(`--report-dir: cannot write in report directory ${dir}: ${(error as Error).message}`, 'ERR_REPORT_WRITE');
    }
    const holder = readOwner(path);
    if (holder !== undefined && holds(holder)) {
      throw new UsageError(
        `--report-dir: ${dir} is in use by another run (pid ${holder.pid}, started ${holder.startedAt ?? 'at an unknown time'}); `
        + `give this run its own --report-dir, or remove ${path} if that run is gone`,
        'ERR_REPORT_DIR_IN_USE',
      );
    }
    // The run that held it ended without giving it back (killed): take it over.
    try {
      unlinkSync(path);
    } catch {
      // Another run took it over first; the next attempt says so.
    }
  }
  throw new UsageError(`--report-dir: ${dir} is being taken by another run at this moment; give this run its own --report-dir`, 'ERR_REPORT_DIR_IN_USE');
}

/**
 * Creates `path` holding `text`, or throws EEXIST. Written beside it and linked into place, so a
 * run that finds the lock always reads it whole: a lock created empty and written after (flag
 * 'wx') would read as no owner to a second run in between, which would take over a live run's lock.
 * Where the file system has no hard links, the plain exclusive create.
 */
function createWhole(path: string, text: string, token: string): void {
  const staged = `${path}.${token}`;
  writeFileSync(staged, text);
  try {
    linkSync(staged, path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'ENOSYS') throw error;
    writeFileSync(path, text, { flag: 'wx' });
  } finally {
    rmSync(staged, { force: true });
  }
}

/** Whether the lock's owner still runs. */
function holds(owner: LockOwner): boolean {
  // Our pid: a run of this process holds it only under a token it holds; any other is a dead
  // run's that had our pid (pid 1 in a container, every time).
  if (owner.pid === process.pid) return owner.token !== undefined && heldHere.has(owner.token);
  if (!isAlive(owner.pid)) return false;
  // Alive, but another process than the one that wrote the lock: the pid was reused.
  const now = owner.processStart === undefined ? undefined : processStartOf(owner.pid);
  return now === undefined || now === owner.processStart;
}

function readOwner(path: string): LockOwner | undefined {
  try {
    const value = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
    if (!Number.isInteger(value.pid)) return undefined;
    const text = (key: string) => (typeof value[key] === 'string' ? { [key]: value[key] as string } : {});
    return { pid: value.pid as number, ...text('startedAt'), ...text('token'), ...text('processStart') };
  } catch {
    return undefined;
  }
}

/** `<boot id>:<start time>` of a process (Linux /proc), undefined where /proc does not say. */
function processStartOf(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Field 22, counted after the command name (in parentheses, which may hold spaces).
    const ticks = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
    const boot = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
    return ticks === undefined ? undefined : `${boot}:${ticks}`;
  } catch {
    return undefined;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
