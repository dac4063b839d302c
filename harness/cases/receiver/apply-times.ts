// How long a receiver took, over the run, to apply a valid callback after answering it. A
// receiver that answers first and applies from a queue (a job, a worker) acts on every callback
// that late, the ones it should have left alone too: a case that expects nothing to change waits
// as long before it reads the record (ReceiverProbe.quietMs), or it would read before the
// receiver had acted and PASS a receiver that applies a duplicate or an unknown status later.
// The cases start beside the preflight, whose valid callback is the first measure: a case about
// to read waits for that measure (`whenMeasured`) rather than read with none.
import type { ResolvedReceiverTarget } from '../../targets/index.ts';

interface UnderWay { done: Promise<void>; end: () => void }

export class ApplyTimes {
  private readonly longest = new Map<ResolvedReceiverTarget, number>();
  private readonly underWay = new Map<ResolvedReceiverTarget, UnderWay>();

  /** A measure of `target` is under way (the preflight's); the function returned ends it, measured or not. */
  beginMeasure(target: ResolvedReceiverTarget): () => void {
    let end!: () => void;
    const done = new Promise<void>((resolve) => { end = resolve; });
    this.underWay.set(target, { done, end });
    return end;
  }

  /** A valid callback to `target` was seen applied `ms` after its answer. */
  measured(target: ResolvedReceiverTarget, ms: number): void {
    this.longest.set(target, Math.max(ms, this.longestOf(target)));
    this.neverApplied(target);
  }

  /** A valid callback to `target` was waited for and never seen applied: nothing measured, the wait ends. */
  neverApplied(target: ResolvedReceiverTarget): void {
    this.underWay.get(target)?.end();
  }

  /** Resolves once no measure of `target` is under way. */
  whenMeasured(target: ResolvedReceiverTarget): Promise<void> {
    return this.underWay.get(target)?.done ?? Promise.resolve();
  }

  /** The longest seen for `target` so far in the run; 0 before any was seen. */
  longestOf(target: ResolvedReceiverTarget): number {
    return this.longest.get(target) ?? 0;
  }
}
