// Each volume fault of the reference receiver FAILs its storm case (and only it), the correct
// receiver and its shedding mode PASS every storm case: small scaled storms (hundreds of
// callbacks, a one-second deadline) on loopback, one at a time (they time replies). End-to-end
// tier (suites/support/tiers.ts): about half a minute of storms.
import { describe, expect, it } from 'vitest';
import { startEmbeddedReceiver, type EmbeddedReceiverOptions } from '../../harness/embedded/index.ts';
import type { CaseResult } from '../../harness/results/index.ts';
import { runStorm, STORM_CASES, type StormSettings } from '../../harness/storm/index.ts';
import { STORM_FAULT_CATALOG } from '../self-test/storm-fault-catalog.ts';
import { allPass, expectCaught, explain, verdicts } from './storm-verdicts.ts';

const SEED = Number(process.env.CC_SEED ?? 38);
const DEADLINE_MS = 1000;

/** 300 ids twice each at 150/s (about 4 s), 10 % bad tokens; 4 attempts, back-off and Retry-After at a quarter. */
const SETTINGS: StormSettings = {
  callbacks: 300, ratePerS: 150, duplicates: 2, badTokensPct: 10, seed: SEED, tag: 'e2e', settleMs: 500,
  driver: { backoffMs: 200, timeScale: 0.25, maxAttempts: 4 },
};
const STORM_TIMEOUT_MS = 90_000;

/** Sizes that one machine's storm overruns: a cache of 50 ids, 2 connections held 25 ms (80/s), a queue of 20 at 50/s. */
const VOLUME = { recentIds: 50, poolSize: 2, holdMs: 25, queueSize: 20, itemMs: 20 };

async function storm(options: EmbeddedReceiverOptions, settings: StormSettings = SETTINGS): Promise<Record<string, CaseResult>> {
  const embedded = await startEmbeddedReceiver({ replyDeadlineMs: DEADLINE_MS, volume: VOLUME, ...options });
  try {
    const run = await runStorm({ target: embedded.target, settings });
    expect(run.results.map((r) => r.id)).toEqual(STORM_CASES.map((c) => c.id));
    return Object.fromEntries(run.results.map((r) => [r.id, r]));
  } finally {
    await embedded.close();
  }
}


describe(`storm against the correct reference receiver (seed ${SEED})`, () => {
  it('every storm case PASSes, each exercised: outcomes applied, bad tokens sent, replies timed', async () => {
    const results = await storm({});
    expect(verdicts(results), explain(results)).toEqual(allPass);
    const counts = results['storm.none-lost']!.evidence!.counts!;
    expect(counts.outcomes).toBeGreaterThan(240);
    expect(counts.badTokenIds).toBeGreaterThan(10);
    expect(results['storm.reply-deadline']!.evidence!.latency!.samples).toBeGreaterThanOrEqual(2 * counts.outcomes);
  }, STORM_TIMEOUT_MS);
  it('its shedding mode (503 + Retry-After) PASSes too: it shed, and every shed outcome converged after the retries', async () => {
    // 100/s against 150/s for 4 s: about 5.5 s of work, inside the 40 attempts' 10 s of Retry-After.
    const results = await storm({ shedding: true, volume: { ...VOLUME, holdMs: 20, shedAbove: 4, retryAfterS: 1 } }, { ...SETTINGS, driver: { ...SETTINGS.driver, maxAttempts: 40 } });
    expect(verdicts(results), explain(results)).toEqual(allPass);
    const counts = results['storm.shedding']!.evidence!.counts!;
    expect(counts.shedAnswers).toBeGreaterThan(0);
    expect(counts.stillShed).toBe(0);
  }, STORM_TIMEOUT_MS);
});

describe('each volume fault FAILs its storm case, for the reason the catalog pins; the other storm cases PASS', () => {
  for (const entry of STORM_FAULT_CATALOG) {
    it(`${entry.fault}: ${entry.caseIds[0]} FAIL`, async () => {
      expectCaught(await storm({ faults: [entry.fault] }), entry);
    }, STORM_TIMEOUT_MS);
  }
});
