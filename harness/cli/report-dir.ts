// The report directory of `run` and `vectors`: a directory that cannot be created or written is
// the user's to fix (exit 2, one line, no stack), and two runs never write into one directory
// at once (each would silently replace the other's files after every case).
import { mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openReport, ReportError, type OpenReportOptions, type ReportSession } from '../report/index.ts';
import { UsageError } from './errors.ts';

/** Held while a run writes into the directory: `{"pid": …, "startedAt": …}`. */
export const LOCK_FILE = '.collect-conformance.lock';

export interface ReportDirSession extends ReportSession {
  /** Gives the directory back (also done by finish(), and at process exit). Idempotent. */
  release(): void;
}

export async function openReportDir(options: OpenReportOptions): Promise<ReportDirSession> {
  try {
    mkdirSync(options.dir, { recursive: true });
  } catch (error) {
    throw new UsageError(`--report-dir: cannot create report directory ${options.dir}: ${(error as Error).message}`, 'ERR_REPORT_DIR');
  }
  const release = lock(options.dir);
  let session: ReportSession;
  try {
    session = await openReport(options);
  } catch (error) {
    release();
    if (error instanceof ReportError && (error.code === 'ERR_REPORT_DIR' || error.code === 'ERR_REPORT_WRITE')) {
      throw new UsageError(`--report-dir: ${error.message}`, error.code);
    }
    throw error;
  }
  return {
    add: (result) => session.add(result),
    setDiagnoses: (found) => session.setDiagnoses(found),
    addPreflight: (result) => session.addPreflight(result),
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

/** Takes the directory's lock, or refuses (exit 2) naming the run that holds it. A lock whose process is gone is taken over. */
function lock(dir: string): () => void {
  const path = join(dir, LOCK_FILE);
  const mine = JSON.stringify({ pid: process.pid, startedAt: new Date().toISOString() });
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(path, mine, { flag: 'wx' });
      let held = true;
      const release = () => {
        if (!held) return;
        held = false;
        process.off('exit', release);
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
    const holder = readHolder(path);
    if (holder !== undefined && isAlive(holder.pid)) {
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

function readHolder(path: string): { pid: number; startedAt?: string } | undefined {
  try {
    const value = JSON.parse(readFileSync(path, 'utf8')) as { pid?: unknown; startedAt?: unknown };
    if (!Number.isInteger(value.pid)) return undefined;
    return { pid: value.pid as number, ...(typeof value.startedAt === 'string' ? { startedAt: value.startedAt } : {}) };
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
