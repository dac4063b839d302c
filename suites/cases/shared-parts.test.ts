// Small parts every side's run stands on: the case slots (how many cases at once), the run's
// randomness (one seed repeats a run), the waiver file read from disk, every case of the three sides.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  allCases, CLIENT_CASES, RECEIVER_CASES, SERVICE_CASES, 
} from '../../harness/cases/index.ts';
import { CaseSlots, defaultTimeouts, loadWaiverFile, MAX_CONCURRENCY, parseWaivers, WaiverFileError } from '../../harness/runner/index.ts';
import { randomSeed, seededRandom } from '../../harness/ids/index.ts';

describe('CaseSlots: an integer from 1 to MAX_CONCURRENCY, each slot released once', () => {
  it.each([0, -1, 1.5, MAX_CONCURRENCY + 1, Number.NaN])('%d is refused, naming the range and the value', (limit) => {
    expect(() => new CaseSlots(limit)).toThrow(new RangeError(`concurrency: must be an integer from 1 to ${MAX_CONCURRENCY} (got ${limit})`));
  });
  it.each([1, MAX_CONCURRENCY])('%d is taken', (limit) => {
    expect(new CaseSlots(limit).limit).toBe(limit);
  });
  it('a release called twice frees one slot, not two', async () => {
    const slots = new CaseSlots(1);
    const release = await slots.acquire();
    const second = slots.acquire();
    const third = slots.acquire();
    let thirdStarted = false;
    void third.then(() => { thirdStarted = true; });
    release();
    release();
    const releaseSecond = await second;
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(thirdStarted).toBe(false);
    releaseSecond();
    (await third)();
  });
});

describe('the run\'s randomness', () => {
  // mulberry32 as published, written independently of harness/ids/run-ids.ts.
  function mulberry32(seed: number): () => number {
    let a = seed;
    return () => {
      a |= 0; a = (a + 0x6D2B79F5) | 0;
      let t = Math.imul(a ^ (a >>> 15), 1 | a);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
  }
  it.each([0, 1, 42, 20261127, 2 ** 31 - 1])('seed %d: the same sequence as mulberry32', (seed) => {
    const ours = seededRandom(seed);
    const theirs = mulberry32(seed);
    for (let i = 0; i < 50; i++) expect(ours()).toBe(theirs());
  });
  it('a random seed is an integer in [0, 2^31), and they differ', () => {
    const seeds = Array.from({ length: 20 }, () => randomSeed());
    for (const seed of seeds) expect(Number.isInteger(seed) && seed >= 0 && seed < 2 ** 31, String(seed)).toBe(true);
    expect(new Set(seeds).size).toBeGreaterThan(1);
  });
});

describe('waivers from a file, and the blanket rule at its edges', () => {
  it('a file that cannot be read or parsed: WaiverFileError naming the path', () => {
    const dir = mkdtempSync(join(tmpdir(), 'waivers-'));
    try {
      const missing = join(dir, 'missing.json');
      expect(() => loadWaiverFile(missing)).toThrow(WaiverFileError);
      expect(() => loadWaiverFile(missing)).toThrow(`${missing}: cannot read the file (ENOENT)`);
      const good = join(dir, 'waivers.json');
      writeFileSync(good, JSON.stringify([{ id: 'receiver.latency.burst', reason: 'r' }]));
      expect(loadWaiverFile(good)).toEqual([{ id: 'receiver.latency.burst', reason: 'r' }]);
      const blanket = join(dir, 'blanket.json');
      writeFileSync(blanket, JSON.stringify([{ id: '*', reason: 'r' }]));
      expect(() => loadWaiverFile(blanket)).toThrow(`${blanket}: invalid waiver file: /0/id: "*" waives every case for ever`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
  it('a wildcard with text is not a blanket', () => {
    expect(parseWaivers([{ id: '*x', reason: 'r' }, { id: '*.latency.burst', reason: 'r' }])).toHaveLength(2);
  });
});

describe('defaultTimeouts: limits that follow the target file\'s timing, over a 1 s floor', () => {
  const receiver = (replyDeadlineMs: number) => ({ side: 'receiver', callbackUrl: 'http://127.0.0.1:9/cb', timing: { replyDeadlineMs } }) as never;
  const service = (callbackTimeoutMs: number, retryWindowMs = 2500) => ({ side: 'service', timing: { callbackTimeoutMs, retryWindowMs } }) as never;
  it('a receiver: twice its reply deadline per request (at least 1 s), six of them per case (at least 10 s)', () => {
    expect(defaultTimeouts(receiver(300))).toEqual({ perRequestTimeoutMs: 1000, caseTimeoutMs: 10_000 });
    expect(defaultTimeouts(receiver(3000))).toEqual({ perRequestTimeoutMs: 6000, caseTimeoutMs: 36_000 });
  });
  it('a service: its callback timeout per request (1 s to 10 s); per case the callback timeout, the retry window and three requests', () => {
    expect(defaultTimeouts(service(500))).toEqual({ perRequestTimeoutMs: 1000, caseTimeoutMs: 500 + 2500 + 3000 });
    expect(defaultTimeouts(service(3000))).toEqual({ perRequestTimeoutMs: 3000, caseTimeoutMs: 3000 + 2500 + 9000 });
    expect(defaultTimeouts(service(20_000, 60_000))).toEqual({ perRequestTimeoutMs: 10_000, caseTimeoutMs: 20_000 + 60_000 + 30_000 });
  });
  it('a client: its answer deadline per request, and a case long enough for the calls ahead', () => {
    const limits = defaultTimeouts({ side: 'client', timing: { answerDeadlineMs: 2000 } } as never);
    expect(limits.perRequestTimeoutMs).toBe(2000);
    expect(limits.caseTimeoutMs).toBeGreaterThanOrEqual(2 * 2000 + 5000);
  });
});

describe('allCases', () => {
  it('the receiver, service and client cases, in that order', () => {
    expect(allCases().map((c) => c.id)).toEqual([...RECEIVER_CASES, ...SERVICE_CASES, ...CLIENT_CASES].map((c) => c.id));
    expect(allCases().length).toBeGreaterThan(0);
  });
});
