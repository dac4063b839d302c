// The one shell command that reproduces a request of the harness (every exchange's `curl` line),
// with secrets replaced by the environment variables a user sets for a run (DESIGN.md: secrets
// never appear in output).

export interface CurlSecret {
  value: string;
  envName: string;
}

/** Single-quotes literal text for sh; secrets become "${ENV}" pieces glued to it. */
export function shellWord(value: string, secrets: readonly CurlSecret[] = []): string {
  const usable = secrets.filter((s) => s.value.length > 0).sort((a, b) => b.value.length - a.value.length);
  let out = '';
  let literal = '';
  const flush = () => {
    if (literal !== '') out += `'${literal.replace(/'/g, `'\\''`)}'`;
    literal = '';
  };
  let i = 0;
  outer: while (i < value.length) {
    for (const secret of usable) {
      if (value.startsWith(secret.value, i)) {
        flush();
        out += `"\${${secret.envName}}"`;
        i += secret.value.length;
        continue outer;
      }
    }
    literal += value[i];
    i++;
  }
  flush();
  return out === '' ? "''" : out;
}

/** One header line; `shell`, when given, is its whole `-H` word (e.g. `"X-Callback-Token: $TOKEN"`). */
export interface CurlHeader {
  name: string;
  value: string;
  shell?: string;
}

export interface CurlRequest {
  /** Default GET, which the line leaves implicit. */
  method?: string;
  url: string;
  headers?: Record<string, string> | readonly CurlHeader[];
  body?: string;
  /** `--max-time`, in whole seconds (at least 1), from a limit in milliseconds. */
  timeoutMs?: number;
  localAddress?: string;
  proxy?: string;
  /** Shown as `--cacert <file>`: the PEM itself is too long for a command line. */
  caFile?: string;
}

/** `curl -sS -i [--max-time s] [-X method] [-H …]… [--data-binary …] [--interface|--proxy|--cacert …] 'url'`. */
export function curlCommand(request: CurlRequest, secrets: readonly CurlSecret[] = []): string {
  const parts = ['curl', '-sS', '-i'];
  if (request.timeoutMs !== undefined) parts.push('--max-time', String(Math.max(1, Math.ceil(request.timeoutMs / 1000))));
  const method = request.method ?? 'GET';
  if (method !== 'GET') parts.push('-X', method);
  const headers: readonly CurlHeader[] = Array.isArray(request.headers)
    ? request.headers
    : Object.entries(request.headers ?? {}).map(([name, value]) => ({ name, value }));
  for (const h of headers) parts.push('-H', h.shell ?? shellWord(`${h.name}: ${h.value}`, secrets));
  if (request.body !== undefined) parts.push('--data-binary', shellWord(request.body, secrets));
  if (request.localAddress) parts.push('--interface', shellWord(request.localAddress));
  if (request.proxy) parts.push('--proxy', shellWord(request.proxy));
  if (request.caFile) parts.push('--cacert', shellWord(request.caFile));
  parts.push(shellWord(request.url, secrets));
  return parts.join(' ');
}
