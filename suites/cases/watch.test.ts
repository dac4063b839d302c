// TargetWatch: a target that stopped answering is given up on once SILENT_CASES_TO_STOP cases in a
// row got no answer at all and a plain request gets none either; never for a target that answers
// anything. Known answers with a stand-in liveness check.
import { describe, expect, it } from 'vitest';
import { SILENT_CASES_TO_STOP, silenceOf, TargetWatch } from '../../harness/cases/index.ts';
import type { CaseResult, Exchange } from '../../harness/results/index.ts';

const exchange = (answered: boolean, error?: string): Exchange => ({
  label: 'x', request: { method: 'GET', url: 'http://127.0.0.1:9/', headers: {} },
  ...(answered ? { response: { status: 500 } } : {}), ...(error ? { error } : {}),
}) as Exchange;
const result = (id: string, verdict: CaseResult['verdict'], exchanges?: Exchange[]): CaseResult => ({
  id, title: 't', level: 'MUST', specRef: '§0', verdict, durationMs: 1, ...(exchanges ? { evidence: { exchanges } } : {}),
});
const silent = (id: string, error = `ECONNREFUSED ${id}`) => result(id, 'ERROR', [exchange(false, error)]);
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('silenceOf: the error of an ERROR whose requests all went unanswered', () => {
  it('a verdict other than ERROR, an ERROR without requests, or with one answered: not silence', () => {
    expect(silenceOf(result('a', 'FAIL', [exchange(false, 'E')]))).toBeUndefined();
    expect(silenceOf(result('a', 'ERROR'))).toBeUndefined();
    expect(silenceOf(result('a', 'ERROR', [exchange(false, 'E1'), exchange(true)]))).toBeUndefined();
  });
  it('every request unanswered: the last one\'s error, or "no answer"', () => {
    expect(silenceOf(result('a', 'ERROR', [exchange(false, 'E1'), exchange(false, 'E2')]))).toBe('E2');
    expect(silenceOf(result('a', 'ERROR', [exchange(false)]))).toBe('no answer');
  });
});

describe('TargetWatch', () => {
  it(`${SILENT_CASES_TO_STOP} silent cases in a row and a plain request unanswered: stopped, naming the cause once, every later case listed`, async () => {
    let checks = 0;
    const watch = new TargetWatch(async () => { checks++; return 'ECONNREFUSED'; });
    const stopped: string[] = [];
    watch.whenStopped(() => stopped.push('first'));
    const unsubscribe = watch.whenStopped(() => stopped.push('gone'));
    unsubscribe();
    watch.observe(silent('a'));
    watch.observe(silent('b'));
    expect(watch.stopped).toBeUndefined();
    watch.observe(silent('c'));
    // While the plain request is under way, another silent case asks nothing more.
    watch.observe(silent('d'));
    await settle();
    expect(checks).toBe(1);
    expect(stopped).toEqual(['first']);
    expect(watch.stopped).toEqual({ cause: '4 cases in a row got no answer to any request they sent (the last: ECONNREFUSED c), and ECONNREFUSED', cases: ['a', 'b', 'c', 'd'] });
    expect(watch.reason).toBe(`the target stopped answering: ${watch.stopped!.cause}; this case's own outcome could not be observed`);
    watch.observe(result('e', 'PASS'));
    expect(watch.stopped!.cases).toEqual(['a', 'b', 'c', 'd', 'e']);
  });
  it('a SKIP between silences does not reset the count; any other verdict does', async () => {
    const watch = new TargetWatch(async () => 'down');
    watch.observe(silent('a'));
    watch.observe(silent('b'));
    watch.observe(result('skip', 'SKIP'));
    watch.observe(silent('c'));
    await settle();
    expect(watch.stopped?.cases).toEqual(['a', 'b', 'c']);
    const other = new TargetWatch(async () => 'down');
    other.observe(silent('a'));
    other.observe(silent('b'));
    other.observe(result('fail', 'FAIL', [exchange(true)]));
    other.observe(silent('c'));
    await settle();
    expect(other.stopped).toBeUndefined();
  });
  it('the plain request answered: not stopped, and the count starts again', async () => {
    let checks = 0;
    const watch = new TargetWatch(async () => { checks++; return undefined; });
    for (const id of ['a', 'b', 'c']) watch.observe(silent(id));
    await settle();
    expect([watch.stopped, checks]).toEqual([undefined, 1]);
    watch.observe(silent('d'));
    watch.observe(silent('e'));
    await settle();
    expect(checks).toBe(1);
    watch.observe(silent('f'));
    await settle();
    expect(checks).toBe(2);
  });
  it('a liveness check that throws lets a later silence check again; without a check the run is never stopped', async () => {
    let checks = 0;
    const watch = new TargetWatch(async () => { checks++; throw new Error('check failed'); });
    for (const id of ['a', 'b', 'c']) watch.observe(silent(id));
    await settle();
    watch.observe(silent('d'));
    await settle();
    expect([checks, watch.stopped]).toEqual([2, undefined]);
    const blind = new TargetWatch();
    for (const id of ['a', 'b', 'c', 'd']) blind.observe(silent(id));
    await settle();
    expect(blind.stopped).toBeUndefined();
  });
});
