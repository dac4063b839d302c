// Opening the run's observation of the way the target names: nothing to open for the hooks (a
// case's own HTTP client reads them), a pool for a database, a process for a command.
import type { Redactor } from '../secrets/index.ts';
import { CommandObservation } from './command.ts';
import { HooksObserver } from './hooks.ts';
import { abilitiesOf, type CaseUse, type Observation, type ObserveSpec } from './model.ts';
import { SqlObservation } from './sql.ts';

export interface OpenObservationOptions {
  /** Time limit of one statement or request, in ms (the run's per-request limit). */
  timeoutMs: number;
  /** Applied to what a command writes, before it is quoted. */
  redactor?: Redactor;
  /** Where an observer command starts when its target file does not say (default: the current directory). */
  cwd?: string;
  /** The shortest time a command gets to answer (default MIN_COMMAND_ANSWER_MS; the suites scale it down). */
  minCommandAnswerMs?: number;
}

/** The shortest time a command gets to answer: a JVM or `php artisan` takes a second to start. */
export const MIN_COMMAND_ANSWER_MS = 5000;

/** The time an observer command gets to answer: the per-request limit, but never less than `minMs`. */
export function commandAnswerLimitMs(timeoutMs: number, minMs = MIN_COMMAND_ANSWER_MS): number {
  return Math.max(minMs, timeoutMs);
}

export async function openObservation(spec: ObserveSpec, options: OpenObservationOptions): Promise<Observation> {
  switch (spec.kind) {
    case 'hooks':
      return {
        spec,
        can: abilitiesOf(spec),
        describe: `hooks (${spec.url})`,
        forCase: (use: CaseUse) => new HooksObserver(spec.url, use),
        close: async () => {},
      };
    case 'sql':
      return SqlObservation.open(spec, { statementTimeoutMs: options.timeoutMs });
    case 'command':
      return new CommandObservation(spec, {
        answerTimeoutMs: commandAnswerLimitMs(options.timeoutMs, options.minCommandAnswerMs),
        ...(options.redactor ? { redactor: options.redactor } : {}),
        ...(options.cwd ? { cwd: options.cwd } : {}),
      });
  }
}
