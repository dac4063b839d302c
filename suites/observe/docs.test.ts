// docs/observe.md runs as written: its ```sh blocks, in order, in one shell (what one block
// exports or starts, the next one has), from a folder holding a copy of examples/, as a reader
// who cloned the repository and ran `npm ci` runs them. A block marked `<!-- not run: … -->` needs
// the reader's own systems and is left out; one marked `<!-- expect exit N -->` must end with
// that status (every other block with 0). The ```text block after a block is what it prints:
// its verdict lines (verdict and case id) and summary lines must be in the block's output. Two
// things are changed, neither part of what the page promises: `npx collect-conformance` runs the
// checkout's bin directly (what npx does from a checkout), and port 8081 becomes a free port (in
// the commands and in the copied example files), so parallel runs never collide.
import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { CHECKOUT_BIN } from '../support/cli-process.ts';
import { describeNeeding } from '../support/programs.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const PAGE = readFileSync(join(ROOT, 'docs/observe.md'), 'utf8');

interface Block { index: number; commands: string; expectExit: number; prints?: string; run: boolean }

/** The page's sh blocks, each with its marker and the text block that follows it. */
function blocksOf(page: string): Block[] {
  const found = [...page.matchAll(/(?:<!-- (not run: [^>]*|expect exit (\d+)) -->\n)?```sh\n([\s\S]*?)```\n(?:\n*```text\n([\s\S]*?)```)?/g)];
  return found.map((m, index) => ({
    index,
    commands: m[3]!,
    expectExit: m[2] === undefined ? 0 : Number(m[2]),
    ...(m[4] !== undefined ? { prints: m[4] } : {}),
    run: !(m[1] ?? '').startsWith('not run'),
  }));
}

/** The lines of a "what it prints" block the output must hold: verdict and id of each case line, whole summary lines. */
function promised(prints: string): RegExp[] {
  return prints.split('\n').flatMap((line) => {
    const verdict = /^(PASS|FAIL|WARN|SKIP|ERROR) +(\S+)/.exec(line);
    if (verdict) return [new RegExp(`^${verdict[1]} +${verdict[2]!.replace(/\./g, '\\.')} `, 'm')];
    const summary = /^(\d+ cases: .*ERROR)/.exec(line);
    if (summary) return [new RegExp(`^${summary[1]}`, 'm')];
    if (/^ok: /.test(line)) return [new RegExp(`^${line.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`, 'm')];
    return [];
  });
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Every file under `dir`, for the port to be replaced in the copies. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

describeNeeding(['postgresql', 'mariadb'], 'docs/observe.md: every command block runs as written', () => {
  it('the blocks run in order in one shell, each ending as the page says, printing what it shows', async () => {
    const blocks = blocksOf(PAGE);
    expect(blocks.filter((b) => b.run).length).toBeGreaterThanOrEqual(6);
    const folder = mkdtempSync(join(tmpdir(), 'cc-docs-observe-'));
    cpSync(join(ROOT, 'examples'), join(folder, 'examples'), { recursive: true });
    const port = String(await freePort());
    for (const file of filesUnder(join(folder, 'examples'))) {
      if (file.endsWith('.json')) writeFileSync(file, readFileSync(file, 'utf8').replaceAll('127.0.0.1:8081', `127.0.0.1:${port}`));
    }
    const script = ['set -e'];
    for (const block of blocks.filter((b) => b.run)) {
      const commands = block.commands
        .replace(/^npx collect-conformance\b/gm, `node ${JSON.stringify(CHECKOUT_BIN)}`)
        .replace(/\b8081\b/g, port)
        .trimEnd();
      script.push(`echo "::block ${block.index}::"`, 'set +e', commands, 'status=$?', 'set -e',
        `[ "$status" = ${block.expectExit} ] || { echo "::block ${block.index} ended with $status, the page says ${block.expectExit}::"; exit 99; }`);
    }
    const shell = spawn('bash', ['-c', script.join('\n')], {
      cwd: folder, detached: true, stdio: ['ignore', 'pipe', 'pipe'],
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', NO_COLOR: '1' },
    });
    let output = '';
    shell.stdout.on('data', (d: Buffer) => { output += d.toString(); });
    shell.stderr.on('data', (d: Buffer) => { output += d.toString(); });
    const code = await new Promise<number | null>((resolve) => shell.on('close', resolve));
    // Whatever a failed block left running (a receiver, a server) goes with the shell's process group.
    try {
      process.kill(-shell.pid!, 'SIGKILL');
    } catch {
      // Nothing left.
    }
    expect(code, output).toBe(0);
    const outputs = new Map(output.split(/^::block (\d+)::$/m).slice(1).reduce<Array<[number, string]>>((pairs, part, i, all) => (i % 2 === 0 ? [...pairs, [Number(part), all[i + 1] ?? '']] : pairs), []));
    for (const block of blocks.filter((b) => b.run && b.prints !== undefined)) {
      const printed = outputs.get(block.index) ?? '';
      for (const line of promised(block.prints!)) expect(printed, `block ${block.index} prints ${line}`).toMatch(line);
    }
  }, 180_000);
});
