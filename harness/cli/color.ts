// When a command may colour its output: only on a terminal, and never when `NO_COLOR` is set to
// anything non-empty (https://no-color.org). Piped output, CI logs and files get plain text.
export function colorFor(stream: { isTTY?: boolean }, env: Record<string, string | undefined>): boolean {
  return stream.isTTY === true && !env['NO_COLOR'];
}
