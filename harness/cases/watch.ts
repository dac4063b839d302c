// A target that dies or hangs mid-run: once several cases in a row got no answer at all to any
// request they sent (refused, reset, timed out), the cases still under way are stopped and the
// ones not started are not run, each ERROR naming that one cause, instead of every case waiting
// out its own time limits. One answer of any kind from the target starts the count again.
import type { CaseResult } from '../results/index.ts';

/** Cases in a row that got no answer at all before the rest stop. */
export const SILENT_CASES_TO_STOP = 3;

/** The error of the last request when a case ended ERROR without any answer to any request it sent. */
export function silenceOf(result: CaseResult): string | undefined {
  if (result.verdict !== 'ERROR') return undefined;
  const exchanges = result.evidence?.exchanges ?? [];
  if (exchanges.length === 0 || exchanges.some((e) => e.response !== undefined)) return undefined;
  return exchanges.at(-1)?.error ?? 'no answer';
}

export interface Stopped {
  /** What was observed: `3 cases in a row got no answer (the last: …)`. */
  cause: string;
  /** The silent cases and the cases stopped or not run because of them, in the order they ended. */
  cases: string[];
}

/** One per target, shared by its preflight and its cases. */
export class TargetWatch {
  private silentInARow: string[] = [];
  private readonly onStop = new Set<() => void>();
  private stoppedState: Stopped | undefined;

  /** Calls `stop` when the run gives up on the target (a case under way stops); returns the unsubscribe. */
  whenStopped(stop: () => void): () => void {
    this.onStop.add(stop);
    return () => this.onStop.delete(stop);
  }

  get stopped(): Stopped | undefined {
    return this.stoppedState;
  }

  /** The reason a stopped or unstarted case gets (after `stopped: ` or `not run: `). */
  get reason(): string | undefined {
    return this.stoppedState && `the target stopped answering: ${this.stoppedState.cause}; this case's own outcome could not be observed`;
  }

  /** Tells the watch how a case ended. */
  observe(result: CaseResult): void {
    if (this.stoppedState) {
      this.stoppedState.cases.push(result.id);
      return;
    }
    const silence = silenceOf(result);
    if (silence === undefined) {
      if (result.verdict !== 'SKIP') this.silentInARow = [];
      return;
    }
    this.silentInARow.push(result.id);
    if (this.silentInARow.length < SILENT_CASES_TO_STOP) return;
    this.stoppedState = {
      cause: `${this.silentInARow.length} cases in a row got no answer to any request they sent (the last: ${silence})`,
      cases: [...this.silentInARow],
    };
    for (const stop of [...this.onStop]) stop();
    this.onStop.clear();
  }
}
