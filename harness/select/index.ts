// `--only PATTERN` for `run` and `vectors`, and waiver ids: comma-separated id globs, anchored
// at both ends. `*` is any run of characters (dots included), `?` one character; a pattern
// without wildcards also selects the group it names (`receiver.token` → its leaves).
//
// Matched by a two-pointer scan, never by a regular expression: a backtracking regex takes
// exponential time on `*?*?*?*?*?*?*?*?*?*?*X`, this takes at most pattern × id steps.

export class SelectError extends Error {
  override readonly name = 'SelectError';
  readonly code = 'ERR_ONLY_EMPTY';
}

/** Whether `id` matches the glob `pattern` (whole id; characters are code points). */
export function globMatch(pattern: string, id: string): boolean {
  const p = Array.from(pattern);
  const s = Array.from(id);
  let pi = 0;
  let si = 0;
  // Where the last `*` was seen, and the id position it currently stands for the end of.
  let star = -1;
  let starSi = 0;
  while (si < s.length) {
    if (pi < p.length && (p[pi] === '?' || (p[pi] !== '*' && p[pi] === s[si]))) {
      pi++;
      si++;
    } else if (pi < p.length && p[pi] === '*') {
      star = pi++;
      starSi = si;
    } else if (star >= 0) {
      // Let the last `*` take one more character and retry what follows it. Earlier stars
      // never need to move: the last one can absorb whatever they would have.
      pi = star + 1;
      si = ++starSi;
    } else {
      return false;
    }
  }
  while (pi < p.length && p[pi] === '*') pi++;
  return pi === p.length;
}

/** The patterns of `--only a.*,b.1?` (blank items dropped). */
export function onlyPatterns(only: string): string[] {
  return only.split(',').map((p) => p.trim()).filter(Boolean);
}

/**
 * A predicate for `--only a.*,b.1?`; `undefined` matches everything. A pattern with nothing in
 * it (`""`, `" , "`) throws SelectError: it is a mistake, not a request for every case.
 */
export function idMatcher(only: string | undefined): (id: string) => boolean {
  if (only === undefined) return () => true;
  const patterns = onlyPatterns(only);
  if (patterns.length === 0) throw new SelectError(`the pattern ${JSON.stringify(only)} names no case id (give an id, a group or a glob such as "receiver.token.*")`);
  const tests = patterns.map((p) => {
    if (p.includes('*') || p.includes('?')) return (id: string) => globMatch(p, id);
    return (id: string) => id === p || id.startsWith(`${p}.`);
  });
  return (id) => tests.some((t) => t(id));
}
