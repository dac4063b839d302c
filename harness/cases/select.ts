// `--only PATTERN`: comma-separated id globs. `*` is any run of characters, `?` one character;
// a pattern without wildcards also selects the group it names (`receiver.token` → its leaves).

export function globToRegExp(pattern: string): RegExp {
  const body = pattern.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.');
  return new RegExp(`^${body}$`);
}

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

export function selectCases<C extends { id: string }>(cases: readonly C[], only?: string): C[] {
  const matches = idMatcher(only);
  return cases.filter((c) => matches(c.id));
}
