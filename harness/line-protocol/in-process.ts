// A peer in this process as the other end of a line protocol, over a stream pair: the same
// lines, the same parsing and the same failure handling as a command, without a subprocess
// (the embedded default of `run` drives the reference SDK adapter this way).
import { PassThrough, type Readable, type Writable } from 'node:stream';
import { createInterface } from 'node:readline';
import { delay, LineQueue, settlesWithin, type LineEnd, type LineExit } from './end.ts';

/** The peer's side: read request lines from `input`, write answer lines to `output`; resolve when done. */
export type LinePeer = (io: { input: Readable; output: Writable; signal: AbortSignal }) => Promise<void>;

export class InProcessLineEnd extends LineQueue implements LineEnd {
  readonly overlong = undefined;
  private readonly toPeer = new PassThrough();
  private readonly fromPeer = new PassThrough();
  private readonly abort = new AbortController();
  private readonly finished: Promise<void>;

  constructor(peer: LinePeer) {
    super();
    createInterface({ input: this.fromPeer, crlfDelay: Infinity }).on('line', (line) => this.pushLine(line));
    this.finished = (async () => {
      // Started on the next turn, so a peer that throws at once is an exit, not a throw here.
      await Promise.resolve();
      return peer({ input: this.toPeer, output: this.fromPeer, signal: this.abort.signal });
    })().then(
      () => this.end({ code: 0, signal: null, thrown: 'ended its output' }),
      (error: unknown) => this.end({ code: null, signal: null, thrown: `threw ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}` }),
    );
  }

  /** Lines the peer wrote before it ended are read before the end is seen (as a process's 'close'). */
  private end(exit: LineExit): void {
    if (this.fromPeer.readableEnded || this.fromPeer.destroyed) {
      this.ended(exit);
      return;
    }
    this.fromPeer.once('end', () => this.ended(exit));
    if (!this.fromPeer.writableEnded) this.fromPeer.end();
  }

  send(line: string): void {
    if (this.alive && this.toPeer.writable) this.toPeer.write(line);
  }

  async stop(): Promise<void> {
    this.abort.abort();
    this.toPeer.destroy();
    this.ended({ code: null, signal: null, thrown: 'was stopped by the harness' });
    await Promise.race([this.finished, delay(100)]);
  }

  async close(graceMs: number): Promise<void> {
    if (!this.alive) return;
    this.toPeer.end();
    if (await settlesWithin(this.finished, graceMs)) return;
    await this.stop();
  }
}
