// Runs one command block of the docs as written, the way a reader would paste it into a fresh
// shell at the root of a fresh checkout, and reports what each command printed and its exit
// status. What differs from the reader's terminal, and why:
// - the block runs in its own folder that mirrors the checkout (symlinks), so that the reports
//   it writes and the files it creates are its own and blocks can run side by side;
// - a port the block names after `--port` or in a loopback URL becomes a free one, in the block and in the files it
//   names (copied into its folder), so runs on a shared machine never collide;
// - `npx collect-conformance` and `npm start` run the checkout's bin directly, which is what
//   they run from a checkout (without npm's own half second of start-up); any other npm or npx
//   command is refused (a block that installs or publishes is marked `<!-- not run: … -->`);
// - a line ending in `&` starts a server: the next line runs once it has printed `listening on`,
//   as a reader would wait for it, and its output goes to a file instead of the terminal. Such a
//   server may not be started through npx, which does not pass `kill $!`'s SIGTERM on to it.
// Only PATH and HOME come from this environment: a block sets what it uses itself.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../support/free-port.ts';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface CommandRun {
  /** The command as the block writes it (continuation lines joined). */
  command: string;
  expectedStatus: number;
  status: number;
  stdout: string;
}

export interface BlockRun {
  /** The commands the block runs in the foreground. */
  planned: string[];
  /** Those that ran, in order (fewer than planned when the shell ended early). */
  commands: CommandRun[];
  /** Everything the block printed on stdout, ports shown as the block names them. */
  stdout: string;
  stderr: string;
  /** Servers that did not come up: the command and what it printed. */
  serversDown: Array<{ command: string; output: string }>;
  /** Servers still running when the block ended (it should stop what it starts). */
  leftRunning: string[];
  /** Set when the whole block was stopped for taking too long. */
  timedOut?: boolean;
}

/** A logical line of a block: continuation lines joined, with the text as written. */
interface Line { text: string; joined: string }

function logicalLines(block: string): Line[] {
  const out: Line[] = [];
  let pending: string[] = [];
  for (const raw of block.replace(/\n$/, '').split('\n')) {
    pending.push(raw);
    if (/\\$/.test(raw)) continue;
    out.push({ text: pending.join('\n'), joined: pending.map((l) => l.replace(/\\$/, '')).join(' ') });
    pending = [];
  }
  if (pending.length > 0) out.push({ text: pending.join('\n'), joined: pending.join(' ') });
  return out;
}

/**
 * Walks `line` as the shell reads quotes and backslashes, calling `visit` with the index of each
 * character outside them; `visit` returns a result to stop with, or a number of characters to skip.
 */
function scanUnquoted<T>(line: string, visit: (i: number) => { stop: T } | number | void): T | undefined {
  let quote: string | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote) {
      if (c === quote) quote = undefined;
      else if (c === '\\' && quote === '"') i++;
      continue;
    }
    if (c === "'" || c === '"') quote = c;
    else if (c === '\\') i++;
    else {
      const seen = visit(i);
      if (typeof seen === 'number') i += seen;
      else if (seen) return seen.stop;
    }
  }
  return undefined;
}

/** The index of the comment's `#` (outside quotes, after a blank), or the length. */
function commentStart(line: string): number {
  return scanUnquoted(line, (i) => (line[i] === '#' && (i === 0 || /\s/.test(line[i - 1]!)) ? { stop: i } : undefined)) ?? line.length;
}

/** Where a lone `&` (not `&&`, not part of a redirection like `2>&1`) puts the command before it in the background. */
export function backgroundSplit(line: string): { background: string; rest: string } | undefined {
  const code = line.slice(0, commentStart(line));
  return scanUnquoted(code, (i) => {
    if (code[i] !== '&') return undefined;
    if (code[i + 1] === '&') return 1;
    if (code[i - 1] === '>' || code[i - 1] === '<' || code[i + 1] === '>') return undefined;
    return { stop: { background: code.slice(0, i).trim(), rest: line.slice(i + 1).trim() } };
  });
}

const START_SCRIPT = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: { start: string } }).scripts.start;

/** The block's commands as they run from a checkout (see the header); throws for npm/npx commands that must not run here. */
export function localised(block: string): string {
  for (const { joined } of logicalLines(block)) {
    if (/\bnpx\b/.test(backgroundSplit(joined)?.background ?? '')) {
      throw new Error(`\`${joined.trim()}\`: npx does not pass SIGTERM on to the server it starts, so \`kill $!\` would leave it running: start a background server with \`node bin/collect-conformance.js\` (a checkout) or \`node node_modules/.bin/collect-conformance\` (a project)`);
    }
  }
  const text = block
    .replace(/\bnpx collect-conformance\b/g, 'node bin/collect-conformance.js')
    .replace(/\bnpm start(?: --)?\b/g, START_SCRIPT);
  for (const { joined } of logicalLines(text)) {
    const code = joined.slice(0, commentStart(joined));
    const other = /(?:^|[\s;&|(])(npm|npx)\s+(\S+)/.exec(code);
    if (other) throw new Error(`\`${other[1]} ${other[2]}\` does not run in the tests (it installs, publishes, or runs the tests themselves): mark the block <!-- not run: reason -->`);
  }
  return text;
}

/**
 * The ports the block names after `--port` or in a loopback URL (`--confirms
 * http://127.0.0.1:8082`: a port the harness listens on), each with a free one to use instead.
 */
async function portsOf(block: string): Promise<Map<string, string>> {
  const ports = new Map<string, string>();
  for (const [, port] of block.matchAll(/(?:--port[ =]|\/\/127\.0\.0\.1:)(\d+)/g)) {
    if (port !== '0' && !ports.has(port!)) ports.set(port!, String(await freePort()));
  }
  return ports;
}

function withPorts(text: string, ports: ReadonlyMap<string, string>): string {
  let out = text;
  for (const [from, to] of ports) out = out.replace(new RegExp(`(?<![\\d.])${from}(?![\\d.])`, 'g'), to);
  return out;
}

/** Files of the checkout the block names that mention one of its ports: copied with the ports replaced. */
function portedFiles(block: string, ports: ReadonlyMap<string, string>): Map<string, string> {
  const files = new Map<string, string>();
  if (ports.size === 0) return files;
  for (const [, path] of block.matchAll(/(?:^|[\s=])((?:[\w.-]+\/)*[\w.-]+\.\w+)(?=$|[\s;)])/gm)) {
    const full = join(ROOT, path!);
    if (files.has(path!) || !full.startsWith(ROOT) || !existsSync(full) || !statSync(full).isFile()) continue;
    const text = readFileSync(full, 'utf8');
    const ported = withPorts(text, ports);
    if (ported !== text) files.set(path!, ported);
  }
  return files;
}

/**
 * What a fresh clone holds after `npm ci`: the tracked files and node_modules. Nothing else of
 * this checkout is linked (a developer's own my-receiver.json, reports/latest/, .installed/), so
 * a block that writes such a file writes its own, never through a link into the checkout.
 */
function freshCloneEntries(): string[] {
  let tracked: string[];
  try {
    tracked = execFileSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8' }).split('\0').filter((p) => p !== '');
  } catch {
    throw new Error('the docs rehearsals mirror the files git tracks: run them in a git checkout');
  }
  return [...tracked, 'node_modules'];
}

/** A folder that looks like a fresh clone: links to the files (and whole folders) it would hold, real folders where they differ. */
function mirror(into: string, files: ReadonlyMap<string, string>): void {
  const entries = freshCloneEntries();
  const link = (rel: string) => {
    mkdirSync(join(into, rel, '..'), { recursive: true });
    if (!existsSync(join(into, rel))) symlinkSync(join(ROOT, rel), join(into, rel));
  };
  /** Links `dir`'s tracked entries one by one when it holds more than a clone would, or a file to write; else links it whole. */
  const place = (dir: string, inside: readonly string[]) => {
    const children = new Map<string, string[]>();
    for (const rel of inside) {
      const [head, ...rest] = rel.split('/');
      children.set(head!, [...(children.get(head!) ?? []), rest.join('/')]);
    }
    for (const [name, below] of children) {
      const rel = dir === '' ? name : `${dir}/${name}`;
      if (files.has(rel)) {
        mkdirSync(join(into, dir), { recursive: true });
        writeFileSync(join(into, rel), files.get(rel)!);
        continue;
      }
      const isDir = below.some((b) => b !== '');
      if (!isDir) {
        link(rel);
        continue;
      }
      const written = [...files.keys()].some((f) => f.startsWith(`${rel}/`));
      const extra = readdirSync(join(ROOT, rel)).some((child) => !below.some((b) => b === child || b.startsWith(`${child}/`)));
      if (written || (extra && rel !== 'node_modules')) place(rel, below.filter((b) => b !== ''));
      else link(rel);
    }
  };
  place('', entries);
}

const MARK = '@@@cc';

/** The process groups of the blocks running now: stopped if this process exits first (a test run cut short). */
const live = new Set<number>();
process.once('exit', () => {
  for (const group of live) {
    try { process.kill(-group, 'SIGKILL'); } catch { /* already gone */ }
  }
});

const PRELUDE = `
__cc_wait() { # $1: server number, $2: its pid; waits until it prints "listening on"
  __cc_i=0
  until grep -q 'listening on' "$CC_BG/$1.out" 2>/dev/null; do
    if ! kill -0 "$2" 2>/dev/null; then printf '\\n${MARK} down %s\\n' "$1"; return; fi
    __cc_i=$((__cc_i + 1))
    if [ "$__cc_i" -gt 400 ]; then printf '\\n${MARK} down %s\\n' "$1"; return; fi
    sleep 0.05
  done
}
__cc_status() { printf '\\n${MARK} status %s %s\\n' "$1" "$2"; }
__cc_end() { # servers still running 2 s after the block's last line: named, then stopped
  __cc_i=0
  while [ -n "$(jobs -pr)" ] && [ "$__cc_i" -lt 40 ]; do sleep 0.05; __cc_i=$((__cc_i + 1)); done
  jobs -r | while IFS= read -r job; do printf '\\n${MARK} left %s\\n' "$job"; done
  for p in $(jobs -pr); do kill "$p" 2>/dev/null; done
  wait 2>/dev/null
}
`;

/** The block as one bash script, with a status mark after each command and a wait after each server. */
function script(lines: readonly Line[]): { text: string; commands: Array<{ command: string; expectedStatus: number }>; servers: string[] } {
  const out: string[] = [PRELUDE];
  const commands: Array<{ command: string; expectedStatus: number }> = [];
  const servers: string[] = [];
  for (const line of lines) {
    const code = line.joined.slice(0, commentStart(line.joined)).trim();
    if (code === '') {
      out.push(line.text);
      continue;
    }
    const bg = backgroundSplit(line.joined);
    if (bg) {
      servers.push(bg.background);
      const n = servers.length;
      out.push(`${bg.background} >"$CC_BG/${n}.out" 2>&1 &`, `__cc_wait ${n} $!`);
      if (bg.rest !== '') out.push(bg.rest);
      continue;
    }
    const expected = /\bexit status (\d+)\s*$/.exec(line.joined.slice(commentStart(line.joined)));
    commands.push({ command: line.joined.trim(), expectedStatus: expected ? Number(expected[1]) : 0 });
    out.push(line.text, `__cc_status ${commands.length - 1} $?`);
  }
  out.push('__cc_end');
  return { text: out.join('\n'), commands, servers };
}

export interface RehearseOptions {
  timeoutMs?: number;
  /** Run in this folder as it is (a project with the package installed) instead of a copy of the checkout. */
  cwd?: string;
}

/** Runs the block (see the header). */
export async function rehearse(block: string, options: RehearseOptions = {}): Promise<BlockRun> {
  const text = localised(block);
  const ports = await portsOf(text);
  const cwd = mkdtempSync(join(tmpdir(), 'cc-docs-'));
  const bg = join(cwd, '.servers');
  try {
    mkdirSync(bg);
    let checkout = options.cwd;
    if (checkout === undefined) {
      checkout = join(cwd, 'checkout');
      mkdirSync(checkout);
      mirror(checkout, portedFiles(text, ports));
    }
    const { text: bash, commands, servers } = script(logicalLines(withPorts(text, ports)));
    const child = spawn('bash', ['--noprofile', '--norc', '-c', bash], {
      cwd: checkout,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', CC_BG: bg },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    live.add(child.pid!);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => { stdout += d.toString(); });
    child.stderr.on('data', (d: Buffer) => { stderr += d.toString(); });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      try { process.kill(-child.pid!, 'SIGKILL'); } catch { /* already gone */ }
    }, options.timeoutMs ?? 120_000);
    await new Promise<void>((resolve) => child.once('close', () => resolve()));
    clearTimeout(timer);
    // Anything of the block's still alive (a server it started that outlived the shell).
    try { process.kill(-child.pid!, 'SIGKILL'); } catch { /* none left */ }
    live.delete(child.pid!);

    const back = new Map([...ports].map(([doc, used]) => [used, doc]));
    const shownPorts = (s: string) => withPorts(s, back);
    const result: BlockRun = { planned: commands.map((c) => shownPorts(c.command)), commands: [], stdout: '', stderr: shownPorts(stderr), serversDown: [], leftRunning: [], ...(timedOut ? { timedOut } : {}) };
    // stdout is the commands' output, each followed by its status mark.
    let segment = '';
    for (const piece of stdout.split(new RegExp(`\\n?(${MARK} [^\\n]*)\\n`))) {
      const mark = new RegExp(`^${MARK} (status|down|left) (.*)$`).exec(piece);
      if (!mark) {
        segment += piece;
        continue;
      }
      if (mark[1] === 'status') {
        const [index, status] = mark[2]!.split(' ').map(Number) as [number, number];
        result.commands.push({ ...commands[index]!, command: shownPorts(commands[index]!.command), status, stdout: shownPorts(segment) });
        result.stdout += shownPorts(segment);
        segment = '';
      } else if (mark[1] === 'down') {
        const n = Number(mark[2]);
        const file = join(bg, `${n}.out`);
        result.serversDown.push({ command: shownPorts(servers[n - 1] ?? ''), output: existsSync(file) ? shownPorts(readFileSync(file, 'utf8')) : '' });
      } else {
        result.leftRunning.push(shownPorts(mark[2]!.replace(/^\[\d+\][+-]?\s+Running\s+/, '').replace(/\s*>\s*"?\$CC_BG\/\d+\.out"?\s*2>&1\s*&\s*$/, '')));
      }
    }
    result.stdout += shownPorts(segment);
    return result;
  } finally {
    rmSync(cwd, { recursive: true, force: true });
  }
}

/**
 * One shown line as a pattern: `…` is any text; durations, seeds and the version may differ, and
 * so may the counts that every added case changes: the number of cases (`122 case(s)`, `42
 * cases:`, `1 of 42 cases`) and of PASSes. The other verdicts' counts (`2 FAIL`, `0 ERROR`) are
 * what a block shows: they are matched as written.
 */
function linePattern(line: string): string {
  return line
    .split('…')
    .map((part) => part
      .replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
      .replace(/\d+ ms\b/g, '\\d+ ms')
      .replace(/\b\d+ (cases\b|case\\\(s\\\)|PASS\b)/g, '\\d+ $1')
      .replace(/\b(seed) \d+/g, '$1 \\d+')
      .replace(/\b\d+\\\.\d+\\\.\d+\b/g, '\\d+\\.\\d+\\.\\d+'))
    .join('[^\\n]*?');
}

/**
 * Whether `actual` is what `shown` says it prints: every shown line, in order, each next to the
 * one before it, unless a line of `…` alone stands between them (any lines, also none, also at
 * the start or the end). Returns undefined when it is, else the first shown line that is not found.
 */
export function unmatchedLine(shown: string, actual: string): string | undefined {
  const lines = shown.replace(/\n$/, '').split('\n');
  const text = actual.endsWith('\n') || actual === '' ? actual : `${actual}\n`;
  const tokens = lines.map((l) => (l.trim() === '…' ? '(?:[^\\n]*\\n)*?' : `${linePattern(l)}\\n`));
  if (new RegExp(`^${tokens.join('')}$`).test(text)) return undefined;
  // The first shown line that no longer follows: the one a reader should look at.
  for (let k = 1; k <= tokens.length; k++) {
    if (!new RegExp(`^${tokens.slice(0, k).join('')}`).test(text)) return lines[k - 1];
  }
  return `(the output goes on after the last line shown: end the block's output with a line of … or show the rest)`;
}
