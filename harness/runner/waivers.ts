// `--waivers FILE`: a known failure becomes a reported, visible waiver. The verdict stays what
// was observed; `waiver.applied` says whether it excuses the case from the exit status.
import { readFileSync } from 'node:fs';
import type { CaseResult } from '../results/index.ts';
import { idMatcher } from '../select/index.ts';
import { compileSchema, formatProblems, readJsonFile } from '../schemas/index.ts';

export interface WaiverEntry {
  id: string;
  reason: string;
  /** YYYY-MM-DD; the waiver applies through the end of that day (UTC). */
  expires?: string;
}

export class WaiverFileError extends Error {
  override readonly name = 'WaiverFileError';
  readonly code = 'ERR_WAIVERS_INVALID';
}

export const WAIVERS_SCHEMA = JSON.parse(readFileSync(new URL('./waivers.schema.json', import.meta.url), 'utf8')) as Record<string, unknown>;
// Checked at a run's start: compiled by the build.
const checkWaivers = compileSchema(WAIVERS_SCHEMA, { precompiled: new URL('./waivers.schema.check.cjs', import.meta.url) });

export function parseWaivers(value: unknown, source = 'waivers'): WaiverEntry[] {
  const problems = checkWaivers(value);
  if (problems.length > 0) throw new WaiverFileError(`${source}: invalid waiver file: ${formatProblems(problems)}`);
  const waivers = value as WaiverEntry[];
  const blanket = waivers.findIndex((w) => isBlanket(w.id) && w.expires === undefined);
  if (blanket >= 0) {
    throw new WaiverFileError(`${source}: invalid waiver file: /${blanket}/id: ${JSON.stringify(waivers[blanket]!.id)} waives every case for ever; `
      + 'name the cases, or give the waiver an "expires" date');
  }
  return waivers;
}

/** Only wildcards with at least one `*` (`*`, `**`, `?*`): matches every case id. */
export function isBlanket(id: string): boolean {
  return /^[*?]*\*[*?]*$/.test(id.trim());
}

/** An unknown key is named on its entry (`/0: unknown key "until"`), the entry being what the user looks for. */
export function loadWaiverFile(path: string): WaiverEntry[] {
  const read = readJsonFile(path);
  if (!read.ok) throw new WaiverFileError(`${path}: ${read.reason}`);
  return parseWaivers(read.value, path);
}

/** The waiver expired when `now` is after the end of its `expires` day, UTC. */
export function isExpired(waiver: WaiverEntry, now: Date): boolean {
  if (!waiver.expires) return false;
  return now.getTime() >= Date.parse(`${waiver.expires}T00:00:00Z`) + 86_400_000;
}

/** Attaches the first waiver naming the case, and says in the reason what it did. */
export function applyWaivers(result: CaseResult, waivers: readonly WaiverEntry[], now = new Date()): CaseResult {
  const waiver = waivers.find((w) => idMatcher(w.id)(result.id));
  if (!waiver) return result;
  const shown = { reason: waiver.reason, ...(waiver.expires ? { expires: waiver.expires } : {}) };
  const failing = result.verdict === 'FAIL' || result.verdict === 'ERROR' || result.verdict === 'WARN';
  if (isExpired(waiver, now)) {
    return { ...result, reason: joinReason(result.reason, `waiver expired on ${waiver.expires}: not applied`), waiver: { ...shown, applied: false } };
  }
  if (!failing) {
    const note = result.verdict === 'PASS' ? 'waiver not needed: the case passes' : 'waiver not needed';
    return { ...result, reason: joinReason(result.reason, note), waiver: { ...shown, applied: false } };
  }
  // The verdict and its reason stay as observed; the waiver field says it is excused.
  return { ...result, waiver: { ...shown, applied: true } };
}

function joinReason(reason: string | undefined, note: string): string {
  return reason ? `${reason} (${note})` : note;
}

/** Waivers that name no case of the run: worth a warning, since a typo hides nothing. */
export function unusedWaivers(waivers: readonly WaiverEntry[], ids: readonly string[]): WaiverEntry[] {
  return waivers.filter((w) => !ids.some((id) => idMatcher(w.id)(id)));
}
