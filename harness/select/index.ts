// `--only PATTERN` for `run` and `vectors`: comma-separated id globs, anchored at both ends.
// `*` is any run of characters (dots included), `?` one character; a pattern without
// wildcards also selects the group it names (`receiver.token` → its leaves).

export function globToRegExp(pattern: string): RegExp {
  const body = pattern.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.');
  return new RegExp(`^${body}$`, 'u');
}

/** A predicate for `--only a.*,b.1?`; `undefined` or an empty pattern matches everything. */
export function idMatcher(only: string | undefined): (id: string) => boolean {
  const patterns = (only ?? '').split(',').map((p) => p.trim()).filter(Boolean);
  if (patterns.length === 0) return () => true;
  const tests = patterns.map((p) => {
    if (/[*?]/.test(p)) {
      const re = globToRegExp(p);
      return (id: string) => re.test(id);
    }
    return (id: string) => id === p || id.startsWith(`${p}.`);
  });
  return (id) => tests.some((t) => t(id));
}
