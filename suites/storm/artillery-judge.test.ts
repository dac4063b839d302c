// `storm --judge` on known answers, no receiver and no Artillery: delivery logs read back (several
// replays, and the logs it refuses), an id never delivered or never answered 2xx counted "not
// reached" and never lost, and the judgement on Artillery's report alone (no delivery logs, as
// after run-fargate): lost, not reached, a run cut short, late replies, a bad token answered 2xx.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DeliveryLogError, judgeOnReport, LOG_FIELDS, LOG_FORMAT, METRICS, readDeliveryLogs, type ArtilleryReport, type ExportedPlan } from '../../harness/artillery/index.ts';
import type { CaseResult } from '../../harness/results/index.ts';
import { AttemptLog, judgeStorm, Readings, StormPlan, type JudgeInput } from '../../harness/storm/index.ts';

const root = mkdtempSync(join(tmpdir(), 'storm-judge-artillery-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let folders = 0;

const plan = new StormPlan({ callbacks: 6, ratePerS: 10, duplicates: 2, badTokensPct: 0, seed: 1, tag: 'j' });
const header = (runId = 'j') => JSON.stringify({ format: LOG_FORMAT, fields: LOG_FIELDS, runId });
/** A log line: id i, copy c, attempt a, answered `status` `ms` after its intended send at `at` (epoch ms). */
const line = (i: number, c: number, status: number, at = 1_000_000 + i * 100, ms = 5, a = 1) => JSON.stringify([i, c, a, 'valid', at, at + 1, at + 1, at + ms, status, status === 0 ? 'timeout' : null, null]);

function logsFolder(files: Record<string, string[]>): string {
  const dir = join(root, `logs-${++folders}`);
  mkdirSync(dir);
  for (const [name, lines] of Object.entries(files)) writeFileSync(join(dir, name), `${lines.join('\n')}\n`);
  return dir;
}

const byId = (results: CaseResult[]) => Object.fromEntries(results.map((r) => [r.id, r]));

/** Records: every id applied as sent, but those listed pending. */
function readings(pending: number[] = []): Readings {
  const r = new Readings(plan.callbacks);
  for (let i = 0; i < plan.callbacks; i++) r.set(i, { transaction_id: plan.idOf(i), state: pending.includes(i) ? 'pending' : plan.outcomeOf(i), value: null, actions: pending.includes(i) ? 0 : 1 });
  return r;
}

describe('delivery logs: every replay read, times from each one\'s own start', () => {
  it('two logs of the whole plan (two containers): replays 2, every id delivered, each replay timed from its own first send', () => {
    const replay = (at: number) => [header(), ...[0, 1, 2, 3, 4, 5].flatMap((i) => [line(i, 0, 200, at + i * 100), line(i, 1, 200, at + i * 100)])];
    const logs = readDeliveryLogs(logsFolder({ 'a.jsonl': replay(1_000_000), 'b.jsonl': replay(9_000_000) }), plan)!;
    expect([logs.replays, logs.log.length, logs.files]).toEqual([2, 24, ['a.jsonl', 'b.jsonl']]);
    expect([...logs.delivered]).toEqual([1, 1, 1, 1, 1, 1]);
    expect(logs.durationMs).toBe(505);
    expect([logs.log.intendedAt(0), logs.log.intendedAt(12)]).toEqual([0, 0]);
  });
  it('none there: undefined (the report alone is judged)', () => {
    expect(readDeliveryLogs(join(root, 'nothing'), plan)).toBeUndefined();
    expect(readDeliveryLogs(logsFolder({ 'notes.txt': ['x'] }), plan)).toBeUndefined();
  });
  it.each([
    ['another export\'s log', [header('other'), line(0, 0, 200)], 'written for the export tagged "other", not this one ("j")'],
    ['a line cut off', [header(), line(0, 0, 200).slice(0, 20)], 'line 2: not JSON'],
    ['an id the plan does not have', [header(), line(9, 0, 200)], 'id index 9'],
    ['not a delivery log', [JSON.stringify({ format: 'something else' })], 'not a delivery log of this kit'],
  ])('refused, naming the file and line: %s', (_name, lines, message) => {
    expect(() => readDeliveryLogs(logsFolder({ 'x.jsonl': lines }), plan)).toThrow(DeliveryLogError);
    expect(() => readDeliveryLogs(logsFolder({ 'x.jsonl': lines }), plan)).toThrow(message);
  });
});

describe('storm.none-lost: an outcome not reached is never lost', () => {
  const input = (log: AttemptLog, over: Partial<JudgeInput> = {}): JudgeInput => ({
    plan, log, readings: readings(), replyDeadlineMs: 100, maxAttempts: 3, countsActions: true, planned: () => true, durationMs: 1000, ...over,
  });
  it('ids never delivered (an engine cut short) are counted not reached beside the ones delivered, and the case PASSes', () => {
    const log = new AttemptLog();
    for (const i of [0, 1, 2]) log.answered(log.start(i, 0, 1, 'valid', 0, 0), 5, 200, Number.NaN);
    const lost = byId(judgeStorm(input(log, { readings: readings([3, 4, 5]), planned: (i) => i < 3, notDelivered: 3 })))['storm.none-lost']!;
    expect(lost.verdict).toBe('PASS');
    expect(lost.evidence!.counts).toMatchObject({ lost: 0, notReached: 3, notDelivered: 3 });
    expect(lost.evidence!.notes).toContain('3 outcomes never delivered at all: not reached, not lost');
  });
  it('no outcome answered 2xx at all: SKIP, not exercised (never a PASS that proves nothing)', () => {
    const log = new AttemptLog();
    for (let i = 0; i < plan.callbacks; i++) log.answered(log.start(i, 0, 1, 'valid', 0, 0), 5, 503, 1);
    const lost = byId(judgeStorm(input(log, { readings: readings([0, 1, 2, 3, 4, 5]) })))['storm.none-lost']!;
    expect([lost.verdict, lost.reason]).toEqual(['SKIP', 'not exercised: none of the 6 outcomes was answered 2xx, so none could be lost (6 never answered 2xx, 0 never delivered)']);
  });
});

describe('judged on Artillery\'s report alone (no delivery logs): records and the processor\'s counters', () => {
  const exported = { deliveries: plan.deliveries } as ExportedPlan;
  function report(counters: Record<string, number>, unanswered: Array<[number, number]> = [], p99 = 40): ArtilleryReport {
    return { file: 'report.json', counters: { 'vusers.created': plan.deliveries, ...counters }, summaries: { [METRICS.deliveryMs]: { count: 12, p50: 10, p99, max: p99 + 5 } }, unanswered: new Map(unanswered) };
  }
  const judge = (r: ArtilleryReport, pending: number[] = []) => byId(judgeOnReport({
    plan, log: new AttemptLog(16), readings: readings(pending), replyDeadlineMs: 100, maxAttempts: 3, countsActions: true, planned: () => true, durationMs: 0, note: 'judged without delivery logs',
  }, r, exported));

  it('every record applied, p99 within the deadline, no bad token answered 2xx: every case PASS', () => {
    const results = judge(report({}));
    expect(Object.values(results).map((r) => r.verdict)).toEqual(['PASS', 'PASS', 'SKIP', 'PASS', 'PASS']);
    expect(results['storm.bad-token-inert']!.reason).toContain('not exercised');
    expect(results['storm.reply-deadline']!.evidence!.latency).toEqual({ samples: 12, p50Ms: 10, p99Ms: 40, maxMs: 45 });
    expect(results['storm.exactly-once']!.evidence!.notes).toContain('judged without delivery logs');
  });
  it('a pending id some delivery got a 2xx for: lost, FAIL; one whose every delivery ended unanswered: not reached', () => {
    // id 1: both copies unanswered (not reached); id 2: one of two unanswered (the other got its 2xx): lost.
    const results = judge(report({}, [[1, 2], [2, 1]]), [1, 2]);
    const lost = results['storm.none-lost']!;
    expect(lost.verdict).toBe('FAIL');
    expect(lost.reason).toContain(`1 outcome of 6 answered 2xx at least once and never applied`);
    expect(lost.reason).toContain(`first: ${plan.idOf(2)}`);
    expect(lost.evidence!.counts).toMatchObject({ lost: 1, notReached: 1, pending: 2 });
  });
  it('the same ids when Artillery ran twice (two containers): two unanswered of four is reached, hence lost', () => {
    const results = judge(report({ 'vusers.created': 2 * plan.deliveries }, [[1, 4], [2, 2]]), [1, 2]);
    expect(results['storm.none-lost']!.evidence!.counts).toMatchObject({ replays: 2, lost: 1, notReached: 1 });
  });
  it('a run cut short (not a whole number of replays) with ids pending: ERROR, it cannot tell lost from not reached', () => {
    const results = judge(report({ 'vusers.created': plan.deliveries - 3 }), [4]);
    expect(results['storm.none-lost']!.verdict).toBe('ERROR');
    expect(results['storm.none-lost']!.reason).toContain('not a whole number of replays');
  });
  it('p99 of collect.delivery_ms over the deadline: reply-deadline FAIL naming the late and unanswered attempts', () => {
    const results = judge(report({ [METRICS.late]: 5, [METRICS.noReply]: 2 }, [], 450));
    expect(results['storm.reply-deadline']!.verdict).toBe('FAIL');
    expect(results['storm.reply-deadline']!.reason).toContain('is 450 ms, over the 100 ms deadline (§6 rule 3): 5 attempts late, 2 with no reply');
  });
  it('a bad-token delivery answered 2xx (the processor\'s counter), though no record changed: bad-token-inert FAIL; without it PASS', () => {
    const badPlan = new StormPlan({ callbacks: 6, ratePerS: 10, duplicates: 2, badTokensPct: 50, seed: 1, tag: 'j' });
    const records = new Readings(6);
    for (let i = 0; i < 6; i++) records.set(i, { transaction_id: badPlan.idOf(i), state: badPlan.isBadToken(i) ? 'pending' : badPlan.outcomeOf(i), value: null, actions: badPlan.isBadToken(i) ? 0 : 1 });
    const judgeBad = (r: ArtilleryReport) => byId(judgeOnReport({
      plan: badPlan, log: new AttemptLog(16), readings: records, replyDeadlineMs: 100, maxAttempts: 3, countsActions: true, planned: () => true, durationMs: 0,
    }, r, { deliveries: badPlan.deliveries } as ExportedPlan))['storm.bad-token-inert']!;
    expect(judgeBad(report({ 'vusers.created': badPlan.deliveries })).verdict).toBe('PASS');
    const caught = judgeBad(report({ 'vusers.created': badPlan.deliveries, [METRICS.bad2xx]: 2 }));
    expect([caught.verdict, caught.reason]).toEqual(['FAIL', '2 bad-token deliveries answered 2xx, though no record changed (§6 rule 1 says 403; no delivery logs, so not which ids)']);
  });
  it('shed answers, and outcomes never answered 2xx after them: shedding WARN', () => {
    const results = judge(report({ [METRICS.shed]: 7 }, [[3, 2]]), [3]);
    expect(results['storm.shedding']!.verdict).toBe('WARN');
    expect(results['storm.none-lost']!.verdict).toBe('PASS');
  });
});
