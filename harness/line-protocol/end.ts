// The harness's end of a line protocol: lines sent, answer lines received in order, and the
// other side's exit. A child process (process.ts) and an in-process peer over a stream pair
// (in-process.ts) are both one of these, so the driver (driver.ts) treats them alike.

/** How the other side ended: an exit code or signal, a spawn error, or an in-process throw. */
export interface LineExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  spawnError?: string;
  /** An in-process peer that threw (or ended its output). */
  thrown?: string;
}

export type LineEvent = { type: 'line'; line: string } | { type: 'exit'; exit: LineExit } | { type: 'timeout' };

export interface LineEnd {
  readonly startedAt: number;
  /**
   * When its end was seen (Date.now()), once it has: how long it lived is read from this, not
   * from when the driver next looks (a command adopted after the start probe may have ended long
   * before its first request is sent, on a loaded machine seconds later).
   */
  readonly endedAt: number | undefined;
  /** Answers read from this instance (the driver counts them). */
  answered: number;
  /** Any output at all (even an empty line): a peer that wrote something has started. */
  readonly sawOutput: boolean;
  /** The stream on which the peer wrote a line longer than the limit (it was killed for it). */
  readonly overlong: 'stdout' | 'stderr' | undefined;
  readonly alive: boolean;
  send(line: string): void;
  /** The next answer line, the exit, or the time limit, whichever comes first. */
  next(timeoutMs: number): Promise<LineEvent>;
  /** The last lines of its diagnostics (stderr), for a reason. */
  lastStderr(): string;
  describeExit(exit: LineExit): string;
  /** Ends it now and waits (briefly) for the end to be seen. */
  stop(): Promise<void>;
  /** Ends its input, lets it finish within graceMs, then escalates. */
  close(graceMs: number): Promise<void>;
}

const STDERR_LINES_KEPT = 20;
const STDERR_LINES_SHOWN = 5;

/** The queue of answer lines and the exit, shared by both kinds of end. */
export abstract class LineQueue {
  readonly startedAt = Date.now();
  answered = 0;
  sawOutput = false;
  exit: LineExit | undefined;
  endedAt: number | undefined;
  private readonly lines: string[] = [];
  private readonly stderr: string[] = [];
  private wake: (() => void) | undefined;

  get alive(): boolean {
    return this.exit === undefined;
  }

  protected pushLine(line: string): void {
    this.sawOutput = true;
    if (line.trim() === '') return;
    this.lines.push(line);
    this.wake?.();
  }

  protected pushStderr(line: string): void {
    this.stderr.push(line);
    if (this.stderr.length > STDERR_LINES_KEPT) this.stderr.shift();
  }

  /** Records the end once; returns false when it was already recorded. */
  protected ended(exit: LineExit): boolean {
    if (this.exit) return false;
    this.exit = exit;
    this.endedAt = Date.now();
    this.wake?.();
    return true;
  }

  async next(timeoutMs: number): Promise<LineEvent> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const line = this.lines.shift();
      if (line !== undefined) return { type: 'line', line };
      if (this.exit) return { type: 'exit', exit: this.exit };
      const left = deadline - Date.now();
      if (left <= 0) return { type: 'timeout' };
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.wake = undefined;
    }
  }

  /**
   * The command's last stderr lines, whole: blank lines and stack frames left out, and the line
   * that names the error kept when it came before them (Node prints `Error: Cannot find module
   * './x.js'` above its stack and a dozen lines of detail).
   */
  lastStderr(): string {
    return stderrExcerpt(this.stderr);
  }

  describeExit(exit: LineExit): string {
    if (exit.spawnError) return `could not be spawned (${exit.spawnError})`;
    if (exit.thrown !== undefined) return exit.thrown;
    return exit.signal ? `was killed by ${exit.signal}` : `exited with code ${exit.code}`;
  }
}

/** A line that names what went wrong: an error's headline, a missing file. */
const ERROR_LINE = /\b(error|exception|traceback|not found|no such file|cannot|can't|unable|denied|refused)\b/i;

/** See LineEnd.lastStderr. */
export function stderrExcerpt(lines: readonly string[]): string {
  const kept = lines.filter((l) => l.trim() !== '' && !/^\s+at /.test(l) && !/^\s*\^+\s*$/.test(l));
  const tail = kept.slice(-STDERR_LINES_SHOWN);
  const headline = kept.slice(0, -STDERR_LINES_SHOWN).find((l) => ERROR_LINE.test(l));
  const shown = headline !== undefined ? [headline.trim(), '…', ...tail.map((l) => l.trim())] : tail.map((l) => l.trim());
  return shown.length === 0 ? 'no stderr output' : `last stderr: ${shown.join(' | ')}`;
}

export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

export async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let settled = false;
  await Promise.race([promise.then(() => (settled = true)), delay(ms)]);
  return settled;
}
