// What a run shows while its cases wait. On a terminal: one status line on stderr, redrawn in
// place every second (which cases are running, how long, what the longest waits for), cleared
// before each case line is written. Elsewhere (CI logs, pipes): no cursor movement, only a
// plain line now and then while cases are still under way.
import { formatProgress, printable, type RunningCase } from '../report/index.ts';

export interface StatusIo {
  stderr: (text: string) => void;
  /** stderr is a terminal: redraw in place. */
  live: boolean;
  /** Columns of the terminal (default 100). */
  width?: number;
}

const REDRAW_MS = 1000;
/** Without a terminal: one line at most this often, and only while cases run. */
export const PLAIN_STATUS_EVERY_MS = 30_000;
const CLEAR = '\r\u001b[K';

export class RunStatus {
  private readonly running = new Map<string, { since: number; doing?: string }>();
  private done = 0;
  private drawn = false;
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly io: StatusIo, private readonly total: number, private readonly now = () => performance.now()) {
    this.timer = setInterval(() => this.tick(), io.live ? REDRAW_MS : PLAIN_STATUS_EVERY_MS);
    this.timer.unref();
  }

  started(id: string): void {
    this.running.set(id, { since: this.now() });
  }

  progress(id: string, line: string): void {
    const entry = this.running.get(id);
    if (entry) entry.doing = printable(line);
  }

  ended(id: string): void {
    if (this.running.delete(id)) this.done++;
  }

  /** Writes a line of the run's own output with the status line out of its way. */
  around(write: () => void): void {
    if (this.drawn) this.io.stderr(CLEAR);
    this.drawn = false;
    write();
    if (this.io.live) this.draw();
  }

  stop(): void {
    clearInterval(this.timer);
    if (this.drawn) this.io.stderr(CLEAR);
    this.drawn = false;
  }

  line(): string {
    const now = this.now();
    const running: RunningCase[] = [...this.running].map(([id, r]) => ({ id, waitedMs: now - r.since, ...(r.doing ? { doing: r.doing } : {}) }));
    return formatProgress({ done: this.done, total: this.total, running }, { width: this.io.width ?? 100 });
  }

  private tick(): void {
    if (this.io.live) this.draw();
    else if (this.running.size > 0) this.io.stderr(`… ${this.line()}\n`);
  }

  private draw(): void {
    if (this.running.size === 0 && !this.drawn) return;
    this.io.stderr(`${CLEAR}${this.line()}`);
    this.drawn = true;
  }
}
