// One side's run against one target, the layer under runConformance (issue 40): a resolved or
// started target (a target file loaded by resolveTarget, or the `target` of a reference started
// with its faults, timing and mode, e.g. startEmbeddedService({ faults })), its preflight, its
// cases with every negative case guarded by the preflight's controls, and the shared causes.
// runConformance calls it once per target (so the command, the library and the suites share
// one path), then writes the report; nothing here prints, writes or probes.
import { allCases, type ConformanceCase } from '../cases/index.ts';
import { randomSeed } from '../ids/index.ts';
import { diagnose } from '../diagnoses/index.ts';
import { runChecked, type CheckedRun, type CheckedRunOptions } from '../preflight/index.ts';
import type { Diagnosis } from '../results/index.ts';
import type { ResolvedTarget } from '../targets/index.ts';
import { onlyText } from './only.ts';

export interface RunSideOptions<T extends ResolvedTarget> extends Omit<CheckedRunOptions<T>, 'cases' | 'seed' | 'only'> {
  /** The cases to choose from (default: every case of the target's side). */
  cases?: readonly ConformanceCase<T>[];
  /** Case id globs (`service.auth.*`), as a list or comma-separated; default every one of `cases`. */
  only?: string | readonly string[];
  /** Seed of transaction ids and random values; default random. */
  seed?: number;
}

/** What one side's run hands back: the preflight (its controls, findings and result line), the results in case order, the shared causes. */
export interface SideRunResult extends CheckedRun {
  /** The shared causes of this side's run, preflight causes first (harness/diagnoses). */
  diagnoses: Diagnosis[];
  seed: number;
}

/**
 * Runs the side's preflight and cases against `target` and names the shared causes. What the
 * run holds (a listener, a bench, an observation) is closed at its end unless `resources` is
 * given; the target itself is the caller's to start and to close.
 */
export async function runSide<T extends ResolvedTarget>(options: RunSideOptions<T>): Promise<SideRunResult> {
  const { cases, only, seed = randomSeed(), ...rest } = options;
  const ids = onlyText(only);
  const checked = await runChecked({
    ...rest,
    cases: cases ?? (allCases().filter((c) => c.side === options.target.side) as ConformanceCase<T>[]),
    seed,
    ...(ids !== undefined ? { only: ids } : {}),
  });
  return { ...checked, diagnoses: diagnose([checked]), seed };
}
