// The storm's plan (harness/storm/plan.ts): deterministic from the seed, streamed, every valid
// callback delivered K times (at once, or long after, past a short cache), a share with bad tokens.
import { describe, expect, it } from 'vitest';
import { matchesShape } from '../../harness/ids/index.ts';
import { AttemptLog, StormPlan, type PlannedDelivery } from '../../harness/storm/index.ts';

const OPTIONS = { callbacks: 400, ratePerS: 100, duplicates: 3, badTokensPct: 10, seed: 42, tag: 't' };
const all = (plan: StormPlan): PlannedDelivery[] => [...plan.stream()];

describe('storm plan: deterministic from the seed', () => {
  it('the same seed gives the same deliveries, ids and outcomes; another seed does not', () => {
    const a = new StormPlan(OPTIONS);
    const b = new StormPlan(OPTIONS);
    const c = new StormPlan({ ...OPTIONS, seed: 43 });
    expect(all(a)).toEqual(all(b));
    expect(JSON.stringify(all(a))).not.toBe(JSON.stringify(all(c)));
    const shaped = { template: 'ORD-{id}-{uuid}' };
    const withUuid = new StormPlan({ ...OPTIONS, shape: shaped });
    expect(withUuid.idOf(7)).toBe(new StormPlan({ ...OPTIONS, shape: shaped }).idOf(7));
    expect(withUuid.idOf(7)).not.toBe(new StormPlan({ ...OPTIONS, seed: 43, shape: shaped }).idOf(7));
  });
});

describe('storm plan: every callback delivered K times, some at once, some long after', () => {
  const plan = new StormPlan(OPTIONS);
  const deliveries = all(plan);
  it(`${OPTIONS.callbacks} ids × ${OPTIONS.duplicates} copies, each copy once, in the target's id shape`, () => {
    expect(deliveries).toHaveLength(plan.deliveries);
    const seen = new Set(deliveries.map((d) => `${d.index}/${d.copy}`));
    expect(seen.size).toBe(plan.deliveries);
    const shaped = new StormPlan({ ...OPTIONS, shape: { template: 'ORD-{id}-{uuid}', maxLength: 80 } });
    for (let i = 0; i < 20; i++) expect(matchesShape({ template: 'ORD-{id}-{uuid}', maxLength: 80 }, shaped.idOf(i))).toBe(true);
    expect(new Set(Array.from({ length: 400 }, (_, i) => plan.idOf(i))).size).toBe(400);
  });
  it('intended times never go back, at the rate asked; an at-once copy shares its first copy\'s time', () => {
    for (let k = 1; k < deliveries.length; k++) expect(deliveries[k]!.atMs).toBeGreaterThanOrEqual(deliveries[k - 1]!.atMs);
    const slots = deliveries.filter((d) => d.when !== 'at-once').length;
    expect(deliveries.at(-1)!.atMs).toBeCloseTo(((slots - 1) * 1000) / OPTIONS.ratePerS, 6);
    const first = new Map(deliveries.filter((d) => d.when === 'first').map((d) => [d.index, d.atMs]));
    const atOnce = deliveries.filter((d) => d.when === 'at-once');
    expect(atOnce.length).toBeGreaterThan(0);
    for (const d of atOnce) expect(d.atMs).toBe(first.get(d.index));
  });
  it('a late copy comes after the first copies of lateGap other ids (past a cache that small; at the tail, of every id after it)', () => {
    const late = deliveries.filter((d) => d.when === 'late');
    expect(late.length).toBeGreaterThan(0);
    for (const d of late) {
      const at = deliveries.indexOf(d);
      const firstAt = deliveries.findIndex((x) => x.index === d.index && x.copy === 0);
      const between = new Set(deliveries.slice(firstAt + 1, at).filter((x) => x.when === 'first').map((x) => x.index));
      expect(between.size).toBe(Math.min(plan.lateGap, OPTIONS.callbacks - 1 - d.index));
    }
  });
  it('about the share of ids asked gets only bad tokens, of every kind; the others only the valid one', () => {
    const bad = Array.from({ length: OPTIONS.callbacks }, (_, i) => i).filter((i) => plan.isBadToken(i));
    expect(bad.length).toBeGreaterThan(OPTIONS.callbacks * 0.05);
    expect(bad.length).toBeLessThan(OPTIONS.callbacks * 0.15);
    for (const d of deliveries) expect(d.token === 'valid').toBe(!plan.isBadToken(d.index));
    expect(new Set(deliveries.filter((d) => d.token !== 'valid').map((d) => d.token))).toEqual(new Set(['wrong', 'missing', 'one-char-extra', 'different-case']));
  });
});

describe('storm plan: streamed (no memory per planned delivery)', () => {
  it('200,000 deliveries stream with a heap that grows far less than 300 bytes each', () => {
    const plan = new StormPlan({ ...OPTIONS, callbacks: 100_000, duplicates: 2 });
    const before = process.memoryUsage().heapUsed;
    let count = 0;
    let peak = before;
    for (const d of plan.stream()) {
      count += d.copy >= 0 ? 1 : 0;
      if (count % 20_000 === 0) peak = Math.max(peak, process.memoryUsage().heapUsed);
    }
    expect(count).toBe(200_000);
    // Garbage not yet collected counts against it: the bound is loose, a plan held in memory would exceed it.
    expect((peak - before) / count).toBeLessThan(300);
  });
  it('the attempt log holds a row in about 34 bytes', () => {
    expect(AttemptLog.BYTES_PER_ROW).toBeLessThanOrEqual(40);
    const log = new AttemptLog(4);
    for (let r = 0; r < 100; r++) log.start(r, 0, 1, 'valid', r, r);
    expect(log.length).toBe(100);
    expect(log.row(99)).toMatchObject({ index: 99, copy: 0, attempt: 1, token: 'valid', intendedMs: 99 });
  });
});
