// A target that dies or hangs mid-run: once several cases in a row got no answer at all to any
// request they sent (refused, reset, timed out), and a plain request to the target's front door
// gets none either, the cases still under way are stopped and the ones not started are not run,
// each ERROR naming that one cause, instead of every case waiting out its own time limits. One
// answer of any kind from the target starts the count again. The plain request keeps a target
// that is only slow (a loaded machine, many cases at once) from being given up on.
import type { CaseResult } from '../results/index.ts';
import { entryUrlOf, type ResolvedTarget } from '../targets/index.ts';
import { HttpClient } from '../http/index.ts';

/** Cases in a row that got no answer at all before the rest stop. */
export const SILENT_CASES_TO_STOP = 3;

/** The error of the last request when a case ended ERROR without any answer to any request it sent. */
export function silenceOf(result: CaseResult): string | undefined {
  if (result.verdict !== 'ERROR') return undefined;
  const exchanges = result.evidence?.exchanges ?? [];
  if (exchanges.length === 0 || exchanges.some((e) => e.response !== undefined)) return undefined;
  return exchanges.at(-1)!.error ?? 'no answer';
}

export interface Stopped {
  /** What was observed: `3 cases in a row got no answer (the last: …)`. */
  cause: string;
  /** The silent cases and the cases stopped or not run because of them, in the order they ended. */
  cases: string[];
}

/** Resolves undefined when the target answered anything, else with what went wrong. */
export type LivenessCheck = () => Promise<string | undefined>;

/**
 * A GET to the target's front door (callback URL, base URL), any HTTP status counting as an
 * answer, within `timeoutMs`. None for a client target: its adapter gives up on itself.
 */
export function livenessCheck(target: ResolvedTarget, timeoutMs: number): LivenessCheck | undefined {
  if (target.side === 'client') return undefined;
  return async () => {
    // Not through the wire gate: it is sent only once the target went silent, and must not wait behind a measurement of it.
    const http = new HttpClient({ requestTimeoutMs: timeoutMs, ...(target.caCert ? { caCert: target.caCert } : {}) });
    try {
      const result = await http.send({ label: 'is the target still answering?', url: entryUrlOf(target) });
      return result.ok ? undefined : `a plain GET ${new URL(entryUrlOf(target)).origin} got no answer either: ${result.failure.message}`;
    } finally {
      await http.close();
    }
  };
}

/** One per target, shared by its preflight and its cases. Without a liveness check it never stops a run. */
export class TargetWatch {
  private silentInARow: string[] = [];
  private readonly onStop = new Set<() => void>();
  private stoppedState: Stopped | undefined;
  private checking = false;

  constructor(private readonly alive?: LivenessCheck) {}

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
    if (this.silentInARow.length < SILENT_CASES_TO_STOP || this.checking || !this.alive) return;
    this.checking = true;
    const silent = [...this.silentInARow];
    void this.alive().then((problem) => {
      this.checking = false;
      // An answer: the target is slow, not gone; the count starts again.
      if (problem === undefined) return void this.silentInARow.splice(0, silent.length);
      // One check at a time (checking), and only a check stops the watch: it is not stopped yet.
      this.stoppedState = {
        cause: `${this.silentInARow.length} cases in a row got no answer to any request they sent (the last: ${silence}), and ${problem}`,
        cases: [...this.silentInARow],
      };
      for (const stop of [...this.onStop]) stop();
      this.onStop.clear();
    }, () => { this.checking = false; });
  }
}
