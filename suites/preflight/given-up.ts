// A target the run has given up on (harness/cases TargetWatch): a loopback server that resets
// every connection, and a watch that saw three cases in a row get no answer from it, asked
// whether it still answers, and stopped the run. A preflight or cases run with this watch meet
// a run that already named that cause.
import { createServer } from 'node:http';
import { TargetWatch } from '../../harness/runner/index.ts';
import type { CaseResult } from '../../harness/results/index.ts';
import { listenOn, originOf } from '../../harness/tool/index.ts';

export interface GivenUp {
  /** `http://127.0.0.1:PORT` of the server that resets every connection. */
  origin: string;
  watch: TargetWatch;
  close(): Promise<void>;
}

/** `silentIds`: the cases that got no answer before (they are the watch's, not the run's). */
export async function givenUpTarget(silentIds: readonly string[]): Promise<GivenUp> {
  const server = createServer((req) => req.socket.destroy());
  const origin = originOf(await listenOn(server, 0, '127.0.0.1'));
  const watch = new TargetWatch(async () => 'it resets every connection');
  const stopped = new Promise<void>((resolve) => watch.whenStopped(resolve));
  const silent = (id: string): CaseResult => ({
    id, title: id, level: 'MUST', specRef: '§6', verdict: 'ERROR', reason: 'the connection was reset before an answer', durationMs: 1,
    evidence: { exchanges: [{ request: { method: 'GET', url: origin, headers: {} }, error: 'reset' }] },
  });
  for (const id of silentIds) watch.observe(silent(id));
  await stopped;
  return {
    origin, watch,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
