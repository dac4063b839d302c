// Fulfilment work (§6 rule 3: reply first, heavy work afterwards), tracked so that close()
// can finish what is in flight before the process exits.

export class WorkTracker {
  private readonly pending = new Set<Promise<void>>();

  /** Simulated fulfilment of one applied outcome: `ms` of waiting. */
  run(ms: number): Promise<void> {
    const job = new Promise<void>((resolve) => setTimeout(resolve, ms)).finally(() => {
      this.pending.delete(job);
    });
    this.pending.add(job);
    return job;
  }

  get inFlight(): number {
    return this.pending.size;
  }

  /** Resolves when no work is left, including work started while draining. */
  async drain(): Promise<void> {
    while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
  }
}
