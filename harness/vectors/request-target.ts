// What an HTTP client puts on the request line for an absolute URL (RFC 9112 §3.2.1,
// origin-form): path and query, `/` when the path is empty, never the fragment. The authority
// ends at the first `/`, `?` or `#`, so a query holding `/` (`https://h?next=/done`) is no path.
export function requestTargetOf(url: string): string {
  const authority = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#]*/.exec(url);
  if (!authority) throw new Error(`not an absolute URL: ${url}`);
  let rest = url.slice(authority[0].length);
  const hashAt = rest.indexOf('#');
  if (hashAt !== -1) rest = rest.slice(0, hashAt);
  return rest.startsWith('/') ? rest : '/' + rest;
}
