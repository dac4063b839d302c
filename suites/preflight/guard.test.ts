// guardNegatives (harness/preflight/guard.ts): a negative case proves something only beside its
// positive control (DESIGN.md). Its PASS beside a control that failed becomes ERROR naming the
// control, beside one that could not run SKIP; a FAIL stays, but a FAIL on the answer alone beside
// a control whose answer failed too is ERROR (it likely shares the cause). A case that says which
// half of a two-halved control its verdict rests on is judged beside that half. Synthetic cases
// and preflights: the rule is the guard's, whatever produced them.
import { describe, expect, it } from 'vitest';
import type { CaseOutcome, ConformanceCase, ControlHalf, NegativeKind } from '../../harness/cases/index.ts';
import { guardNegatives, type Control, type ControlState, type Preflight } from '../../harness/preflight/index.ts';

const ctx = {} as Parameters<ConformanceCase['run']>[0];
const WHAT = 'the control';

function negative(outcome: CaseOutcome, kind: NegativeKind = 'refusal', id = 'receiver.token.missing'): ConformanceCase {
  return { id, title: id, specRef: '§6', level: 'MUST', side: 'receiver', needs: [], negative: kind, run: async () => outcome };
}

function preflightWith(state: ControlState, halves?: Record<ControlHalf, ControlState>, kind: NegativeKind = 'refusal'): Preflight {
  const control: Control = { state, what: WHAT, observed: 'it saw X', ...(halves ? { halves } : {}) };
  return { side: 'receiver', findings: [], controls: { [kind]: control } };
}

/** The outcome of `outcome`'s case guarded beside `preflight`, and whether it was taken back. */
async function guarded(outcome: CaseOutcome, preflight: Preflight | Promise<Preflight>) {
  const takenBack: string[] = [];
  const [c] = guardNegatives([negative(outcome)], preflight, takenBack);
  return { outcome: await c!.run(ctx), takenBack };
}

const UNPROVEN = `the target refused or did nothing, but that proves nothing here: the positive control (${WHAT}) did not hold: it saw X`;

describe('a case that is not negative is never touched, but for a finding that leaves it unjudged', () => {
  it('a service or client case: the very case comes back, whatever the control', () => {
    const positive = { ...negative({ verdict: 'PASS' }, 'refusal', 'service.collect.valid'), side: 'service', negative: undefined } as unknown as ConformanceCase;
    const [same] = guardNegatives([positive], preflightWith('failed'));
    expect(same).toBe(positive);
  });
  it('a receiver case beside a preflight without a blocking finding: its verdict stands, whatever it is', async () => {
    for (const outcome of [{ verdict: 'PASS' }, { verdict: 'FAIL', reason: 'answered 403', evidence: { exchanges: [answered(403)] } }] as CaseOutcome[]) {
      const [c] = guardNegatives([positive(outcome)], preflightWith('failed'));
      expect(await c!.run(ctx)).toEqual(outcome);
    }
  });
});

/** A positive receiver case with this outcome. */
function positive(outcome: CaseOutcome, id = 'receiver.outcome.success-applied'): ConformanceCase {
  return { ...negative(outcome, 'refusal', id), negative: undefined } as unknown as ConformanceCase;
}
const answered = (status: number) => ({ label: 'callback SUCCESS', request: { method: 'GET', url: 'http://127.0.0.1:1/cb', headers: {} }, response: { status, durationMs: 1 } });

describe('a finding that leaves the other cases unjudged (Finding.blocking): the positive cases that met it are ERROR naming it, not FAIL', () => {
  const blocked: Preflight = {
    side: 'receiver',
    controls: { refusal: { state: 'failed', what: WHAT, observed: 'it was answered 403' } },
    findings: [{ id: 'receiver.token-refused', summary: 's', symptom: { kind: 'status', status: 403 }, blocking: { headline: 'the configured token was refused', advice: 'check it', judgedBy: ['receiver.token.valid'] } }],
  };
  const run = async (c: ConformanceCase) => {
    const takenBack: string[] = [];
    const [guardedCase] = guardNegatives([c], Promise.resolve(blocked), takenBack);
    return { outcome: await guardedCase!.run(ctx), takenBack };
  };
  const failed403: CaseOutcome = { verdict: 'FAIL', reason: 'answered 403', evidence: { exchanges: [answered(403)] } };
  it('a FAIL on the finding\'s answer: ERROR, not exercised, naming the finding, and taken back', async () => {
    expect(await run(positive(failed403))).toEqual({
      outcome: { ...failed403, verdict: 'ERROR', reason: "not exercised: the configured token was refused (the preflight's finding receiver.token-refused), and this case's valid callback got the same answer: answered 403" },
      takenBack: ['receiver.outcome.success-applied'],
    });
  });
  it('the case the finding names as judging it (receiver.token.valid): its FAIL stands on its own evidence', async () => {
    expect(await run(positive(failed403, 'receiver.token.valid'))).toEqual({ outcome: failed403, takenBack: [] });
  });
  it('a FAIL on another answer (its callback got through): it stands; a PASS stands', async () => {
    const other: CaseOutcome = { verdict: 'FAIL', reason: 'answered 500', evidence: { exchanges: [answered(500)] } };
    expect(await run(positive(other))).toEqual({ outcome: other, takenBack: [] });
    expect(await run(positive({ verdict: 'PASS' }))).toEqual({ outcome: { verdict: 'PASS' }, takenBack: [] });
  });
  it('a negative case whose PASS is taken back names the finding first', async () => {
    const { outcome } = await run(negative({ verdict: 'PASS', restsOn: 'effect' }));
    expect(outcome).toMatchObject({ verdict: 'ERROR', reason: expect.stringMatching(/^not exercised: the configured token was refused \(the preflight's finding receiver.token-refused\); the target refused or did nothing, but that proves nothing here/) });
  });
});

describe('a control that held: the verdict stands, without restsOn', () => {
  it('PASS and FAIL stay as they are', async () => {
    expect(await guarded({ verdict: 'PASS', restsOn: 'effect' }, preflightWith('held'))).toEqual({ outcome: { verdict: 'PASS' }, takenBack: [] });
    expect(await guarded({ verdict: 'FAIL', reason: 'answered 200' }, preflightWith('held'))).toEqual({ outcome: { verdict: 'FAIL', reason: 'answered 200' }, takenBack: [] });
  });
  it('no control of the case\'s kind (a side without it): the verdict stands', async () => {
    const other = preflightWith('failed', undefined, 'no-delivery');
    expect(await guarded({ verdict: 'PASS', restsOn: 'answer' }, other)).toEqual({ outcome: { verdict: 'PASS' }, takenBack: [] });
  });
  it('a FAIL on the answer beside an answer that held and an effect that failed: it stands, saying the effect cannot be seen', async () => {
    const answered = preflightWith('failed', { answer: 'held', effect: 'failed' });
    expect((await guarded({ verdict: 'FAIL', reason: 'answered 200; §6 rule 1 says 403', restsOn: 'answer' }, answered)).outcome).toEqual({
      verdict: 'FAIL', reason: `answered 200; §6 rule 1 says 403; whether the receiver acts on it cannot be seen: ${WHAT} was answered 2xx but not applied either`,
    });
    // Only a FAIL on the answer, only beside an effect that failed.
    expect((await guarded({ verdict: 'PASS', restsOn: 'answer' }, answered)).outcome).toEqual({ verdict: 'PASS' });
    expect((await guarded({ verdict: 'FAIL', reason: 'r', restsOn: 'answer' }, preflightWith('failed', { answer: 'held', effect: 'not-run' }))).outcome).toEqual({ verdict: 'FAIL', reason: 'r' });
    expect((await guarded({ verdict: 'FAIL', reason: 'r', restsOn: 'answer' }, preflightWith('held', { answer: 'held', effect: 'held' }))).outcome).toEqual({ verdict: 'FAIL', reason: 'r' });
    // A FAIL resting on nothing named is judged beside the whole control, and stands as it is.
    expect((await guarded({ verdict: 'FAIL', reason: 'r' }, preflightWith('held', { answer: 'held', effect: 'failed' }))).outcome).toEqual({ verdict: 'FAIL', reason: 'r' });
    // A control without halves: nothing to say about the effect.
    expect((await guarded({ verdict: 'FAIL', reason: 'r', restsOn: 'answer' }, preflightWith('held'))).outcome).toEqual({ verdict: 'FAIL', reason: 'r' });
  });
});

describe('which state a verdict is judged beside: the half it rests on, else the whole control', () => {
  it('a half named and halves given: that half', async () => {
    // The whole control failed, the answer half held: a PASS resting on the answer stands.
    expect((await guarded({ verdict: 'PASS', restsOn: 'answer' }, preflightWith('failed', { answer: 'held', effect: 'failed' }))).outcome).toEqual({ verdict: 'PASS' });
    // The whole control held (as a hand-made preflight may say), the effect half failed: ERROR.
    expect((await guarded({ verdict: 'PASS', restsOn: 'effect' }, preflightWith('held', { answer: 'held', effect: 'failed' }))).outcome.verdict).toBe('ERROR');
  });
  it('a half named but no halves: the whole control', async () => {
    expect((await guarded({ verdict: 'PASS', restsOn: 'effect' }, preflightWith('failed'))).outcome).toEqual({ verdict: 'ERROR', reason: UNPROVEN });
  });
  it('no half named: the whole control, whatever its halves', async () => {
    expect((await guarded({ verdict: 'PASS' }, preflightWith('failed', { answer: 'held', effect: 'held' }))).outcome).toEqual({ verdict: 'ERROR', reason: UNPROVEN });
  });
});

describe('a PASS beside a control that did not hold is taken back', () => {
  it('failed: ERROR naming the control and what it observed, with why the half says nothing', async () => {
    expect(await guarded({ verdict: 'PASS', evidence: { notes: ['n'] } }, preflightWith('failed'))).toEqual({
      outcome: { verdict: 'ERROR', reason: UNPROVEN, evidence: { notes: ['n'] } }, takenBack: ['receiver.token.missing'],
    });
    expect((await guarded({ verdict: 'PASS', restsOn: 'effect' }, preflightWith('failed', { answer: 'held', effect: 'failed' }))).outcome).toEqual({
      verdict: 'ERROR', reason: `${UNPROVEN}; this case rests on nothing changing, which says nothing when a valid callback changes nothing either`,
    });
    expect((await guarded({ verdict: 'PASS', restsOn: 'answer' }, preflightWith('failed', { answer: 'failed', effect: 'held' }))).outcome).toEqual({
      verdict: 'ERROR', reason: `${UNPROVEN}; this case rests on the answer, which says nothing when a valid callback does not get its answer either`,
    });
  });
  it('not run: SKIP naming what could not run (nothing of the case\'s own outcome kept)', async () => {
    expect(await guarded({ verdict: 'PASS', evidence: { notes: ['n'] } }, preflightWith('not-run'))).toEqual({
      outcome: { verdict: 'SKIP', reason: `not exercised: ${WHAT} could not run (it saw X)` }, takenBack: ['receiver.token.missing'],
    });
  });
  it('an ERROR, WARN or SKIP is not a PASS: it stands, not taken back', async () => {
    for (const verdict of ['ERROR', 'WARN', 'SKIP'] as const) {
      expect(await guarded({ verdict, reason: 'r' }, preflightWith('failed'))).toEqual({ outcome: { verdict, reason: 'r' }, takenBack: [] });
    }
  });
});

describe('a FAIL beside a control that did not hold', () => {
  it('on the answer, beside an answer that failed: ERROR, it likely shares the control\'s cause', async () => {
    const failedAnswer = preflightWith('failed', { answer: 'failed', effect: 'held' });
    expect(await guarded({ verdict: 'FAIL', reason: 'answered 500', restsOn: 'answer' }, failedAnswer)).toEqual({
      outcome: { verdict: 'ERROR', reason: `answered 500; but that proves nothing here: the positive control (${WHAT}) did not hold: it saw X, so this answer likely shares its cause` },
      takenBack: ['receiver.token.missing'],
    });
  });
  it('on the effect (something was acted on), on nothing named, or beside a control not run: it stands', async () => {
    const fail = (restsOn?: ControlHalf): CaseOutcome => ({ verdict: 'FAIL', reason: 'the record changed', ...(restsOn ? { restsOn } : {}) });
    const standing = { outcome: { verdict: 'FAIL', reason: 'the record changed' }, takenBack: [] };
    expect(await guarded(fail('effect'), preflightWith('failed', { answer: 'failed', effect: 'failed' }))).toEqual(standing);
    expect(await guarded(fail(), preflightWith('failed'))).toEqual(standing);
    expect(await guarded(fail('answer'), preflightWith('not-run', { answer: 'not-run', effect: 'not-run' }))).toEqual(standing);
  });
});

describe('the preflight still under way', () => {
  it('the case runs at once; only its verdict waits for the preflight', async () => {
    let ran = false;
    let finish!: (p: Preflight) => void;
    const preflight = new Promise<Preflight>((resolve) => { finish = resolve; });
    const c: ConformanceCase = { ...negative({ verdict: 'PASS' }), run: async () => { ran = true; return { verdict: 'PASS' }; } };
    const takenBack: string[] = [];
    const judged = guardNegatives([c], preflight, takenBack)[0]!.run(ctx);
    await expect.poll(() => ran).toBe(true);
    expect(takenBack).toEqual([]);
    finish(preflightWith('failed'));
    expect(await judged).toEqual({ verdict: 'ERROR', reason: UNPROVEN });
    expect(takenBack).toEqual(['receiver.token.missing']);
  });
  it('without a list to collect into, the guard still judges', async () => {
    expect(await guardNegatives([negative({ verdict: 'PASS' })], preflightWith('failed'))[0]!.run(ctx)).toEqual({ verdict: 'ERROR', reason: UNPROVEN });
  });
});

describe('a positive case is taken back only beside a blocking finding, and only when one of its requests got the finding\'s answer', () => {
  const token403 = { id: 'receiver.token-refused', summary: 's', symptom: { kind: 'status', status: 403 }, blocking: { headline: 'the configured token was refused', advice: 'check it', judgedBy: ['receiver.token.valid'] } } as const;
  const beside = (findings: Preflight['findings']): Preflight => ({ side: 'receiver', controls: { refusal: { state: 'failed', what: WHAT, observed: 'it was answered 403' } }, findings });
  const judged = async (outcome: CaseOutcome, findings: Preflight['findings']) => {
    const takenBack: string[] = [];
    const [c] = guardNegatives([positive(outcome)], beside(findings), takenBack);
    return { outcome: await c!.run(ctx), takenBack };
  };
  const noAnswer = { label: 'callback SUCCESS', request: { method: 'GET', url: 'http://127.0.0.1:1/cb', headers: {} }, error: 'connection reset' };
  it('a finding that is not blocking (receiver.route-refuses-get, 405): a FAIL on its very answer stands', async () => {
    const route405 = { id: 'receiver.route-refuses-get', summary: 's', symptom: { kind: 'status', status: 405 } } as const;
    const failed405: CaseOutcome = { verdict: 'FAIL', reason: 'answered 405', evidence: { exchanges: [answered(405)] } };
    expect(await judged(failed405, [route405])).toEqual({ outcome: failed405, takenBack: [] });
    // The blocking one is found behind it.
    const failed403: CaseOutcome = { verdict: 'FAIL', reason: 'answered 403', evidence: { exchanges: [answered(403)] } };
    expect((await judged(failed403, [route405, token403])).outcome).toMatchObject({ verdict: 'ERROR', reason: expect.stringMatching(/^not exercised: the configured token was refused \(the preflight's finding receiver.token-refused\)/) });
  });
  it('a WARN on the finding\'s answer is taken back like a FAIL; a PASS that met it stands', async () => {
    const warned: CaseOutcome = { verdict: 'WARN', reason: 'answered 403 once', evidence: { exchanges: [answered(403)] } };
    expect(await judged(warned, [token403])).toEqual({
      outcome: { ...warned, verdict: 'ERROR', reason: "not exercised: the configured token was refused (the preflight's finding receiver.token-refused), and this case's valid callback got the same answer: answered 403 once" },
      takenBack: ['receiver.outcome.success-applied'],
    });
    const passed: CaseOutcome = { verdict: 'PASS', evidence: { exchanges: [answered(403)] } };
    expect(await judged(passed, [token403])).toEqual({ outcome: passed, takenBack: [] });
  });
  it('a case with several requests: one of them got the finding\'s answer is enough', async () => {
    const failed: CaseOutcome = { verdict: 'FAIL', reason: 'the retry was answered 403', evidence: { exchanges: [answered(200), answered(403)] } };
    expect((await judged(failed, [token403])).outcome.verdict).toBe('ERROR');
  });
  it('a FAIL without evidence, or whose requests got no answer, shows no answer: it stands', async () => {
    const bare: CaseOutcome = { verdict: 'FAIL', reason: 'r' };
    expect(await judged(bare, [token403])).toEqual({ outcome: bare, takenBack: [] });
    const unanswered: CaseOutcome = { verdict: 'FAIL', reason: 'no answer', evidence: { exchanges: [noAnswer] } };
    expect(await judged(unanswered, [token403])).toEqual({ outcome: unanswered, takenBack: [] });
  });
  it('a blocking finding whose symptom is no status names no answer: no FAIL is taken back on it, answered or not', async () => {
    const stated = { ...token403, id: 'a-blocking-cause-stated', symptom: { kind: 'stated', cause: 'not-applied' } } as const;
    for (const exchanges of [[answered(403)], [noAnswer]]) {
      const failed: CaseOutcome = { verdict: 'FAIL', reason: 'r', evidence: { exchanges } };
      expect(await judged(failed, [stated])).toEqual({ outcome: failed, takenBack: [] });
    }
  });
});
