// A target that limits our request rate answers 429 Too Many Requests (RFC 6585), usually with
// Retry-After (Laravel's throttle, Symfony's RateLimiter, most API gateways): the request was not
// acted on, so it is waited out and sent once more before the case gives up on it. A 429 is
// neither an acceptance nor a rejection of what a case sent, so an answer that stays 429 is the
// case's ERROR naming the limit, never a verdict on the rule (counted as a rejection it would
// PASS a negative case whose rule was never exercised).
import { MAX_RETRY_AFTER_MS, type NoRetry, type Wire } from './case-wire.ts';

/**
 * Retry-After (RFC 9110 §10.2.3) in milliseconds from now: delay-seconds or an HTTP-date;
 * undefined when absent or unreadable. A value under a second ("0", a date just past) is read as
 * one second: the header counts whole seconds, so "0" means "within the second", not "now".
 */
export function retryAfterMs(value: string | readonly string[] | undefined, now = Date.now()): number | undefined {
  const text = (typeof value === 'string' ? value : value?.[0])?.trim();
  if (!text) return undefined;
  let ms: number;
  if (/^\d+$/.test(text)) ms = Number(text) * 1000;
  else {
    const at = Date.parse(text);
    if (Number.isNaN(at) || !/[a-z]/i.test(text)) return undefined;
    ms = at - now;
  }
  return Math.max(1000, ms);
}

/** What a client reads of an attempt's answer: its status and Retry-After (undefined: no answer). */
export interface ThrottleSignals {
  status: number;
  retryAfter: string | readonly string[] | undefined;
}

/** The attempt answered 429 and sent again. */
export interface Retried<T> {
  /** The attempt answered 429. */
  first: T;
  /** Its Retry-After, as sent. */
  retryAfter: string;
  /** From the 429 to the retry going on the wire. */
  waitedMs: number;
}

/** How a final 429 came about, for its ERROR's words (rateLimitedReason). */
export type FinalThrottle =
  | { kind: 'again'; retryAfter: string | undefined; waitedMs: number }
  /** No Retry-After, or one the harness cannot read (`unreadable`, as sent). */
  | { kind: 'no-retry-after'; unreadable?: string }
  | { kind: 'not-retried'; why: NoRetry; retryAfter: string };

export interface Sent<T> {
  /** The answer: the retry's when there was one. */
  result: T;
  retried?: Retried<T>;
  /** Set when the answer is still 429: what the harness did about it. */
  final429?: FinalThrottle;
}

function first(value: string | readonly string[] | undefined): string | undefined {
  return typeof value === 'string' ? value : value?.[0];
}

/**
 * Sends one exchange (`attempt(retry)` goes through `wire.exchange` and never throws for what
 * the target did); an answer 429 with a Retry-After the harness waits out is sent once more,
 * ahead of the exchanges waiting, once the Retry-After has passed (the wait is time at the
 * gate, so it does not count against the case's limits).
 */
export async function sendThrottled<T>(
  wire: Wire,
  attempt: (retry: boolean) => Promise<T>,
  signalsOf: (result: T) => ThrottleSignals | undefined,
): Promise<Sent<T>> {
  const result = await attempt(false);
  const signals = signalsOf(result);
  if (signals?.status !== 429) return { result };
  const retryAfter = first(signals.retryAfter);
  const waitMs = retryAfterMs(retryAfter);
  if (retryAfter === undefined || waitMs === undefined) {
    return { result, final429: { kind: 'no-retry-after', ...(retryAfter !== undefined ? { unreadable: retryAfter } : {}) } };
  }
  const noRetry = wire.throttled(waitMs);
  if (noRetry) return { result, final429: { kind: 'not-retried', why: noRetry, retryAfter } };
  const since = performance.now();
  const again = await attempt(true);
  const retried: Retried<T> = { first: result, retryAfter, waitedMs: Math.round(performance.now() - since) };
  const againSignals = signalsOf(again);
  if (againSignals?.status !== 429) return { result: again, retried };
  return { result: again, retried, final429: { kind: 'again', retryAfter: first(againSignals.retryAfter), waitedMs: retried.waitedMs } };
}

/** The label of an exchange's one retry after a 429, in its evidence. */
export function retryLabel(label: string | undefined): string {
  return label ? `${label} (sent again after 429)` : 'sent again after 429';
}

/** The words every final 429 shares (harness/diagnoses names them once as the run's cause). */
export const RATE_LIMITED = 'it limits the request rate';

/**
 * The ERROR of a case whose request stayed 429: `who` answered (`the service`), what the harness
 * did, and what to change. `pace` is the run's (`5/s`, `unpaced`).
 */
export function rateLimitedReason(who: string, final: FinalThrottle, pace: string): string {
  const lower = `run again with a lower --rate (this run: ${pace}; e.g. --rate 1/s for a limit of 60 requests a minute)`;
  switch (final.kind) {
    case 'again':
      return `${who} answered 429 Too Many Requests${final.retryAfter ? ` (Retry-After: ${final.retryAfter})` : ''} again after the harness waited out its Retry-After (${(final.waitedMs / 1000).toFixed(1)} s) and sent the request once more: ${RATE_LIMITED}, so this answer says nothing about the rule this case checks; ${lower}`;
    case 'no-retry-after':
      return `${who} answered 429 Too Many Requests ${final.unreadable !== undefined ? `with a Retry-After the harness cannot read (${JSON.stringify(final.unreadable)}: neither seconds nor an HTTP date)` : 'without a Retry-After'}, so it was not sent again: ${RATE_LIMITED}, so this answer says nothing about the rule this case checks; ${lower}`;
    case 'not-retried':
      switch (final.why) {
        case 'measuring':
          return `${who} answered 429 Too Many Requests (Retry-After: ${final.retryAfter}) to a request of this case's measurement, whose requests go at once (a burst sent again piecemeal would measure something else): ${RATE_LIMITED} below the burst this case measures with, so the measurement says nothing; allow the harness's address more requests at once in the test set-up`;
        case 'too-long':
          return `${who} answered 429 Too Many Requests (Retry-After: ${final.retryAfter}), longer than the ${MAX_RETRY_AFTER_MS / 1000} s the harness waits out: ${RATE_LIMITED}, so this answer says nothing about the rule this case checks; ${lower}`;
        case 'outside-a-run':
          return `${who} answered 429 Too Many Requests (Retry-After: ${final.retryAfter}): ${RATE_LIMITED}, so this answer says nothing about the rule this case checks`;
      }
  }
}
