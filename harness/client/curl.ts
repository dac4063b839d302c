// A shell command that reproduces a request, with secrets replaced by the environment
// variables a user sets for a run (DESIGN.md: secrets never appear in output).

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

export interface CurlRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
  localAddress?: string;
  proxy?: string;
  /** Shown as `--cacert <file>`: the PEM itself is too long for a command line. */
  caFile?: string;
}

export function curlCommand(request: CurlRequest, secrets: readonly CurlSecret[] = []): string {
  const parts = ['curl', '-sS', '-i', '-X', request.method, shellWord(request.url, secrets)];
  for (const [name, value] of Object.entries(request.headers)) parts.push('-H', shellWord(`${name}: ${value}`, secrets));
  if (request.body !== undefined) parts.push('--data-binary', shellWord(request.body, secrets));
  if (request.localAddress) parts.push('--interface', shellWord(request.localAddress));
  if (request.proxy) parts.push('--proxy', shellWord(request.proxy));
  if (request.caFile) parts.push('--cacert', shellWord(request.caFile));
  return parts.join(' ');
}
