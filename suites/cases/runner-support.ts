// What runner.test.ts and runner-concurrency.test.ts share: the reference receiver's timing, a
// synthetic case, a target nothing listens on.
import type { ConformanceCase } from '../../harness/cases/index.ts';
import type { CaseResult } from '../../harness/results/index.ts';
import type { ResolvedReceiverTarget } from '../../harness/targets/index.ts';

// A deadline with room for a 20-callback burst on a loaded 2-core machine (measured worst ~120 ms).
export const TIMING = { timeScale: 0.02, replyDeadlineMs: 1000 };

export function byId(results: readonly CaseResult[]): Record<string, CaseResult> {
  return Object.fromEntries(results.map((r) => [r.id, r]));
}

export function syntheticCase(id: string, run: ConformanceCase<ResolvedReceiverTarget>['run'], needs: ConformanceCase['needs'] = []): ConformanceCase<ResolvedReceiverTarget> {
  return { id, title: 'synthetic', specRef: '§0', level: 'MUST', side: 'receiver', needs, run };
}

export const blackBox: ResolvedReceiverTarget = { side: 'receiver', callbackUrl: 'http://127.0.0.1:9/cb', timing: { replyDeadlineMs: 300 } };
