// A version-2 peer restarted after a failure is greeted again; on a loaded machine its start can
// outlast the hello's limit, and the request goes out before the hello is answered. Its late
// answer to the hello is then read as the hello's, and the request's answer is still awaited
// within its own limit: not an answer "for id hello" (an adapter's restart at load 20 took over
// the 1.5 s limit, and the next case was ERR_ADAPTER_PROTOCOL). In-process peers: no processes.
import { createInterface } from 'node:readline';
import { setTimeout as delay } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { InProcessLineEnd, LineDriver, type LinePeer } from '../../harness/line-protocol/index.ts';

/**
 * The hello's limit here: long enough that the first start, which answers at once, is greeted on a
 * loaded machine (at 50 ms, a loaded worker's first answer came late: protocol 1); the restarts
 * answer at twice it, so each restart's limit runs out first (both are timers of this process).
 */
const HELLO_LIMIT_MS = 400;

/**
 * Start `n` (from 1) of a version-2 peer: it answers the hello after `helloDelayMs(n)`, ends on a
 * request with `crash` set, and answers any other request.
 */
function peer(n: number, helloDelayMs: (n: number) => number, received: string[]): LinePeer {
  return async ({ input, output }) => {
    for await (const line of createInterface({ input, crlfDelay: Infinity })) {
      received.push(line);
      const request = JSON.parse(line) as { id: string; op?: string; crash?: true };
      if (request.op === 'hello') {
        await delay(helloDelayMs(n));
        output.write(`${JSON.stringify({ id: 'hello', protocol: 2, supports: ['collect'] })}\n`);
      } else if (request.crash) {
        return;
      } else {
        output.write(`${JSON.stringify({ id: request.id, answer: `to ${request.id}` })}\n`);
      }
    }
  };
}

function driverOf(helloDelayMs: (n: number) => number, received: string[] = []) {
  let starts = 0;
  return new LineDriver({
    start: () => new InProcessLineEnd(peer(++starts, helloDelayMs, received)),
    words: { noun: 'adapter', unit: 'request', doing: 'handling this request' },
    timeoutMs: 2000,
    hello: { limitMs: HELLO_LIMIT_MS },
  });
}

const parse = (line: string) => {
  const o = JSON.parse(line) as { id: string; answer?: string };
  return typeof o.answer === 'string' ? { ok: true as const, id: o.id, answer: o.answer } : { ok: false as const, problem: `no answer in ${line}` };
};

const send = (driver: LineDriver, id: string, extra: Record<string, unknown> = {}) => driver.exchange(id, `${JSON.stringify({ id, ...extra })}\n`, parse);

describe('a restarted version-2 peer that answers the hello after its limit', () => {
  it('the late hello answer is read as the hello\'s: the request after the restart is answered, not a protocol failure', async () => {
    const received: string[] = [];
    // The first start answers at once; every restart after its limit (twice it).
    const driver = driverOf((n) => (n === 1 ? 0 : 2 * HELLO_LIMIT_MS), received);
    try {
      expect(await driver.greeting()).toEqual({ protocol: 2, supports: ['collect'] });
      expect(await send(driver, 'r1', { crash: true })).toMatchObject({ ok: false, failure: 'crashed' });
      expect(await send(driver, 'r2')).toEqual({ ok: true, answer: 'to r2' });
      // The restart was greeted (the hello went out before r2), and it keeps answering.
      expect(received.map((l) => (JSON.parse(l) as { id: string }).id)).toEqual(['hello', 'r1', 'hello', 'r2']);
      expect(await send(driver, 'r3')).toEqual({ ok: true, answer: 'to r3' });
      expect(driver.starts).toBe(2);
      // What the first start said stands.
      expect(await driver.greeting()).toEqual({ protocol: 2, supports: ['collect'] });
    } finally {
      await driver.close();
    }
  });
  it('the control: a restart that answers the hello within its limit, the same requests answered the same', async () => {
    const driver = driverOf(() => 0);
    try {
      expect(await send(driver, 'r1', { crash: true })).toMatchObject({ ok: false, failure: 'crashed' });
      expect(await send(driver, 'r2')).toEqual({ ok: true, answer: 'to r2' });
      expect(driver.starts).toBe(2);
    } finally {
      await driver.close();
    }
  });
});
