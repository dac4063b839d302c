// §6 rule 1: X-Callback-Token absent or different from the configured value → 403, no action.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { ReceiverFault } from './faults.ts';

export type TokenVerdict = 'ok' | 'absent' | 'wrong' | 'repeated';

/**
 * Constant-time equality for strings of any length: both sides are hashed first, so
 * timingSafeEqual always compares 32 bytes and the time does not reveal the length or the
 * position of the first difference.
 */
export function tokensEqual(presented: string, configured: string): boolean {
  const a = createHash('sha256').update(presented, 'latin1').digest();
  const b = createHash('sha256').update(configured, 'latin1').digest();
  return timingSafeEqual(a, b) && presented.length === configured.length;
}

/**
 * Fault `stale-token`: the value the receiver still holds after the token was rotated in the
 * configuration. Derived from the configured one so it is stable per receiver, differs from
 * it, and no more guessable than it.
 */
export function staleTokenOf(configured: string): string {
  return `previous-${createHash('sha256').update(`stale:${configured}`, 'utf8').digest('hex').slice(0, 24)}`;
}

/** The exact spelling of §4.3; HTTP field names are case-insensitive (RFC 9110 §5.1). */
export const TOKEN_HEADER_NAME = 'X-Callback-Token';

/** One X-Callback-Token line as it arrived: its name in the letter case the client sent. */
export interface TokenLine {
  name: string;
  value: string;
}

/** Every X-Callback-Token line of a request, whatever the letter case of its name (from rawHeaders). */
export function tokenLines(rawHeaders: readonly string[]): TokenLine[] {
  const lines: TokenLine[] = [];
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    if (rawHeaders[i]!.toLowerCase() === TOKEN_HEADER_NAME.toLowerCase()) lines.push({ name: rawHeaders[i]!, value: rawHeaders[i + 1]! });
  }
  return lines;
}

/**
 * `lines` is the header as sent, one entry per occurrence (tokenLines of rawHeaders).
 * A header sent twice is not "the configured value" whatever its parts are: Node would join
 * it as "a, b", and accepting either part lets a second header smuggle the token in.
 * Node decodes header bytes as latin1 and strips surrounding spaces and tabs itself.
 */
export function checkToken(lines: readonly TokenLine[], configured: string, faults: ReadonlySet<ReceiverFault>): TokenVerdict {
  if (faults.has('no-token-check')) return 'ok';
  // fault: a lookup by the exact name (a plain dictionary of raw headers) misses x-callback-token
  const found = faults.has('case-sensitive-token-name') ? lines.filter((l) => l.name === TOKEN_HEADER_NAME) : lines;
  const values = found.map((l) => l.value);
  if (values.length === 0) return 'absent';
  if (faults.has('presence-only-token')) return 'ok';
  // fault: presence was checked ignoring case, the value only under the exact name
  if (faults.has('exact-name-value-check') && !found.some((l) => l.name === TOKEN_HEADER_NAME)) return 'ok';
  let presented: string;
  if (values.length > 1) {
    if (!faults.has('first-token-header')) return 'repeated';
    presented = values[0]!;                                          // fault: first value wins
  } else {
    presented = values[0]!;
  }
  // fault: compares with the value from before the rotation
  const expected = faults.has('stale-token') ? staleTokenOf(configured) : configured;
  if (faults.has('trimmed-token')) presented = presented.trim();     // fault: trims NBSP & co.
  if (faults.has('prefix-token-match')) return presented.startsWith(expected) ? 'ok' : 'wrong';
  if (faults.has('case-insensitive-token')) {
    return tokensEqual(presented.toLowerCase(), expected.toLowerCase()) ? 'ok' : 'wrong';
  }
  return tokensEqual(presented, expected) ? 'ok' : 'wrong';
}
