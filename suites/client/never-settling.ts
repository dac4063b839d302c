// The runs of an SDK that never settles on a refusal (fixtures/never-settling-adapter.mjs), shared
// by the files that split its cases between them so that their deadlines are waited out side by
// side, on three workers (unreported-numbers.test.ts: the four number cases; no-answer.test.ts:
// client.answers.no-answer; unreported-answers.test.ts: the rest). Its verdicts rest on each
// call's deadline.
import { CLIENT_CASES } from '../../harness/cases/index.ts';
import { runClientHere, scaledDeadlineMs, targetFile, type ClientRun } from './run-client.ts';

export const NEVER_SETTLING = 'node suites/client/fixtures/never-settling-adapter.mjs';

/** The collect cases whose numbers the service refuses (400) and this SDK never reports. */
export const NUMBER_CASES = ['client.collect.number-whole-float', 'client.collect.number-float-noise', 'client.collect.number-exponent', 'client.collect.number-large-integer'];

/**
 * The never-settling SDK's deadline (scaledDeadlineMs): waited out once per unreported refusal
 * (the adapter takes one call at a time) and, with the grace (at least 2 s), for no-answer. At
 * most 3 s: the 2 s fixed before it was scaled held at load 14, not at load 16 (an accepted call
 * after a restart went unreported, before and after the run came into this process). The call
 * after each hang goes to a restarted adapter (protocol 1: no hello), whose start-up counts within
 * its deadline.
 */
const DEADLINE_CEILING_MS = 3000;

export interface NeverSettlingRun {
  run: ClientRun;
  deadlineMs: number;
  /** A case's reason in the report. */
  reason: (id: string) => string;
}

/** A run of the cases `ids` against the never-settling SDK, with a scaled deadline. */
export async function runNeverSettling(ids: readonly string[]): Promise<NeverSettlingRun> {
  const unknown = ids.filter((id) => !CLIENT_CASES.some((c) => c.id === id));
  if (unknown.length > 0) throw new Error(`not client cases: ${unknown.join(', ')}`);
  const deadlineMs = await scaledDeadlineMs(DEADLINE_CEILING_MS);
  const run = await runClientHere(targetFile({ side: 'client', command: NEVER_SETTLING, timing: { answerDeadlineMs: deadlineMs } }), { only: ids.join(',') });
  const reason = (id: string): string => {
    const found = run.report?.cases.find((c) => c.id === id);
    if (found?.reason === undefined) throw new Error(`no reason for ${id} in the report (${run.stdout})`);
    return found.reason;
  };
  return { run, deadlineMs, reason };
}

/** The shared cause the hangs are named under, with the cases it names (sorted). */
export function refusalsUnreported(run: ClientRun): { summary: string; cases: string[] } | undefined {
  const cause = run.report?.diagnoses?.find((d) => d.id === 'client.refusals-unreported');
  return cause && { summary: cause.summary, cases: [...cause.cases].sort() };
}
