// The lines that close a run, after the summary: where the HTML report is (the file a person
// opens first), and, after the embedded default (`npm start`), the docs pages that say how to
// describe one's own implementation and the command that points the kit at it.
import { basename, isAbsolute, relative } from 'node:path';

/** The command a newcomer runs next; docs/README.md shows it and the rehearsals run it. */
export const NEXT_COMMAND = 'npx collect-conformance run --target my-receiver.json';
/** The pages that say how to write a target file, one per side (paths from the checkout's root). */
export const NEXT_DOCS = ['docs/receiver.md', 'docs/service.md', 'docs/sdk.md'] as const;

/** `path` as the reader would type it from `cwd`: relative inside it, absolute outside. */
function shown(path: string, cwd: string): string {
  const rel = relative(cwd, path);
  return rel === '' || rel.startsWith('..') || isAbsolute(rel) ? path : rel;
}

/**
 * `HTML report: reports/latest/index.html` when the run wrote one; after the embedded default
 * also where to read how to describe one's own implementation, and NEXT_COMMAND on a line of its
 * own (to copy).
 */
export function closingLines(files: readonly string[], options: { cwd: string; embedded: boolean }): string[] {
  const lines: string[] = [];
  const html = files.find((f) => basename(f) === 'index.html');
  if (html !== undefined) lines.push(`HTML report: ${shown(html, options.cwd)}`);
  if (options.embedded) {
    lines.push(`Next, your own receiver, service or SDK: describe it in a target file (${NEXT_DOCS.join(', ')}), then run`);
    lines.push(`  ${NEXT_COMMAND}`);
  }
  return lines;
}
