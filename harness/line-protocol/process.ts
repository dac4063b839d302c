// A command in any language as the other end of a line protocol: `sh -c CMD` in its own
// process group, stdout read line by line, the last stderr lines kept for reasons, a line
// without an end cut off at LINE_LIMIT, the exit seen after stdout drained.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createInterface } from 'node:readline';
import { delay, LineQueue, settlesWithin, type LineEnd, type LineExit } from './end.ts';

/** The longest line read from a command (stdout or stderr): one without an end is not kept growing. */
export const LINE_LIMIT = 1024 * 1024;

/**
 * How long after its process exits a command's output may still drain before its end is seen
 * anyway: a descendant out of its process group (a daemon) may hold its pipes for ever, and a
 * command that exits on the hello must be seen to exit (issue 37), not waited out.
 */
const EXIT_DRAIN_MS = 500;

export interface LineProcessOptions {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
}

/** Every command started here that has not ended: a signal to the harness stops them all (stopAllCommands). */
const running = new Set<LineProcess>();
/** Set while the harness is stopping (a signal came): no command is started meanwhile. */
let stopping: string | undefined;

/**
 * Stops every command this process started that still runs, each its whole process group
 * (SIGTERM, then SIGKILL after `graceMs`), and starts no new one until allowCommands(): a run
 * interrupted by SIGINT or SIGTERM leaves no adapter or signer behind (issue 22). Their own
 * process groups keep them from the terminal's Ctrl-C, so nobody else would stop them.
 */
export async function stopAllCommands(reason: string, graceMs = 500): Promise<void> {
  stopping = reason;
  const ends = [...running];
  for (const end of ends) end.kill('SIGTERM');
  await Promise.all(ends.map((end) => settlesWithin(end.exited, graceMs)));
  await Promise.all(ends.filter((end) => end.alive).map((end) => end.stop()));
}

/** Commands may be started again (after stopAllCommands). */
export function allowCommands(): void {
  stopping = undefined;
}

export class LineProcess extends LineQueue implements LineEnd {
  readonly child: ChildProcessWithoutNullStreams;
  overlong: 'stdout' | 'stderr' | undefined;
  readonly exited: Promise<LineExit>;
  // The command has its own process group, so it would outlive a harness that dies abruptly.
  private readonly killOnExit = () => this.kill('SIGKILL');

  constructor(command: string, options: LineProcessOptions = {}) {
    super();
    if (stopping !== undefined) throw new Error(`not started: ${stopping}`);
    // detached: its own process group, so a kill reaches what `sh` started too.
    this.child = spawn('sh', ['-c', command], { stdio: ['pipe', 'pipe', 'pipe'], detached: true, cwd: options.cwd, env: options.env ?? process.env });
    process.on('exit', this.killOnExit);
    running.add(this);
    this.child.stdin.on('error', () => {}); // EPIPE when the command is gone: seen as its exit.
    this.guardLineLength('stdout');
    this.guardLineLength('stderr');
    createInterface({ input: this.child.stdout, crlfDelay: Infinity }).on('line', (line) => this.pushLine(line));
    createInterface({ input: this.child.stderr, crlfDelay: Infinity }).on('line', (line) => this.pushStderr(line));
    this.exited = new Promise((resolve) => {
      this.done = (exit: LineExit) => {
        if (!this.ended(exit)) return;
        // What the command left in its group (a helper it started, then crashed) ends with it.
        this.killGroup('SIGKILL');
        running.delete(this);
        process.off('exit', this.killOnExit);
        resolve(exit);
      };
      // 'close' waits for stdout to drain, so a last answer is read before the exit is seen.
      this.child.on('close', (code, signal) => this.done({ code, signal }));
      // Unless a descendant holds the pipes: then the exit is seen a moment after it happened.
      this.child.on('exit', () => {
        setTimeout(() => {
          if (this.alive) this.letGo();
        }, EXIT_DRAIN_MS).unref();
      });
      this.child.on('error', (error) => this.done({ code: null, signal: null, spawnError: error.message }));
    });
  }

  private done: (exit: LineExit) => void = () => {};

  /**
   * readline keeps a line until its end: a command that writes without ever ending a line would
   * take the harness's memory with it. Past LINE_LIMIT bytes without a line end, it is killed
   * (and the driver says why).
   */
  private guardLineLength(stream: 'stdout' | 'stderr'): void {
    let sinceEnd = 0;
    this.child[stream].on('data', (chunk: Buffer) => {
      const end = Math.max(chunk.lastIndexOf(0x0a), chunk.lastIndexOf(0x0d));
      sinceEnd = end >= 0 ? chunk.length - end - 1 : sinceEnd + chunk.length;
      if (sinceEnd > LINE_LIMIT && this.overlong === undefined) {
        this.overlong = stream;
        this.kill('SIGKILL');
        this.child[stream].destroy();
      }
    });
  }

  send(line: string): void {
    if (this.alive && this.child.stdin.writable) this.child.stdin.write(line);
  }

  kill(signal: NodeJS.Signals): void {
    if (this.alive) this.killGroup(signal);
  }

  private killGroup(signal: NodeJS.Signals): void {
    if (this.child.pid === undefined) return;
    try {
      process.kill(-this.child.pid, signal);
    } catch {
      // The group is already gone.
    }
  }

  async stop(): Promise<void> {
    this.kill('SIGKILL');
    if (await settlesWithin(this.exited, 1000)) return;
    this.letGo();
  }

  async close(graceMs: number): Promise<void> {
    if (!this.alive) return;
    this.child.stdin.end();
    if (await settlesWithin(this.exited, graceMs)) return;
    this.kill('SIGTERM');
    if (await settlesWithin(this.exited, 500)) return;
    await this.stop();
  }

  /**
   * Its process group was killed, yet its pipes are still open: a descendant that left the group
   * (a daemon: setsid, a double fork) inherited them and holds them. Nothing more will be read;
   * the pipes are let go, so that the harness's own process can end (issue 22: a run that
   * printed its summary and never exited).
   */
  private letGo(): void {
    for (const stream of [this.child.stdin, this.child.stdout, this.child.stderr]) stream.destroy();
    this.child.unref();
    const { exitCode: code, signalCode: signal } = this.child;
    this.done({ code, signal, ...(code === null && signal === null ? { thrown: 'was let go: it did not end when killed' } : {}) });
  }
}
