// Which timing values a loaded target took from the defaults rather than from its file.
// DESIGN.md: "A deadline the target file sets (replyDeadlineMs) is a MUST for that run"; a
// defaulted one is only the suite's reading of "a few seconds" (§8).
import type { ResolvedTarget } from './types.ts';

export type DefaultableKey = 'timing.replyDeadlineMs' | 'timing.callbackTimeoutMs' | 'timing.retryWindowMs' | 'timing.answerDeadlineMs';

const defaultedOf = new WeakMap<ResolvedTarget, ReadonlySet<DefaultableKey>>();

export function rememberDefaults(target: ResolvedTarget, file: Record<string, unknown>): void {
  const timing = (file.timing ?? {}) as Record<string, unknown>;
  const keys: DefaultableKey[] = target.side === 'receiver' ? ['timing.replyDeadlineMs']
    : target.side === 'client' ? ['timing.answerDeadlineMs']
    : ['timing.callbackTimeoutMs', 'timing.retryWindowMs'];
  defaultedOf.set(target, new Set(keys.filter((key) => timing[key.slice('timing.'.length)] === undefined)));
}

/** True when a target loaded from a file left `key` out; false for targets built in memory. */
export function isDefaulted(target: ResolvedTarget, key: DefaultableKey): boolean {
  return defaultedOf.get(target)?.has(key) ?? false;
}
