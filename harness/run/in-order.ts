/**
 * Output of runs that go at once, in the order of the runs: run i's entries are written at once
 * while every run before it has finished, kept until then otherwise.
 */
export class InOrder {
  private current = 0;
  private chain: Promise<void> = Promise.resolve();
  private readonly held: Array<Array<() => void | Promise<void>>>;
  private readonly finished: boolean[];

  constructor(count: number) {
    this.held = Array.from({ length: count }, () => []);
    this.finished = Array.from({ length: count }, () => false);
  }

  emit(run: number, write: () => void | Promise<void>): Promise<void> {
    if (run !== this.current) {
      this.held[run]!.push(write);
      return Promise.resolve();
    }
    this.chain = this.chain.then(write);
    return this.chain;
  }

  /** Writes everything held, in the order of the runs, as if every run had finished. */
  flush(): Promise<void> {
    for (let run = 0; run < this.finished.length; run++) void this.finish(run);
    return this.chain;
  }

  finish(run: number): Promise<void> {
    this.finished[run] = true;
    while (this.current < this.finished.length && this.finished[this.current]) {
      this.current++;
      for (const write of this.held[this.current]?.splice(0) ?? []) this.chain = this.chain.then(write);
    }
    return this.chain;
  }
}
