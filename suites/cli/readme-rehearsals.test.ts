// README.md "Rehearsing against the reference implementations": every block marked
// `<!-- rehearsal: … -->` is run as written, in one shell's environment (its `export` lines
// carry over), and must give the outcome the README shows after it (the FAIL lines with their
// reasons and the summary counts). The commands come from README.md itself, so a README that
// drifts from the code breaks this test. Only two things are changed, neither part of what the
// README promises: `npx collect-conformance` runs the checkout's bin directly (what npx does
// from a checkout), and ports 8081/9000 become free ports (in the commands and in copies of the
// example target files), so that parallel test runs on a shared machine never collide.
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CHECKOUT_BIN } from '../support/cli-process.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');

interface Rehearsal { name: string; commands: string[]; expected: string }

const REHEARSALS: Rehearsal[] = [...README.matchAll(/<!-- rehearsal: ([^>]+?) -->\n```sh\n([\s\S]*?)```\n+```\n([\s\S]*?)```/g)]
  .map((m) => ({ name: m[1]!, commands: m[2]!.split('\n').filter((l) => l.trim() !== '' && !l.startsWith('#')), expected: m[3]! }));

interface Outcome { summary: number[]; fails: Array<{ id: string; reason: string }> }

/** The summary counts (cases, PASS, FAIL, WARN, SKIP, ERROR) and the FAIL lines of a run's output. */
function outcomeOf(text: string): Outcome {
  const summary = /^(\d+) cases: (\d+) PASS, (\d+) FAIL, (\d+) WARN, (\d+) SKIP, (\d+) ERROR/m.exec(text);
  const fails = [...text.matchAll(/^FAIL\s+(\S+)\s+\d+ ms\s+(.*)$/gm)].map((m) => ({ id: m[1]!, reason: m[2]! }));
  return { summary: summary ? summary.slice(1).map(Number) : [], fails };
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Stops the background commands of one rehearsal. */
async function stopAll(started: ChildProcess[]): Promise<void> {
  await Promise.all(started.splice(0).map((child) => new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  })));
}

/** `export NAME=value …` of a command line, or undefined. */
function exportsOf(line: string): Array<[string, string]> | undefined {
  const exported = /^export (.+)$/.exec(line);
  return exported ? [...exported[1]!.matchAll(/([A-Za-z_][A-Za-z0-9_]*)=(\S+)/g)].map((m) => [m[1]!, m[2]!]) : undefined;
}

/**
 * Environment of the shell the README's blocks run in: `export` lines carry over between blocks,
 * so a block starts with every export of the blocks before it (the rehearsals run side by side,
 * each in its own folder, on its own ports, with its own copy of this environment).
 */
function shellEnvBefore(index: number): Record<string, string> {
  const env: Record<string, string> = {};
  for (const rehearsal of REHEARSALS.slice(0, index)) {
    for (const line of rehearsal.commands) for (const [name, value] of exportsOf(line) ?? []) env[name] = value;
  }
  return env;
}

function localised(line: string, ports: Map<string, string>): string {
  let out = line.replace(/^npx collect-conformance\b/, `node ${JSON.stringify(CHECKOUT_BIN)}`);
  for (const [from, to] of ports) out = out.replace(new RegExp(`\\b${from}\\b`, 'g'), to);
  return out;
}

function startBackground(command: string, cwd: string, shellEnv: Record<string, string>, started: ChildProcess[]): Promise<ChildProcess> {
  const child = spawn('sh', ['-c', `exec ${command}`], { cwd, env: { ...process.env, ...shellEnv }, stdio: ['ignore', 'pipe', 'pipe'] });
  started.push(child);
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    const timer = setTimeout(() => reject(new Error(`${command}: no "listening on" within 20 s\n${err}`)), 20_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (/listening on /.test(out)) {
        clearTimeout(timer);
        resolve(child);
      }
    });
    child.stderr!.on('data', (chunk: Buffer) => { err += chunk.toString(); });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${command} exited ${code} before listening\n${err}`));
    });
  });
}

function runForeground(command: string, cwd: string, shellEnv: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn('sh', ['-c', command], { cwd, env: { ...process.env, ...shellEnv }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => { stdout += chunk.toString(); });
  child.stderr.on('data', (chunk: Buffer) => { stderr += chunk.toString(); });
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, stdout, stderr })));
}

describe.concurrent('README.md rehearsals run as written', () => {
  it('the README has the three rehearsals (receiver, service, faulty receiver)', () => {
    expect(REHEARSALS.map((r) => r.name)).toEqual(['receiver', 'service', 'faulty receiver']);
  });

  for (const [index, rehearsal] of REHEARSALS.entries()) {
    it(`${rehearsal.name}: ${rehearsal.commands.filter((c) => !c.startsWith('export')).join(' ; ')}`, async () => {
      const shellEnv = shellEnvBefore(index);
      const started: ChildProcess[] = [];
      try {
        const cwd = mkdtempSync(join(tmpdir(), 'cc-rehearsal-'));
        const ports = new Map<string, string>();
        for (const line of rehearsal.commands) {
          for (const [, port] of line.matchAll(/--port (\d+)/g)) if (!ports.has(port!)) ports.set(port!, String(await freePort()));
        }
        const expected = outcomeOf(rehearsal.expected);
        expect(expected.summary, 'the README shows a summary line').toHaveLength(6);
        let ran: Awaited<ReturnType<typeof runForeground>> | undefined;
        for (const line of rehearsal.commands) {
          const exported = exportsOf(line);
          if (exported) {
            for (const [name, value] of exported) shellEnv[name] = value;
            continue;
          }
          // The target files the commands name, copied with the ports this run uses.
          for (const [, path] of line.matchAll(/--target (\S+)/g)) {
            const copy = join(cwd, path!);
            mkdirSync(dirname(copy), { recursive: true });
            cpSync(join(ROOT, path!), copy);
            writeFileSync(copy, localised(readFileSync(copy, 'utf8'), ports));
          }
          const command = localised(line.replace(/\s*&\s*$/, ''), ports);
          if (/&\s*$/.test(line)) await startBackground(command, cwd, shellEnv, started);
          else ran = await runForeground(command, cwd, shellEnv);
        }
        expect(ran, 'the block runs a command in the foreground').toBeDefined();
        const actual = outcomeOf(ran!.stdout);
        const shown = `${ran!.stdout}\n${ran!.stderr}`;
        expect(actual.summary, shown).toEqual(expected.summary);
        expect(actual.fails, shown).toEqual(expected.fails);
        expect(ran!.code, shown).toBe(expected.summary[2]! + expected.summary[5]! > 0 ? 1 : 0);
      } finally {
        await stopAll(started);
      }
    }, 180_000);
  }
});
