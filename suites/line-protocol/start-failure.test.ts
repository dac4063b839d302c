// The line driver (harness/line-protocol/driver.ts): a command that ends right after starting,
// before answering anything, failed to start (DESIGN.md: exit status 3), however late the driver
// comes to read its end. The client run adopts the command its start probe left running; on a
// loaded machine its first request is sent seconds later, when the exit has long been there
// (suites/client/adapter-faults.test.ts once saw exit 1 for a Python syntax error this way).
import { describe, expect, it } from 'vitest';
import { LineDriver, LineProcess, type LineEnd } from '../../harness/line-protocol/index.ts';

const WORDS = { noun: 'adapter', unit: 'request', doing: 'handling this request' };
const parse = (line: string) => ({ ok: true as const, id: 'x', answer: line });

/** A command that ends at once, already ended and read `lateMs` after its end. */
async function endedLongAgo(command: string, lateMs: number): Promise<LineProcess> {
  const end = new LineProcess(command);
  await end.exited;
  await new Promise((resolve) => setTimeout(resolve, lateMs));
  return end;
}

/** The first exchange of a driver whose first start is `first` (the adopted command), with a start grace of `graceMs`. */
async function firstExchange(first: LineEnd, graceMs: number) {
  let given = false;
  const driver = new LineDriver({ start: () => (given ? new LineProcess('exit 1') : ((given = true), first)), words: WORDS, timeoutMs: 2000, startGraceMs: graceMs });
  try {
    const result = await driver.exchange('x', '{"id":"x"}\n', parse, { decisive: 'the plain call' });
    return { result, gaveUp: driver.gaveUp };
  } finally {
    await driver.close();
  }
}

describe('a command that ends right after starting cannot start, however late its end is read', () => {
  it('ended within the grace, read well after it: "start", the driver gives up as cannot start', async () => {
    // Grace 1000 ms; `exit 1` ends in a few ms; its end read 1200 ms later (past the grace counted from its start).
    const { result, gaveUp } = await firstExchange(await endedLongAgo('echo "SyntaxError: broken" >&2; exit 1', 1200), 1000);
    expect(result.ok).toBe(false);
    expect(result.ok ? undefined : result.failure).toBe('start');
    expect(gaveUp?.cannotStart).toMatch(/right after starting, before answering \(last stderr: SyntaxError: broken\)/);
  });
  it('the control: one that lived past the grace before it ended crashed, it did not fail to start', async () => {
    // Grace 100 ms; the command lives 400 ms (well past it, a loaded machine's start-up included) and is read at once.
    const { result, gaveUp } = await firstExchange(await endedLongAgo('sleep 0.4; exit 1', 0), 100);
    expect(result.ok ? undefined : result.failure).toBe('crashed');
    expect(gaveUp?.cannotStart).toBeUndefined();
  });
});
