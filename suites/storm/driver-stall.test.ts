// storm.reply-deadline is ERROR, not FAIL, when the kit's own event loop stalls (DESIGN.md "A
// callback storm": "a driver that itself fell behind makes it ERROR"), proven on a real storm:
// a timer in the driver's process busy-waits 900 ms in the middle of a small scaled storm
// against the correct reference receiver, so the deliveries due meanwhile go out late; the case
// names the stall (the driver's lateness, its event loop's delay). The positive control: the
// same storm unblocked PASSes. End-to-end tier (suites/support/tiers.ts): two timed storms of
// about 8 s, one with 0.9 s of busy CPU.
import { describe, expect, it } from 'vitest';
import { startEmbeddedReceiver } from '../../harness/embedded/index.ts';
import type { CaseResult } from '../../harness/results/index.ts';
import { runStorm, STORM_CASES, type StormSettings } from '../../harness/storm/index.ts';

const SEED = Number(process.env.CC_SEED ?? 43);
const DEADLINE_MS = 600;
/** Longer than the deadline: every delivery due in it is late by the driver's fault alone. */
const STALL_MS = 900;
/**
 * 400 outcomes once each at 50/s (8 s), 5 % bad tokens; the stall 2 s in, so about 45 deliveries
 * fall in it (12 %, far past p99). A slow rate keeps the burst after the stall small for the
 * receiver in this same process, and few attempts in flight when it starts (their replies are
 * read late too, and count as the receiver's time).
 */
const SETTINGS: StormSettings = {
  callbacks: 400, ratePerS: 50, duplicates: 1, badTokensPct: 5, seed: SEED, tag: 'stall', settleMs: 300,
  // Attempts given up only far past the stall: the late ones are timed, not cut off.
  driver: { timeoutMs: 5000, backoffMs: 200, timeScale: 0.25, maxAttempts: 3 },
};
const STALL_AT_MS = 2000;

/** Blocks this process's event loop for `ms` (a synchronous busy wait), as a machine too loaded for the rate would. */
function busyWait(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) { /* the driver's timers and sockets wait */ }
}

async function storm(stallAtMs?: number): Promise<Record<string, CaseResult>> {
  const embedded = await startEmbeddedReceiver({ replyDeadlineMs: DEADLINE_MS });
  const timers: NodeJS.Timeout[] = [];
  try {
    const run = await runStorm({
      target: embedded.target, settings: SETTINGS,
      onPhase: (phase) => {
        if (phase === 'storming' && stallAtMs !== undefined) timers.push(setTimeout(() => busyWait(STALL_MS), stallAtMs));
      },
    });
    return Object.fromEntries(run.results.map((r) => [r.id, r]));
  } finally {
    for (const t of timers) clearTimeout(t);
    await embedded.close();
  }
}

const verdicts = (results: Record<string, CaseResult>) => Object.fromEntries(Object.values(results).map((r) => [r.id, r.verdict]));
const explain = (results: Record<string, CaseResult>) => Object.values(results).filter((r) => r.verdict !== 'PASS').map((r) => `${r.id}: ${r.verdict} ${r.reason ?? ''}`).join('\n');
const allPass = Object.fromEntries(STORM_CASES.map((c) => [c.id, 'PASS']));

describe(`storm.reply-deadline when the driver itself falls behind (seed ${SEED})`, () => {
  it(`the driver's event loop blocked ${STALL_MS} ms mid-storm: ERROR naming the stall, not FAIL; the cases on the records still PASS`, async () => {
    const results = await storm(STALL_AT_MS);
    expect(verdicts(results), explain(results)).toEqual({ ...allPass, 'storm.reply-deadline': 'ERROR' });
    const c = results['storm.reply-deadline']!;
    expect(c.reason).toMatch(/^p99 [\d.]+ ms is over the 600 ms deadline only because the driver itself fell behind its schedule(, and its event loop stood still \d+ time\(s\), up to \d+ ms, while replies were on the wire)? \(without its own lateness and stalls p99 is [\d.]+ ms; its event loop's delay p99 [\d.]+ ms\): the machine running the storm is too loaded for this rate, which says nothing about the receiver; lower --rate$/);
    // The stall is in the evidence: the driver's lateness and its event loop's longest delay, each about the busy wait.
    const { latency, latencySplit, driverEventLoop } = c.evidence!;
    expect(latency!.p99Ms).toBeGreaterThan(DEADLINE_MS);
    expect(latencySplit!.p99WithoutDriverLagMs).toBeLessThanOrEqual(DEADLINE_MS);
    expect(latencySplit!.driverLag.maxMs).toBeGreaterThan(0.8 * STALL_MS);
    expect(driverEventLoop!.maxMs).toBeGreaterThan(0.8 * STALL_MS);
  }, 60_000);
  it('the positive control: the same storm, the loop never blocked, PASSes every case, the driver never that late', async () => {
    const results = await storm();
    expect(verdicts(results), explain(results)).toEqual(allPass);
    const { latency, latencySplit } = results['storm.reply-deadline']!.evidence!;
    expect(latency!.samples).toBeGreaterThan(0.9 * SETTINGS.callbacks);
    expect(latencySplit!.driverLag.maxMs).toBeLessThan(0.8 * STALL_MS);
  }, 60_000);
});
