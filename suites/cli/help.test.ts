// The help texts follow one style (harness/cli/help.ts), and the synopsis of docs/command-line.md
// is what the commands print on their Usage: line, option for option.
import { describe, expect, it } from 'vitest';
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { EXIT_STATUS_HELP } from '../../harness/cli/help.ts';
import { runHere } from '../support/cli-here.ts';
import { BIN } from '../support/cli-process.ts';

const PAGE = readFileSync(fileURLToPath(new URL('../../docs/command-line.md', import.meta.url)), 'utf8');
const SYNOPSIS = '## Synopsis\n\n```text\n';

/** A command's --help, printed by the bin in a child process (what a user sees). */
function helpOfBin(...command: string[]): string {
  const run = spawnSync(process.execPath, [BIN, ...command, '--help'], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
  expect(run.status, run.stderr).toBe(0);
  return run.stdout;
}

/**
 * A command's --help from the command's code in this process (cli-here.ts): the texts are what
 * is tested here, not the process; one test below checks the bin prints the same.
 */
async function help(...command: string[]): Promise<string> {
  const run = await runHere([...command, '--help'], { NO_COLOR: '1' });
  expect(run.code, run.stderr).toBe(0);
  return run.stdout;
}

/** The commands a user runs: every subcommand without subcommands of its own. */
async function leafCommands(): Promise<string[][]> {
  const listed = (text: string): string[] => {
    const block = text.slice(text.indexOf('\nCommands:\n') + 11).split('\n\n')[0] ?? '';
    return block.split('\n').map((l) => /^  (\S+)/.exec(l)?.[1]).filter((n): n is string => n !== undefined && n !== 'help');
  };
  const leaves: string[][] = [];
  for (const name of listed(await help())) {
    const text = await help(name);
    leaves.push(...(text.includes('\nCommands:\n') ? listed(text).map((sub) => [name, sub]) : [[name]]));
  }
  return leaves;
}

const LEAVES = await leafCommands();
/** Every --help text, by command (the top level and `pact` first). */
const TEXTS: ReadonlyArray<{ command: string[]; text: string }> = await (async () => {
  const texts = [];
  for (const command of [[], ['pact'], ...LEAVES]) texts.push({ command, text: await help(...command) });
  return texts;
})();
const textOf = (command: string[]): string => TEXTS.find((t) => t.command.join(' ') === command.join(' '))!.text;

/** The page's synopsis: one entry per command, continuation lines joined, spaces collapsed. */
function synopsis(): string[] {
  const start = PAGE.indexOf(SYNOPSIS);
  expect(start, 'docs/command-line.md has a "## Synopsis" block').toBeGreaterThan(0);
  const body = PAGE.slice(start + SYNOPSIS.length, PAGE.indexOf('\n```', start + SYNOPSIS.length));
  const entries: string[] = [];
  for (const line of body.split('\n')) {
    if (/^\s/.test(line) && entries.length > 0) entries[entries.length - 1] += ` ${line.trim()}`;
    else if (line.trim() !== '') entries.push(line.trim());
  }
  return entries.map((e) => e.replace(/\s+/g, ' '));
}

describe('the synopsis of docs/command-line.md matches every command\'s --help', () => {
  it('lists every command the CLI has, and no other', () => {
    expect(LEAVES.map((c) => c.join(' '))).toEqual(['run', 'simulate', 'receiver', 'observe-check', 'vectors', 'sign', 'storm', 'pact verify']);
    const named = synopsis().map((e) => /^collect-conformance ((?:pact )?\S+)/.exec(e)?.[1]);
    expect(named).toEqual(LEAVES.map((c) => c.join(' ')));
  });
  for (const command of LEAVES) {
    it(`collect-conformance ${command.join(' ')}: the synopsis line is the Usage: line`, () => {
      const usage = /^Usage: (.*)$/m.exec(textOf(command))?.[1];
      const line = synopsis().find((e) => e.startsWith(`collect-conformance ${command.join(' ')} `) || e === `collect-conformance ${command.join(' ')}`);
      expect(line).toBe(usage);
    });
  }
});

describe('every --help in one style', () => {
  for (const { command, text } of TEXTS) {
    const name = ['collect-conformance', ...command].join(' ');
    describe(name, () => {
      /** The items of the Options: and Commands: blocks, each with its description. */
      const items = ['Options:', 'Commands:'].flatMap((heading) => {
        const at = text.indexOf(`\n${heading}\n`);
        if (at < 0) return [];
        const block = text.slice(at + heading.length + 2).split('\n\n')[0] ?? '';
        return [...block.matchAll(/^ {2}(\S.*?) {2,}(\S.*)$/gm)].map((m) => ({ term: m[1]!, description: m[2]! }));
      });
      it('options and commands are described starting with a capital letter', () => {
        expect(items.length).toBeGreaterThan(0);
        for (const { term, description } of items) expect(description, term).toMatch(/^[A-Z]/);
      });
      it('placeholders are lower case (<dir>, not <DIR>)', () => {
        expect(text).not.toMatch(/<[A-Z][A-Za-z]*>/);
      });
      it('defaults and choices are written (default: x) and (one of: a, b), never quoted', () => {
        expect(text).not.toMatch(/\(default [^:]/);
        expect(text).not.toMatch(/default: "/);
        expect(text).not.toMatch(/choices: /);
      });
      it('ends with the exit statuses, the same text for every command', () => {
        expect(text.trimEnd().endsWith(EXIT_STATUS_HELP.trim())).toBe(true);
      });
    });
  }
});

describe('the bin prints the help the commands build', () => {
  it('collect-conformance --help and collect-conformance run --help, from the installed bin in a child process: the same text', () => {
    expect(helpOfBin()).toBe(textOf([]));
    expect(helpOfBin('run')).toBe(textOf(['run']));
  });
});

describe('a reader that stops early (`--help | head -3`)', () => {
  it('the command ends as it would have, exit 0, no EPIPE stack trace', async () => {
    const child = spawn(process.execPath, [BIN, '--help'], { stdio: ['ignore', 'pipe', 'pipe'] });
    // The pipe is closed before the command writes: its first write meets EPIPE.
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => { stderr += d.toString(); });
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(stderr).toBe('');
    expect(code).toBe(0);
  });
});
