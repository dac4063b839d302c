// Pure checks of one delivered callback against §4.3 and §6, so they can be tested on their own.
import { parseCallbackQuery, queryOf } from '../../callback/index.ts';

/** The raw value of the last `name=` parameter of a request target, undecoded. */
export function rawParam(rawUrl: string, name: string): string | undefined {
  let found: string | undefined;
  for (const part of queryOf(rawUrl).split('&')) {
    const eq = part.indexOf('=');
    if ((eq === -1 ? part : part.slice(0, eq)) === name) found = eq === -1 ? '' : part.slice(eq + 1);
  }
  return found;
}

/**
 * §6 Parameters: message is "URL-encoded (spaces as +)". Returns the problems found: a literal
 * space, a space written %20, a `%` not followed by two hex digits. [] when none.
 */
export function messageEncodingProblems(rawUrl: string): string[] {
  const raw = rawParam(rawUrl, 'message');
  if (raw === undefined) return ['the callback has no message parameter'];
  const problems: string[] = [];
  if (raw.includes(' ')) problems.push('message contains a literal space');
  if (/%20/i.test(raw)) problems.push('message writes spaces as %20, not +');
  if (/%(?![0-9A-Fa-f]{2})/.test(raw)) problems.push('message has a % not followed by two hex digits');
  return problems;
}

/** True when the decoded message has a space, i.e. the `+` rule was exercised. */
export function messageHasSpace(rawUrl: string): boolean {
  return (parseCallbackQuery(rawUrl).message ?? '').includes(' ');
}

/** `/cb/<tag>…` of a URL or request target: the part the listener sees whatever the host. */
export function fromCaseRoot(urlOrTarget: string): string {
  const at = urlOrTarget.indexOf('/cb/');
  return at === -1 ? urlOrTarget : urlOrTarget.slice(at);
}

/**
 * §6 URL composition: the supplied URL kept intact, then `?` (no query yet) or `&` (a query
 * already there), then the parameters. Returns the problems found; [] when composed correctly.
 */
export function compositionProblems(suppliedUrl: string, rawUrl: string): string[] {
  const supplied = fromCaseRoot(suppliedUrl);
  const received = fromCaseRoot(rawUrl);
  const separator = supplied.includes('?') ? '&' : '?';
  if (!received.startsWith(supplied)) {
    const problems = [`the request target does not start with the supplied URL (${supplied})`];
    const path = supplied.split('?')[0]!;
    if (supplied.includes('?') && received.startsWith(path)) problems.push('the query string of the supplied URL was dropped or changed');
    return problems;
  }
  const next = received.slice(supplied.length, supplied.length + 1);
  if (next !== separator) {
    return [`after the supplied URL comes ${JSON.stringify(next)}, expected ${JSON.stringify(separator)}`
      + (supplied.includes('?') ? ' (the URL already has a query string)' : ' (the URL has no query string)')];
  }
  const appended = parseCallbackQuery(`?${received.slice(supplied.length + 1)}`);
  const missing = (['transaction_id', 'status', 'message'] as const).filter((n) => appended[n] === undefined);
  return missing.length > 0 ? [`the appended parameters lack ${missing.join(', ')}`] : [];
}
