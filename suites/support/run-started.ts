// The suites' one way to run a side against something they start (issue 40; as vitest's own
// tests call `runVitest`): a reference started with its faults, timing and mode, driven through
// runSide (the layer the command and the library go through too), and closed however the run
// ends. A suite that keeps its target open across tests calls runSide itself.
import { runSide, type RunSideOptions, type SideRunResult } from '../../harness/run/index.ts';
import type { ResolvedTarget } from '../../harness/targets/index.ts';

export interface Started<T extends ResolvedTarget> {
  target: T;
  close(): Promise<void>;
}

/** Starts the target (`start`), runs the side's cases against it with `options`, and closes it. */
export async function runStarted<T extends ResolvedTarget>(start: Promise<Started<T>>, options: Omit<RunSideOptions<T>, 'target'>): Promise<SideRunResult> {
  const started = await start;
  try {
    return await runSide({ ...options, target: started.target });
  } finally {
    await started.close();
  }
}
