// Shared causes (DESIGN.md `diagnoses`): a cause that explains several non-PASS cases is named
// once, before the cases, and the cases point to it. Two sources: what the preflight observed
// (harness/preflight: the route refuses GET, a 5xx after applying, a rejected valid collect…),
// each matched to the cases showing its symptom; and, where no preflight cause explains them,
// requests that waited out their time limit, a cause several cases state, or one answer that
// every non-PASS case of a side got. Matched on statuses, failure codes and stated cause ids
// (CaseResult.stated), never on the words of a reason: rewording a message changes no
// diagnosis. A summary states what was observed.
import { TOKEN_VARIANTS } from '../cases/index.ts';
import type { Finding, Preflight, Symptom } from '../preflight/index.ts';
import type { CaseResult, Diagnosis, ExchangeFailure, StatedCause } from '../results/index.ts';
import { isSuccess } from '../http/index.ts';
import type { Stopped } from '../runner/index.ts';

/** One side's run: its preflight and its case results. */
export interface SideRun {
  preflight: Preflight;
  results: readonly CaseResult[];
  /** Negative cases the guard took a PASS back from: the preflight's causes explain them whatever they show. */
  unproven?: readonly string[];
  /** The run gave up on the target mid-run: the cases it stopped or did not run, and why. */
  stopped?: Stopped;
}

/** "Several": fewer non-PASS cases sharing an answer is no pattern worth naming by itself. */
export const SHARED_ANSWER_MIN_CASES = 3;

function notPassed(r: CaseResult): boolean {
  return r.verdict === 'FAIL' || r.verdict === 'ERROR' || r.verdict === 'WARN';
}

function statuses(r: CaseResult): number[] {
  return (r.evidence?.exchanges ?? []).flatMap((e) => (e.response ? [e.response.status] : []));
}

/** The exchange failures a result shows: its requests' (typed in the evidence) and the one its outcome rests on. */
function failures(r: CaseResult): ExchangeFailure[] {
  return [
    ...(r.evidence?.exchanges ?? []).flatMap((e) => (e.failure ? [e.failure] : [])),
    ...(r.stated?.failure ? [r.stated.failure] : []),
  ];
}

function states(r: CaseResult, cause: StatedCause): boolean {
  return r.stated?.causes?.includes(cause) ?? false;
}

export function shows(symptom: Symptom, r: CaseResult): boolean {
  switch (symptom.kind) {
    case 'status':
      return statuses(r).includes(symptom.status);
    case 'server-error':
      return statuses(r).some((s) => s >= 500);
    case 'failure':
      return failures(r).some((f) => f.code === symptom.code);
    case 'stated':
      return states(r, symptom.cause);
    case 'same-error':
      // The error of the harness's own making that stopped the preflight, met again (its words are the harness's, not a target's).
      return (r.reason ?? '').includes(symptom.reason);
    case 'whole-side':
      return true;
  }
}

function fromFinding(finding: Finding, results: readonly CaseResult[], unproven: ReadonlySet<string>): Diagnosis | undefined {
  // A SKIP that states the finding's cause is explained by it too (a target without a status endpoint, issue 37).
  const explained = (r: CaseResult) => notPassed(r) || (r.verdict === 'SKIP' && finding.symptom.kind === 'stated');
  const cases = results.filter((r) => unproven.has(r.id) || (explained(r) && shows(finding.symptom, r))).map((r) => r.id);
  if (cases.length === 0) return undefined;
  return { id: finding.id, summary: finding.summary, cases, ...(finding.evidence ? { evidence: finding.evidence } : {}) };
}

/**
 * One non-2xx answer every remaining non-PASS case got and names in its reason: an answer a case
 * got but does not complain of (a token case's 403, right, while the record changed) is no
 * symptom, and naming it would point at the wrong cause.
 */
function sharedAnswer(side: string, results: readonly CaseResult[]): Diagnosis | undefined {
  if (results.length < SHARED_ANSWER_MIN_CASES) return undefined;
  const complainedOf = (r: CaseResult, status: number): boolean => new RegExp(`\\b${status}\\b`).test(r.reason ?? '');
  const common = results
    .map((r) => new Set(statuses(r).filter((s) => (s < 200 || s > 299) && complainedOf(r, s))))
    .reduce((a, b) => new Set([...a].filter((s) => b.has(s))));
  const [status] = [...common].sort((a, b) => a - b);
  if (status === undefined) return undefined;
  return {
    id: `${side}.same-answer-${status}`,
    summary: `every one of the ${results.length} ${side} cases that did not pass got the answer ${status} to a request it sent: one cause likely explains them (the first: ${results[0]!.id}: ${results[0]!.reason ?? ''})`,
    cases: results.map((r) => r.id),
  };
}

/** The request of a result that waited out its time limit: the failure its outcome rests on, else one of its requests'. */
function timedOutIn(r: CaseResult): ExchangeFailure | undefined {
  const timedOut = (f: ExchangeFailure | undefined) => f?.code === 'timeout' && f.limitMs !== undefined;
  return timedOut(r.stated?.failure) ? r.stated!.failure : failures(r).find(timedOut);
}

/**
 * Several cases whose request waited out its time limit (a target the run gave up on is
 * `stopped-answering`): one cause, slowness or more requests at once than the target serves (a
 * receiver with a few workers and slow callbacks), which --concurrency 1 tells apart.
 */
function timedOut(side: string, results: readonly CaseResult[], all: readonly CaseResult[]): Diagnosis | undefined {
  const cases = results.filter((r) => timedOutIn(r) !== undefined);
  if (cases.length < SHARED_ANSWER_MIN_CASES) return undefined;
  const first = cases[0]!;
  // A PASS rests on an answer, as does any exchange answered.
  const answered = all.some((r) => r.verdict === 'PASS' || statuses(r).length > 0);
  const limitMs = timedOutIn(first)!.limitMs;
  // The SDK's adapter takes one call at a time, so its time-outs say nothing of load: a call that
  // the service answered and the SDK never reported is a finding of its own (refusals-unreported).
  const likely = side === 'client'
    ? 'no request of theirs reached the service, so likely the SDK or its adapter is stuck before sending on these calls'
    : 'likely it answers slowly, or cannot serve this many requests at once (run with --concurrency 1 to tell which)';
  return {
    id: `${side}.answers-timed-out`,
    summary: `${cases.length} ${side} cases got no answer within a request's time limit (${limitMs} ms)${answered ? `, while the ${side} answered other requests of the run` : ''}: `
      + `${likely} (the first: ${first.id}: ${first.reason ?? ''})`,
    cases: cases.map((r) => r.id),
  };
}

/**
 * Causes a case states in its outcome, by id (CaseOutcome.causes: harness/cases, the line
 * driver's give-up): several cases stating one are one cause, named once. Data, matched as a
 * `stated` symptom: at least `min` cases, the summary built from them.
 */
interface SharedStatedCause {
  min: number;
  summary: (side: string, cases: readonly CaseResult[]) => string;
}

type SharedCauseId = 'given-up' | 'processed-after-refusal' | 'rate-limited' | 'refusals-unreported' | 'rejections-unread' | 'signatures-not-verified' | 'status-not-read' | 'status-misreported' | 'status-answer-late';

const STATED_CAUSES: Readonly<Record<SharedCauseId, SharedStatedCause>> = {
  // The kit's own status endpoint answered after the confirming receiver had given up (a loaded
  // machine): the cases were not judged, one cause of the kit's, named first.
  'status-answer-late': {
    min: 1,
    summary: (side, cases) => `the harness's status endpoint answered the ${side}'s status queries of ${cases.length} ${cases.length === 1 ? 'case' : 'cases'} only after the ${side} had given up on them: the delay is the kit's (a loaded machine?), not the ${side}'s, so ${cases.length === 1 ? 'it is' : 'they are'} ERROR, not judged (the first: ${cases[0]!.id}: ${cases[0]!.reason ?? ''})`,
  },
  // Not sent because the run gave up on the command it drives (an SDK's adapter).
  'given-up': {
    min: 1,
    summary: (side, cases) => `${cases.length} ${side} ${cases.length === 1 ? 'case was' : 'cases were'} not sent, so their rules were not exercised: ${cases[0]!.reason!.replace(/^.*?not sent: /, '')}`,
  },
  // Requests that stayed 429 Too Many Requests (harness/wire): the target's throttle, not its rules.
  'rate-limited': {
    min: 2,
    summary: (side, cases) => `the ${side} limits the request rate: ${cases.length} ${cases.length === 1 ? 'case' : 'cases'} got 429 Too Many Requests that waiting out its Retry-After did not end, so their rules were not exercised (the first: ${cases[0]!.id}: ${cases[0]!.reason ?? ''})`,
  },
  // An SDK whose promise settles only on some answers: the service refused, the SDK never said so.
  'refusals-unreported': {
    min: 2,
    summary: (side, cases) => `on ${cases.length} ${side} calls the SDK reported nothing after the service refused (the first: ${cases[0]!.id}: ${cases[0]!.reason ?? ''}): `
      + 'likely it settles (resolves, rejects, calls back) only on success and some errors, and leaves its caller waiting for ever on any other refusal',
  },
  // Due rejections answered 2xx meeting no rejection rule, no callback after.
  'rejections-unread': {
    min: SHARED_ANSWER_MIN_CASES,
    summary: (side, cases) => `${cases.length} ${side} cases that must be rejected were answered 2xx with a body that meets no rejection rule, and no callback followed: `
      + `likely the service rejects in its own shape, which the target file does not state; state it as "rejection" (a JSON pointer into the answer and the values that mean rejected) (the first: ${cases[0]!.id}: ${cases[0]!.reason ?? ''})`,
  },
  // Refused, and processed all the same: the watch after a refusal saw the callback come.
  'processed-after-refusal': {
    min: SHARED_ANSWER_MIN_CASES,
    summary: (side, cases) => `${cases.length} requests the ${side} refused were processed all the same: their callbacks arrived after the refusal. `
      + `Likely the ${side} stores and queues a request before it verifies it, then answers the refusal (§7: a rejected request is not acted on) (the first: ${cases[0]!.id}: ${cases[0]!.reason ?? ''})`,
  },
  'signatures-not-verified': {
    min: SHARED_ANSWER_MIN_CASES,
    summary: (_side, cases) => `${cases.length} requests whose signature does not match their body were accepted and processed: likely the service does not verify signatures, or verifies them over something other than the body it received (§5.2) (the first: ${cases[0]!.id})`,
  },
  // §4.2: the status endpoint refused or answered otherwise as a whole, where the preflight's own
  // query did not show it (its query got a status, or it made none): one cause, not a case each.
  'status-not-read': {
    min: SHARED_ANSWER_MIN_CASES,
    summary: (side, cases) => `${cases.length} ${side} cases' correctly signed status queries got no status: likely the service's status endpoint differs from the suite's position (the status query's signature, its method or path, or where its answer holds the status; docs/status.md), which the target file can state as "status" (the first: ${cases[0]!.id}: ${cases[0]!.reason ?? ''})`,
  },
  // An SDK that reads the status answer its own way (one letter case compared, its own values):
  // the same misreport on several answers, one cause (issue 37).
  'status-misreported': {
    min: 2,
    summary: (side, cases) => `the SDK misreported ${cases.length} status answers of the ${side} cases named here: likely one reading of the answer explains them, `
      + `the letter case it compares or the values it knows (docs/positions.md status.answer-values) (the first: ${cases[0]!.id}: ${cases[0]!.reason ?? ''})`,
  },
};

function stated(side: string, id: SharedCauseId, results: readonly CaseResult[]): Diagnosis | undefined {
  const cause = STATED_CAUSES[id];
  const cases = results.filter((r) => states(r, id));
  if (cases.length < cause.min) return undefined;
  return { id: `${side}.${id}`, summary: cause.summary(side, cases), cases: cases.map((r) => r.id) };
}

/** The receiver cases that send a missing, wrong or near-miss token (one per TOKEN_VARIANTS entry). */
const BAD_TOKEN_CASES: ReadonlySet<string> = new Set(TOKEN_VARIANTS.map((v) => `receiver.token.${v.leaf}`));

/**
 * Several bad-token cases that did not pass because their callback was answered 2xx: the
 * receiver accepted each like a valid callback (read from the case ids and the statuses, not
 * from the reasons' words).
 */
function tokenNotChecked(side: string, results: readonly CaseResult[]): Diagnosis | undefined {
  if (side !== 'receiver') return undefined;
  const cases = results.filter((r) => BAD_TOKEN_CASES.has(r.id) && statuses(r).some(isSuccess));
  if (cases.length < SHARED_ANSWER_MIN_CASES) return undefined;
  return {
    id: 'receiver.token-not-checked',
    summary: `${cases.length} callbacks with a missing, wrong or near-miss X-Callback-Token were answered 2xx, accepted like a valid callback: likely the receiver does not check the token (§6 rule 1 says 403 and no action) (the first: ${cases[0]!.id}: ${cases[0]!.reason ?? ''})`,
    cases: cases.map((r) => r.id),
  };
}

/** A target that stopped answering mid-run: the run stopped its remaining cases (harness/cases TargetWatch). */
function stoppedAnswering(side: string, stopped: Stopped, results: readonly CaseResult[], unproven: ReadonlySet<string>): Diagnosis {
  const ran = new Set(results.map((r) => r.id));
  // A preflight the run stopped proves nothing: the negative cases resting on it share the cause.
  const preflightStopped = stopped.cases.includes(`preflight.${side}`);
  const cases = [...stopped.cases.filter((id) => ran.has(id)), ...(preflightStopped ? [...unproven].filter((id) => !stopped.cases.includes(id)) : [])];
  return {
    id: `${side}.stopped-answering`,
    summary: `the ${side} stopped answering mid-run: ${stopped.cause}; the run then stopped the cases under way and did not run the rest (${cases.length} cases ERROR for this one cause) instead of letting each wait out its own time limit`,
    cases,
  };
}

/** The shared causes of a run, preflight causes first; ids stay unique when two targets share a side. */
export function diagnose(runs: readonly SideRun[]): Diagnosis[] {
  const found: Diagnosis[] = [];
  for (const { preflight, results, unproven = [], stopped } of runs) {
    const own = preflight.findings.flatMap((f) => fromFinding(f, results, new Set(unproven)) ?? []);
    if (stopped) own.push(stoppedAnswering(preflight.side, stopped, results, new Set(unproven)));
    const explained = new Set(own.flatMap((d) => d.cases));
    // The causes read from the results alone, in turn, each over the cases not yet explained.
    let unexplained = results.filter((r) => notPassed(r) && !explained.has(r.id));
    const side = preflight.side;
    const fromResults: Array<(cases: readonly CaseResult[]) => Diagnosis | undefined> = [
      (cases) => stated(side, 'given-up', cases),
      (cases) => stated(side, 'status-answer-late', cases),
      (cases) => stated(side, 'rate-limited', cases),
      (cases) => stated(side, 'refusals-unreported', cases),
      (cases) => timedOut(side, cases, results),
      (cases) => stated(side, 'rejections-unread', cases),
      (cases) => stated(side, 'processed-after-refusal', cases),
      (cases) => stated(side, 'signatures-not-verified', cases),
      (cases) => stated(side, 'status-not-read', cases),
      (cases) => stated(side, 'status-misreported', cases),
      (cases) => tokenNotChecked(side, cases),
      (cases) => sharedAnswer(side, cases),
    ];
    for (const causeOf of fromResults) {
      const cause = causeOf(unexplained);
      if (!cause) continue;
      own.push(cause);
      unexplained = unexplained.filter((r) => !cause.cases.includes(r.id));
    }
    found.push(...own);
  }
  const seen = new Map<string, number>();
  return found.map((d) => {
    const n = (seen.get(d.id) ?? 0) + 1;
    seen.set(d.id, n);
    return n === 1 ? d : { ...d, id: `${d.id}-${n}` };
  });
}
