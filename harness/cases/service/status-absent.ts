// A service without the status endpoint (§4.2 says it exists, not that every service or test
// double has it): a correctly signed status query for an accepted transaction answered 404 as a
// path no API has answers. Whoever meets that first (the preflight, or a status case, since the
// service side's cases start beside the preflight) asks the path beside it once per run; the
// answer is shared, so the status cases SKIP under one cause instead of each failing to read a
// status (harness/positions: status.endpoint-absent).
import type { RunResources } from '../resources.ts';

const probes = new WeakMap<RunResources, Map<string, Promise<string | undefined>>>();

/** The run's one probe of the target's status endpoint: started by `probe` the first time, shared after. */
export function sharedProbe(run: RunResources, baseUrl: string, probe: () => Promise<string | undefined>): Promise<string | undefined> {
  const byTarget = probes.get(run) ?? new Map<string, Promise<string | undefined>>();
  probes.set(run, byTarget);
  let found = byTarget.get(baseUrl);
  if (!found) {
    found = probe().catch(() => undefined);
    byTarget.set(baseUrl, found);
  }
  return found;
}

/** What a probe already under way or done found (undefined: none started, or the endpoint is there). */
export function probedAbsence(run: RunResources, baseUrl: string): Promise<string | undefined> {
  return probes.get(run)?.get(baseUrl) ?? Promise.resolve(undefined);
}
