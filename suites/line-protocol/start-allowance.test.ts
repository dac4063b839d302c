// A fresh instance's start is not its answer time: the first request to an instance that has not
// shown it is running (no hello answered) waits the start allowance more. CI saw a restarted node
// signer take over 400 ms to start on a loaded machine; the two vectors after a hang timed out and
// the driver gave up on a correct signer. In-process peers that start slowly stand in for it.
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import { InProcessLineEnd, LineDriver, type LinePeer } from '../../harness/line-protocol/index.ts';

const START_MS = 250;
const TIMEOUT_MS = 100;

/** Takes START_MS before it reads anything (a slow start), answers the hello as `hello` says, never answers those in `hangOn`. */
function slowStarter(hangOn: string[], hello: 'version-2' | 'error'): LinePeer {
  return async ({ input, output }) => {
    await new Promise((resolve) => setTimeout(resolve, START_MS));
    for await (const line of createInterface({ input, crlfDelay: Infinity })) {
      const request = JSON.parse(line) as { id: string; op?: string };
      if (request.op === 'hello') {
        output.write(`${hello === 'version-2' ? JSON.stringify({ id: 'hello', protocol: 2, supports: ['sign'] }) : JSON.stringify({ id: 'hello', error: 'no such op' })}\n`);
      } else if (!hangOn.includes(request.id)) {
        output.write(`${JSON.stringify({ id: request.id, answer: `to ${request.id}` })}\n`);
      }
    }
  };
}

const parse = (line: string) => {
  const o = JSON.parse(line) as { id: string; answer?: string };
  return typeof o.answer === 'string' ? { ok: true as const, id: o.id, answer: o.answer } : { ok: false as const, problem: `no answer in ${line}` };
};

async function exchanges(driver: LineDriver, ids: string[]) {
  const out: string[] = [];
  for (const id of ids) {
    const result = await driver.exchange(id, `${JSON.stringify({ id })}\n`, parse);
    out.push(result.ok ? 'answered' : result.failure);
  }
  return out;
}

function driverOf(hangOn: string[], hello: 'version-2' | 'error', startAllowanceMs?: number) {
  return new LineDriver({
    start: () => new InProcessLineEnd(slowStarter(hangOn, hello)),
    words: { noun: 'signer', unit: 'vector', doing: 'signing this vector' },
    timeoutMs: TIMEOUT_MS,
    // Long enough for the slow start: the hello is answered (or errs) in time, so the version is known.
    hello: { limitMs: 2000 },
    ...(startAllowanceMs === undefined ? {} : { startAllowanceMs }),
  });
}

describe('the first request to a fresh instance waits for its start', () => {
  it('a version-1 signer restarted after a hang: the vector after it is answered, not timed out', async () => {
    const driver = driverOf(['v2'], 'error', 1000);
    try {
      expect(await exchanges(driver, ['v1', 'v2', 'v3', 'v4'])).toEqual(['answered', 'timeout', 'answered', 'answered']);
      expect(driver.starts).toBe(2);
    } finally {
      await driver.close();
    }
  });
  it('the control: without the allowance, the restart\'s slow start reads as a time-out (what CI saw)', async () => {
    const driver = driverOf(['v2'], 'error', 0);
    try {
      expect(await exchanges(driver, ['v1', 'v2', 'v3'])).toEqual(['answered', 'timeout', 'timeout']);
    } finally {
      await driver.close();
    }
  });
  it('a version-2 signer answered the hello, so it is running: its request\'s time is its own, no allowance', async () => {
    const driver = driverOf(['v1'], 'version-2', 1000);
    try {
      const result = await driver.exchange('v1', `${JSON.stringify({ id: 'v1' })}\n`, parse);
      expect(result).toMatchObject({ ok: false, failure: 'timeout', reason: expect.stringMatching(new RegExp(`^no answer within ${TIMEOUT_MS} ms; `)) });
    } finally {
      await driver.close();
    }
  });
  it('a time-out within the allowance says so', async () => {
    const driver = driverOf(['v1', 'v2'], 'error', 1000);
    try {
      expect(await exchanges(driver, ['v1'])).toEqual(['timeout']);
      const result = await driver.exchange('v2', `${JSON.stringify({ id: 'v2' })}\n`, parse);
      expect(result).toMatchObject({ ok: false, failure: 'timeout', limitMs: TIMEOUT_MS, reason: expect.stringMatching(new RegExp(`^no answer within ${TIMEOUT_MS} ms \\(and \\d+ ms more for a fresh signer to start\\)`)) });
    } finally {
      await driver.close();
    }
  });
});
