// What the docs tests read in a Markdown page: its fenced blocks (a command block is tagged `sh`
// or `bash`; an untagged block right after one is what it prints), the marker just before a
// command block (`<!-- not run: reason -->`, `<!-- needs: postgresql -->`), its headings as
// GitHub anchors them, and its relative links. A small reader for the subset our pages use, not
// a Markdown parser: fences are ``` lines, headings are # lines outside fences.
import { PROGRAM_NAMES, type ProgramName } from '../support/programs.ts';

export type Marker =
  | { kind: 'not-run'; reason: string }
  | { kind: 'needs'; programs: ProgramName[] };

export interface Fence {
  /** The info string after ```, '' when untagged. */
  lang: string;
  text: string;
  /** 1-based line of the opening fence. */
  line: number;
}

export interface CommandBlock extends Fence {
  marker?: Marker;
  /** The untagged block right after it: what the commands print. */
  output?: Fence;
}

export interface Page {
  commands: CommandBlock[];
  /** Every fence, in order. */
  fences: Fence[];
  /** Problems with the page's own conventions (a malformed marker, an untagged block that shows no command's output). */
  problems: string[];
  anchors: Set<string>;
  links: Array<{ target: string; line: number }>;
}

export const COMMAND_LANGS = new Set(['sh', 'bash']);
/** Tags that look like commands but would escape the rehearsals. */
const REFUSED_LANGS = new Set(['shell', 'console', 'zsh', 'shell-session', 'sh-session']);

function parseMarker(comment: string, line: number, problems: string[]): Marker | undefined {
  const notRun = /^not run:\s*(\S.*)$/.exec(comment);
  if (notRun) return { kind: 'not-run', reason: notRun[1]!.trim() };
  const needs = /^needs:\s*(.+)$/.exec(comment);
  if (needs) {
    const names = needs[1]!.split(',').map((n) => n.trim());
    const unknown = names.filter((n) => !(PROGRAM_NAMES as string[]).includes(n));
    if (unknown.length > 0) {
      problems.push(`line ${line}: <!-- needs: … --> names ${unknown.join(', ')}, not one of ${PROGRAM_NAMES.join(', ')}`);
      return undefined;
    }
    return { kind: 'needs', programs: names as ProgramName[] };
  }
  if (/^(not[ -]?run|needs)\b/i.test(comment)) problems.push(`line ${line}: malformed marker <!-- ${comment} --> (write <!-- not run: reason --> or <!-- needs: program -->)`);
  return undefined;
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
export function slug(heading: string): string {
  return heading
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

export function parsePage(text: string): Page {
  const lines = text.split('\n');
  const fences: Fence[] = [];
  const commands: CommandBlock[] = [];
  const problems: string[] = [];
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  const links: Page['links'] = [];
  let previous: { kind: 'comment'; text: string; line: number } | { kind: 'command'; block: CommandBlock } | undefined;

  // Prose with every fence blanked out (line numbers kept), for the links.
  const prose: string[] = [];
  const strayMarker = () => {
    if (previous?.kind === 'comment' && parseMarker(previous.text, previous.line, [])) problems.push(`line ${previous.line}: a marker that stands before no command block`);
  };

  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const open = /^```(\S*)\s*$/.exec(line);
    if (open) {
      const start = i;
      const body: string[] = [];
      prose.push('');
      for (i++; i < lines.length && !/^```\s*$/.test(lines[i]!); i++) {
        body.push(lines[i]!);
        prose.push('');
      }
      prose.push('');
      if (i >= lines.length) problems.push(`line ${start + 1}: a fence that is never closed`);
      const fence: Fence = { lang: open[1]!, text: body.length > 0 ? `${body.join('\n')}\n` : '', line: start + 1 };
      fences.push(fence);
      if (COMMAND_LANGS.has(fence.lang)) {
        const block: CommandBlock = { ...fence };
        if (previous?.kind === 'comment') {
          const marker = parseMarker(previous.text, previous.line, problems);
          if (marker) block.marker = marker;
        }
        commands.push(block);
        previous = { kind: 'command', block };
        continue;
      }
      strayMarker();
      if (REFUSED_LANGS.has(fence.lang)) problems.push(`line ${fence.line}: a \`${fence.lang}\` block: tag commands \`sh\` (so the tests run them) and other text \`text\``);
      if (fence.lang === '') {
        if (previous?.kind === 'command' && previous.block.output === undefined) previous.block.output = fence;
        else problems.push(`line ${fence.line}: an untagged block that follows no command block: tag it (\`text\`, \`json\` …) or put it after the command that prints it`);
      }
      previous = undefined;
      continue;
    }
    prose.push(line);
    if (line.trim() === '') continue;
    const comment = /^<!--\s*(.*?)\s*-->$/.exec(line.trim());
    if (comment) {
      strayMarker();
      previous = { kind: 'comment', text: comment[1]!, line: i + 1 };
      continue;
    }
    // A marker must stand right before its block: one followed by text marks nothing.
    strayMarker();
    previous = undefined;
    const heading = /^(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading) {
      const base = slug(heading[2]!);
      const n = seen.get(base) ?? 0;
      seen.set(base, n + 1);
      anchors.add(n === 0 ? base : `${base}-${n}`);
    }
  }
  strayMarker();

  // Links, outside inline code (which may wrap a line, as may a link's text).
  const proseText = prose.join('\n').replace(/`[^`]*`/g, (code) => code.replace(/[^\n]/g, ' '));
  for (const m of proseText.matchAll(/\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
    links.push({ target: m[1]!, line: proseText.slice(0, m.index).split('\n').length });
  }
  return { commands, fences, problems, anchors, links };
}
