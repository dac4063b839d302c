// Shared causes (harness/diagnoses) on results made here, in-process: each symptom a preflight
// finding matches, each cause read from the results alone, in their order, over the cases not yet
// explained, and unique ids. The fault self-tests show the same on real runs; these run in
// milliseconds, so a mutation of the diagnoses is judged by them (suites/mutation/units.ts).
import { describe, expect, it } from 'vitest';
import { diagnose, shows, SHARED_ANSWER_MIN_CASES, type SideRun } from '../../harness/diagnoses/index.ts';
import type { Finding, Preflight, Symptom } from '../../harness/preflight/index.ts';
import { verdictAndReason, type CaseResult, type Exchange, type ExchangeFailure, type Side, type StatedCause, type Verdict } from '../../harness/results/index.ts';

interface Made {
  verdict?: Verdict;
  reason?: string;
  statuses?: number[];
  failures?: ExchangeFailure[];
  causes?: StatedCause[];
  failure?: ExchangeFailure;
}

function result(id: string, made: Made = {}): CaseResult {
  const exchanges: Exchange[] = [
    ...(made.statuses ?? []).map((status) => ({ request: { method: 'GET', url: 'http://127.0.0.1/x', headers: {} }, response: { status, headers: {} } }) as Exchange),
    ...(made.failures ?? []).map((failure) => ({ request: { method: 'GET', url: 'http://127.0.0.1/x', headers: {} }, failure }) as Exchange),
  ];
  const stated = { ...(made.causes ? { causes: made.causes } : {}), ...(made.failure ? { failure: made.failure } : {}) };
  return {
    id, title: id, level: 'MUST', specRef: '§6', durationMs: 1,
    ...verdictAndReason(made.verdict ?? 'FAIL', made.reason ?? (made.verdict === 'PASS' ? undefined : `${id} did not hold`)),
    ...(exchanges.length > 0 ? { evidence: { exchanges } } : {}),
    ...(Object.keys(stated).length > 0 ? { stated } : {}),
  };
}

function preflight(side: Side, findings: Finding[] = []): Preflight {
  return { side, controls: {}, findings };
}

function finding(symptom: Symptom, id = 'receiver.found'): Finding {
  return { id, summary: `summary of ${id}`, symptom };
}

const ids = (d: { cases: string[] } | undefined) => d?.cases;
const timeout = (limitMs?: number): ExchangeFailure => ({ code: 'timeout', message: 'no answer', ...(limitMs !== undefined ? { limitMs } : {}) });

describe('the symptoms a preflight finding matches', () => {
  it.each([
    ['status 404', { kind: 'status', status: 404 }, { statuses: [200, 404] }, { statuses: [200, 403] }],
    ['a server error (5xx)', { kind: 'server-error' }, { statuses: [200, 500] }, { statuses: [200, 499] }],
    ['a server error at 503', { kind: 'server-error' }, { statuses: [503] }, { statuses: [] }],
    ['a failure code, in an exchange', { kind: 'failure', code: 'refused' }, { failures: [{ code: 'refused', message: 'x' }] }, { failures: [{ code: 'reset', message: 'x' }] }],
    ['a failure code, stated', { kind: 'failure', code: 'refused' }, { failure: { code: 'refused', message: 'x' } }, { failure: { code: 'tls', message: 'x' } }],
    ['a stated cause', { kind: 'stated', cause: 'no-callback' }, { causes: ['processed', 'no-callback'] }, { causes: ['processed'] }],
    ['the same error', { kind: 'same-error', reason: 'hooks failed' }, { reason: 'the hooks failed: hooks failed (ECONNREFUSED)' }, { reason: 'another error' }],
  ] as const)('%s: shown by the one, not by the other', (_, symptom, yes, no) => {
    expect(shows(symptom as Symptom, result('a', yes as Made))).toBe(true);
    expect(shows(symptom as Symptom, result('b', no as Made))).toBe(false);
  });
  it('no evidence and nothing stated shows no status, failure or cause; the whole side is every case', () => {
    const bare = result('a');
    expect([shows({ kind: 'status', status: 500 }, bare), shows({ kind: 'server-error' }, bare), shows({ kind: 'failure', code: 'timeout' }, bare), shows({ kind: 'stated', cause: 'processed' }, bare)]).toEqual([false, false, false, false]);
    expect(shows({ kind: 'whole-side' }, bare)).toBe(true);
    expect(shows({ kind: 'same-error', reason: 'x' }, { ...bare, reason: undefined } as CaseResult)).toBe(false);
  });
});

describe('preflight findings first, each naming the non-PASS cases that show it', () => {
  it('the cases that show the symptom and did not pass; the unproven ones whatever they show; the evidence kept', () => {
    const results = [
      result('receiver.a', { statuses: [405] }), result('receiver.b', { verdict: 'WARN', statuses: [405] }), result('receiver.c', { verdict: 'ERROR', statuses: [405] }),
      result('receiver.d', { verdict: 'PASS', statuses: [405] }), result('receiver.e', { verdict: 'SKIP', statuses: [405] }),
      result('receiver.f', { verdict: 'SKIP' }), result('receiver.g', { statuses: [400] }),
    ];
    const evidence = { notes: ['GET refused'] };
    const [first, ...rest] = diagnose([{ preflight: preflight('receiver', [{ ...finding({ kind: 'status', status: 405 }), evidence }]), results, unproven: ['receiver.f'] }]);
    expect(first).toEqual({ id: 'receiver.found', summary: 'summary of receiver.found', cases: ['receiver.a', 'receiver.b', 'receiver.c', 'receiver.f'], evidence });
    expect(rest.flatMap((d) => d.cases)).not.toContain('receiver.a');
  });
  it('a finding whose symptom is a stated cause also names the SKIPs stating it (an absent status endpoint, issue 37), never a PASS; a SKIP only showing a status is not named', () => {
    const results = [
      result('service.a', { verdict: 'SKIP', causes: ['status-endpoint-absent'] }), result('service.b', { verdict: 'PASS', causes: ['status-endpoint-absent'] }),
      result('service.c', { causes: ['status-endpoint-absent'] }), result('service.d', { verdict: 'SKIP' }),
    ];
    const [absent] = diagnose([{ preflight: preflight('service', [finding({ kind: 'stated', cause: 'status-endpoint-absent' }, 'service.status-endpoint-absent')]), results }]);
    expect(absent!.cases).toEqual(['service.a', 'service.c']);
    const byStatus = [result('receiver.a', { verdict: 'SKIP', statuses: [404] }), result('receiver.b', { statuses: [404] })];
    const [shown] = diagnose([{ preflight: preflight('receiver', [finding({ kind: 'status', status: 404 })]), results: byStatus }]);
    expect(shown!.cases).toEqual(['receiver.b']);
  });
  it('a finding no case shows is not named; a finding without evidence has none', () => {
    const results = [result('receiver.a', { statuses: [400] })];
    expect(diagnose([{ preflight: preflight('receiver', [finding({ kind: 'status', status: 405 })]), results }])).toEqual([]);
    const [named] = diagnose([{ preflight: preflight('receiver', [finding({ kind: 'status', status: 400 })]), results }]);
    expect(named).not.toHaveProperty('evidence');
  });
  it('a target that stopped answering: its stopped cases that ran, and, when the preflight was stopped, the unproven ones', () => {
    const results = [result('service.a', { verdict: 'ERROR' }), result('service.b', { verdict: 'ERROR' }), result('service.c', { verdict: 'PASS' })];
    const stopped = { cause: '3 cases in a row got no answer', cases: ['service.a', 'preflight.service', 'service.never-ran'] };
    const [d] = diagnose([{ preflight: preflight('service'), results, unproven: ['service.b'], stopped }]);
    expect(d!.id).toBe('service.stopped-answering');
    expect(d!.cases).toEqual(['service.a', 'service.b']);
    expect(d!.summary).toContain('3 cases in a row got no answer');
    expect(d!.summary).toContain('(2 cases ERROR for this one cause)');
    const [noneUnproven] = diagnose([{ preflight: preflight('service'), results, stopped }]);
    expect(noneUnproven!.cases).toEqual(['service.a']);
    const [once] = diagnose([{ preflight: preflight('service'), results, unproven: ['service.a', 'service.b'], stopped }]);
    expect(once!.cases).toEqual(['service.a', 'service.b']);
    const [without] = diagnose([{ preflight: preflight('service'), results, unproven: ['service.b'], stopped: { ...stopped, cases: ['service.a'] } }]);
    expect(without!.cases).toEqual(['service.a']);
  });
});

describe('causes read from the results alone', () => {
  const run = (side: Side, results: CaseResult[]): SideRun => ({ preflight: preflight(side), results });

  it.each([
    ['given-up', 1], ['rate-limited', 2], ['refusals-unreported', 2], ['rejections-unread', SHARED_ANSWER_MIN_CASES],
    ['processed-after-refusal', SHARED_ANSWER_MIN_CASES], ['signatures-not-verified', SHARED_ANSWER_MIN_CASES], ['status-not-read', SHARED_ANSWER_MIN_CASES],
    ['status-misreported', 2],
  ] as const)('%s: named from %i cases stating it, not from one fewer', (cause, min) => {
    const stating = (n: number) => Array.from({ length: n }, (_, i) => result(`service.c${i}`, { causes: [cause], reason: `case ${i}: not sent: the adapter was given up` }));
    const [named] = diagnose([run('service', stating(min))]);
    expect(named?.id).toBe(`service.${cause}`);
    expect(named?.cases).toHaveLength(min);
    expect(named?.summary).toContain(cause === 'signatures-not-verified' ? `${min} requests` : cause === 'given-up' ? 'the adapter was given up' : 'service.c0');
    if (cause !== 'given-up' && cause !== 'signatures-not-verified') expect(named?.summary).toContain('case 0: not sent');
    if (min > 1) expect(diagnose([run('service', stating(min - 1))]).map((d) => d.id)).not.toContain(`service.${cause}`);
  });
  it('given-up says how many cases were not sent, and why, once', () => {
    const [one] = diagnose([run('client', [result('client.a', { verdict: 'ERROR', causes: ['given-up'], reason: 'client.a not sent: the adapter never answered' })])]);
    expect(one!.summary).toBe('1 client case was not sent, so their rules were not exercised: the adapter never answered');
    const [two] = diagnose([run('client', ['a', 'b'].map((x) => result(`client.${x}`, { verdict: 'ERROR', causes: ['given-up'], reason: 'not sent: gone' })))]);
    expect(two!.summary).toMatch(/^2 client cases were not sent/);
  });
  it('status-answer-late: the kit\'s own status endpoint late for the receiver, named from one case, first, in the case\'s words', () => {
    const late = (x: string) => result(`receiver.${x}`, { verdict: 'ERROR', causes: ['status-answer-late'], reason: `${x}: the harness's status endpoint answered after 900 ms` });
    const [one] = diagnose([run('receiver', [late('a')])]);
    expect(one!.id).toBe('receiver.status-answer-late');
    expect(one!.summary).toBe('the harness\'s status endpoint answered the receiver\'s status queries of 1 case only after the receiver had given up on them: the delay is the kit\'s (a loaded machine?), not the receiver\'s, so it is ERROR, not judged (the first: receiver.a: a: the harness\'s status endpoint answered after 900 ms)');
    // Before a shared answer the same cases got (their callbacks' 503): the kit's cause is named first.
    const [two] = diagnose([run('receiver', [late('a'), late('b'), result('receiver.c', { causes: ['rate-limited'] }), result('receiver.d', { causes: ['rate-limited'] })])]);
    expect(two!.id).toBe('receiver.status-answer-late');
    expect(two!.summary).toMatch(/^the harness's status endpoint answered the receiver's status queries of 2 cases only after the receiver had given up on them: .*, so they are ERROR, not judged \(the first: receiver\.a: /);
    expect(two!.cases).toEqual(['receiver.a', 'receiver.b']);
  });
  it('a PASS, and a SKIP, stating a cause are not among its cases', () => {
    const results = [
      result('service.a', { causes: ['rate-limited'] }), result('service.b', { verdict: 'PASS', causes: ['rate-limited'] }),
      result('service.c', { verdict: 'SKIP', causes: ['rate-limited'] }), result('service.d', { verdict: 'ERROR', causes: ['rate-limited'] }),
    ];
    expect(ids(diagnose([run('service', results)])[0])).toEqual(['service.a', 'service.d']);
  });

  describe('requests that waited out their time limit', () => {
    const timedOutCases = (n: number, side: Side = 'receiver') => Array.from({ length: n }, (_, i) => result(`${side}.t${i}`, { verdict: 'ERROR', failure: timeout(1000) }));
    it(`named from ${SHARED_ANSWER_MIN_CASES} cases, with the limit; not from fewer`, () => {
      const [d] = diagnose([run('receiver', timedOutCases(SHARED_ANSWER_MIN_CASES))]);
      expect(d).toMatchObject({ id: 'receiver.answers-timed-out', cases: ['receiver.t0', 'receiver.t1', 'receiver.t2'] });
      expect(d!.summary).toMatch(/^3 receiver cases got no answer within a request's time limit \(1000 ms\): likely it answers slowly, or cannot serve this many requests at once \(run with --concurrency 1/);
      expect(diagnose([run('receiver', timedOutCases(SHARED_ANSWER_MIN_CASES - 1))])).toEqual([]);
    });
    it('says the target answered other requests when a case passed or got an answer', () => {
      const withPass = [...timedOutCases(3), result('receiver.ok', { verdict: 'PASS' })];
      expect(diagnose([run('receiver', withPass)])[0]!.summary).toContain(', while the receiver answered other requests of the run');
      const withAnswer = [...timedOutCases(3), result('receiver.other', { verdict: 'SKIP', statuses: [200] })];
      expect(diagnose([run('receiver', withAnswer)])[0]!.summary).toContain(', while the receiver answered other requests of the run');
      expect(diagnose([run('receiver', timedOutCases(3))])[0]!.summary).not.toContain('while the receiver answered');
    });
    it('a time-out in an exchange counts; one without a limit, or another failure, does not', () => {
      const inExchange = Array.from({ length: 3 }, (_, i) => result(`receiver.x${i}`, { verdict: 'ERROR', failures: [timeout(500)] }));
      expect(diagnose([run('receiver', inExchange)])[0]?.summary).toContain('(500 ms)');
      // An exchange that failed is no answer.
      expect(diagnose([run('receiver', inExchange)])[0]?.summary).not.toContain('while the receiver answered');
      expect(diagnose([run('receiver', inExchange)])[0]?.summary).toContain('(the first: receiver.x0: receiver.x0 did not hold)');
      const noLimit = Array.from({ length: 3 }, (_, i) => result(`receiver.y${i}`, { verdict: 'ERROR', failure: timeout() }));
      expect(diagnose([run('receiver', noLimit)]).map((d) => d.id)).not.toContain('receiver.answers-timed-out');
      const reset = Array.from({ length: 3 }, (_, i) => result(`receiver.z${i}`, { verdict: 'ERROR', failure: { code: 'reset', message: 'x', limitMs: 9 } }));
      expect(diagnose([run('receiver', reset)]).map((d) => d.id)).not.toContain('receiver.answers-timed-out');
    });
    it('the stated failure comes first: its limit is the one named', () => {
      const both = Array.from({ length: 3 }, (_, i) => result(`receiver.w${i}`, { verdict: 'ERROR', failure: timeout(700), failures: [timeout(300)] }));
      expect(diagnose([run('receiver', both)])[0]!.summary).toContain('(700 ms)');
    });
    it('on the client side, the adapter is said to be stuck before sending, not the target slow', () => {
      expect(diagnose([run('client', timedOutCases(3, 'client'))])[0]!.summary).toContain('likely the SDK or its adapter is stuck before sending');
    });
  });

  describe('bad tokens accepted', () => {
    const badToken = (leaf: string, status: number) => result(`receiver.token.${leaf}`, { statuses: [status] });
    it('three bad-token cases answered 2xx: receiver.token-not-checked; answered 403, or 300, or on another side: not', () => {
      const accepted = [badToken('missing', 200), badToken('wrong', 204), badToken('one-char-short', 299)];
      expect(diagnose([run('receiver', accepted)])[0]).toMatchObject({ id: 'receiver.token-not-checked', cases: accepted.map((r) => r.id) });
      const alsoRefused = ['missing', 'wrong', 'one-char-short'].map((leaf) => result(`receiver.token.${leaf}`, { statuses: [403, 204], reason: 'answered 403, then 204' }));
      expect(diagnose([run('receiver', alsoRefused)])[0]).toMatchObject({ id: 'receiver.token-not-checked' });
      expect(diagnose([run('receiver', alsoRefused)])[0]!.summary).toContain('(the first: receiver.token.missing: answered 403, then 204)');
      for (const status of [199, 300]) {
        expect(diagnose([run('receiver', ['missing', 'wrong', 'one-char-short'].map((leaf) => badToken(leaf, status)))]).map((d) => d.id)).not.toContain('receiver.token-not-checked');
      }
      const refused = [badToken('missing', 403), badToken('wrong', 300), badToken('one-char-short', 199)];
      expect(diagnose([run('receiver', refused)]).map((d) => d.id)).not.toContain('receiver.token-not-checked');
      expect(diagnose([run('receiver', accepted.slice(0, 2))]).map((d) => d.id)).not.toContain('receiver.token-not-checked');
      expect(diagnose([run('receiver', [...accepted.slice(0, 2), result('receiver.token.valid', { statuses: [200] })])]).map((d) => d.id)).not.toContain('receiver.token-not-checked');
    });
  });

  describe('one answer every remaining non-PASS case got and complains of', () => {
    it('the lowest such status names the cause', () => {
      const results = ['a', 'b', 'c'].map((x) => result(`receiver.${x}`, { statuses: [200, 500, 403], reason: 'answered 500 and then 403' }));
      expect(diagnose([run('receiver', results)])[0]).toMatchObject({ id: 'receiver.same-answer-403', cases: ['receiver.a', 'receiver.b', 'receiver.c'] });
      expect(diagnose([run('receiver', results)])[0]!.summary).toMatch(/^every one of the 3 receiver cases that did not pass got the answer 403 .*\(the first: receiver\.a: answered 500 and then 403\)$/);
    });
    it('the edges of 2xx: 199 and 300 are answers to name, 200 and 299 are not', () => {
      const got = (status: number) => diagnose([run('receiver', ['a', 'b', 'c'].map((x) => result(`receiver.${x}`, { statuses: [status], reason: `answered ${status}` })))]).map((d) => d.id);
      expect([got(199), got(200), got(299), got(300)]).toEqual([['receiver.same-answer-199'], [], [], ['receiver.same-answer-300']]);
    });
    it('not when one case got it without complaining of it, when it is 2xx, or when fewer cases remain', () => {
      const complaining = (x: string) => result(`receiver.${x}`, { statuses: [400], reason: 'answered 400' });
      expect(diagnose([run('receiver', [complaining('a'), complaining('b'), result('receiver.c', { statuses: [400], reason: 'the record changed' })])])).toEqual([]);
      expect(diagnose([run('receiver', ['a', 'b', 'c'].map((x) => result(`receiver.${x}`, { statuses: [201], reason: 'answered 201' })))])).toEqual([]);
      expect(diagnose([run('receiver', [complaining('a'), complaining('b')])])).toEqual([]);
      expect(diagnose([run('receiver', [complaining('a'), complaining('b'), result('receiver.c', { statuses: [4000], reason: 'answered 4000' })])])).toEqual([]);
    });
  });

  it('each cause over the cases the earlier ones left: rate-limited before the time-outs (three, with t1), the rest by their shared answer', () => {
    const results = [
      result('service.r1', { verdict: 'ERROR', causes: ['rate-limited'], failure: timeout(100) }), result('service.r2', { verdict: 'ERROR', causes: ['rate-limited'], failure: timeout(100) }),
      result('service.t1', { verdict: 'ERROR', failure: timeout(100), statuses: [422], reason: 'answered 422, then no answer' }),
      ...['a', 'b', 'c'].map((x) => result(`service.${x}`, { statuses: [422], reason: 'answered 422' })),
    ];
    expect(diagnose([run('service', results)]).map((d) => [d.id, d.cases])).toEqual([
      ['service.rate-limited', ['service.r1', 'service.r2']],
      ['service.same-answer-422', ['service.t1', 'service.a', 'service.b', 'service.c']],
    ]);
  });
  it('cases a preflight finding explains are left out of the causes read from the results', () => {
    const results = [result('receiver.a', { statuses: [500], causes: ['rate-limited'] }), result('receiver.b', { statuses: [500], causes: ['rate-limited'] }), result('receiver.c', { causes: ['rate-limited'] })];
    expect(diagnose([{ preflight: preflight('receiver', [finding({ kind: 'server-error' })]), results }]).map((d) => d.id)).toEqual(['receiver.found']);
  });
});

describe('two targets of one side', () => {
  it('keep their causes apart, each id once: the second gets -2', () => {
    const side = (): SideRun => ({ preflight: preflight('receiver'), results: ['a', 'b', 'c'].map((x) => result(`receiver.${x}`, { statuses: [404], reason: 'answered 404' })) });
    expect(diagnose([side(), side(), side()]).map((d) => d.id)).toEqual(['receiver.same-answer-404', 'receiver.same-answer-404-2', 'receiver.same-answer-404-3']);
  });
});
