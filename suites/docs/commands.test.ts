// Every command block of README.md and docs/*.md runs as written (suites/docs/rehearse.ts says
// how, and what differs from a reader's terminal): each command exits 0, or the status its
// comment names (`# exit status 1`); the servers it starts come up and are stopped by the block;
// and when the page shows what the block prints (the untagged block after it), the output is
// that, line for line. A block marked `<!-- not run: reason -->` is skipped and named with its
// reason; one marked `<!-- needs: program -->` runs where the program is (suites/support/programs.ts).
// Blocks run side by side, four at a time (`npm start` alone), and a block that stands on two
// pages runs once.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeNeeding, missingOf } from '../support/programs.ts';
import { parsePage, type CommandBlock } from './markdown.ts';
import { rehearse, ROOT, unmatchedLine, type BlockRun } from './rehearse.ts';

const PAGES = ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).sort().map((f) => `docs/${f}`)];
const parsed = PAGES.map((page) => ({ page, ...parsePage(readFileSync(join(ROOT, page), 'utf8')) }));

const AT_ONCE = 4;
let used = 0;
const waiting: Array<{ weight: number; start: () => void }> = [];
/** Runs `work` once `weight` of the AT_ONCE slots are free, in the order asked. */
async function slot<T>(weight: number, work: () => Promise<T>): Promise<T> {
  if (used + weight > AT_ONCE || waiting.length > 0) await new Promise<void>((start) => waiting.push({ weight, start }));
  else used += weight;
  try {
    return await work();
  } finally {
    used -= weight;
    while (waiting.length > 0 && used + waiting[0]!.weight <= AT_ONCE) {
      const next = waiting.shift()!;
      used += next.weight;
      next.start();
    }
  }
}

/** One run per distinct block text: the README's examples are the first blocks of the pages. */
const runs = new Map<string, Promise<BlockRun>>();
function runOf(block: CommandBlock): Promise<BlockRun> {
  let run = runs.get(block.text);
  if (!run) {
    // The embedded default runs every case on a scaled clock (a callback awaited 1 s): it has
    // this file's share of the machine to itself.
    run = slot(/^npm start\b/m.test(block.text) ? AT_ONCE : 1, () => rehearse(block.text));
    // Awaited by the test; a rejection before then must not count as unhandled.
    run.catch(() => {});
    runs.set(block.text, run);
  }
  return run;
}

const runnable = (block: CommandBlock) =>
  block.marker?.kind !== 'not-run' && (block.marker?.kind !== 'needs' || missingOf(block.marker.programs).length === 0);

/** The first command of a block, for its test's name. */
function headline(block: CommandBlock): string {
  const first = block.text.split('\n').find((l) => l.trim() !== '' && !l.startsWith('#') && !l.startsWith('export ') && !l.startsWith('cp ')) ?? '';
  const line = first.replace(/\s+#.*$/, '').trim();
  return line.length > 90 ? `${line.slice(0, 89)}…` : line;
}

function check(block: CommandBlock, run: BlockRun): void {
  const shown = `${run.stdout}\n${run.stderr}`;
  expect(run.timedOut ?? false, `the block did not end within its time limit\n${shown}`).toBe(false);
  expect(run.serversDown, 'every server the block starts prints "listening on"').toEqual([]);
  for (const c of run.commands) expect(`${c.command} → exit status ${c.status}`, `${c.stdout}\n${run.stderr}`).toBe(`${c.command} → exit status ${c.expectedStatus}`);
  expect(run.planned.length, 'the block runs at least one command in the foreground').toBeGreaterThan(0);
  expect(run.commands.map((c) => c.command), `every command ran\n${shown}`).toEqual(run.planned);
  expect(run.leftRunning, 'a block stops the servers it starts (kill $!; wait $!)').toEqual([]);
  if (block.output) {
    const missing = unmatchedLine(block.output.text, run.stdout);
    expect(missing, `the page shows this line of the output (line ${block.output.line}), which the block did not print there:\n${run.stdout}`).toBeUndefined();
  }
}

beforeAll(() => {
  // Start every block now: the tests below only wait for their own.
  for (const { commands } of parsed) for (const block of commands.filter(runnable)) runOf(block);
});
// Blocks whose tests were filtered out (vitest -t) still end here, with their servers stopped.
afterAll(async () => {
  await Promise.allSettled(runs.values());
}, 300_000);

for (const { page, commands, problems } of parsed) {
  describe(page, () => {
    it('follows the conventions of command blocks (tagged `sh`, markers right before them, output right after)', () => {
      expect(problems).toEqual([]);
    });
    for (const block of commands) {
      const title = `line ${block.line}: ${headline(block)}`;
      if (block.marker?.kind === 'not-run') {
        it.skip(`${title} (not run: ${block.marker.reason})`, () => {});
      } else if (block.marker?.kind === 'needs') {
        describeNeeding(block.marker.programs, title, () => {
          it('runs as written', async () => check(block, await runOf(block)), 150_000);
        });
      } else {
        it(title, async () => check(block, await runOf(block)), 150_000);
      }
    }
  });
}
