// `--only` patterns: an id glob where `*` is any run of characters (dots included) and `?`
// one character; several patterns may be given separated by commas. Anchored at both ends.

export function globToRegExp(pattern: string): RegExp {
  let source = '';
  for (const ch of pattern) {
    if (ch === '*') source += '.*';
    else if (ch === '?') source += '.';
    else source += ch.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${source}$`, 'u');
}

/** A predicate for `--only a.*,b.1?`; `undefined` or an empty pattern matches everything. */
export function idMatcher(patterns: string | undefined): (id: string) => boolean {
  const list = (patterns ?? '').split(',').map((p) => p.trim()).filter((p) => p !== '');
  if (list.length === 0) return () => true;
  const regexps = list.map(globToRegExp);
  return (id) => regexps.some((re) => re.test(id));
}
