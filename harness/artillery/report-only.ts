// The judgement of an Artillery storm whose delivery logs did not come back (run-fargate and
// run-lambda keep their containers' files): the receiver's records, and the counters the
// processor put in Artillery's report. What the records alone decide (exactly-once, a bad-token
// id changed) is judged as natively; the rest rests on counters, never on a guess:
// - none-lost: each id's valid deliveries that ended without any 2xx are counted per id
//   (`collect.unanswered.<index>`); with R whole replays (vusers.created = R × rows), an id
//   pending after the storm is lost when fewer than copies × R of its deliveries ended
//   unanswered (one got a 2xx), and not reached otherwise. A run cut short (vusers.created not a
//   whole number of replays) cannot tell them apart: ERROR, naming why.
// - reply-deadline: the p99 of the processor's histogram `collect.delivery_ms` (time-outs
//   included with their elapsed time; Artillery's sketch, about 1 % relative error).
// - shedding: 429 and 503 answers counted; the ids never answered 2xx after them.
import { verdictAndReason, type CaseResult, type Evidence, type StormCounts } from '../results/index.ts';
import { AttemptLog, historyOf, judgeStorm, FIRST_IDS_SHOWN, type JudgeInput } from '../storm/index.ts';
import { METRICS } from './processor.ts';
import type { ArtilleryReport } from './report.ts';
import type { ExportedPlan } from './script.ts';

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

export function judgeOnReport(input: JudgeInput, report: ArtilleryReport, exported: ExportedPlan): CaseResult[] {
  // The records-only halves, judged natively on an empty attempt log.
  const byRecords = judgeStorm({ ...input, log: new AttemptLog(16) });
  const { plan, readings } = input;
  const created = report.counters['vusers.created'] ?? 0;
  const replays = exported.deliveries > 0 ? created / exported.deliveries : 0;
  const whole = Number.isInteger(replays) && replays > 0;
  const counts = {
    outcomes: 0, badTokenIds: 0, replays: whole ? replays : Math.round(replays * 100) / 100, virtualUsers: created,
    late: report.counters[METRICS.late] ?? 0, noReply: report.counters[METRICS.noReply] ?? 0, retries: report.counters[METRICS.retries] ?? 0,
    shedAnswers: report.counters[METRICS.shed] ?? 0, badTokenAnswered2xx: report.counters[METRICS.bad2xx] ?? 0,
  };
  const valid: number[] = [];
  for (let i = 0; i < plan.callbacks; i++) (plan.isBadToken(i) ? (counts.badTokenIds += 1) : valid.push(i));
  counts.outcomes = valid.length;
  /** Valid deliveries of id i in all replays (each copy once per replay). */
  const deliveriesOf = plan.duplicates * (whole ? replays : 0);
  const neverAnswered = (i: number) => whole && (report.unanswered.get(i) ?? 0) >= deliveriesOf;
  const withCounts = (r: CaseResult, extra: Partial<StormCounts> = {}): CaseResult => ({
    ...r, evidence: { ...r.evidence, counts: { ...counts, ...extra, ...pickRecordCounts(r.evidence?.counts) } },
  });
  const note = input.note ? [input.note] : [];
  const build = ({ reason: _judgedOnRecords, ...base }: CaseResult, verdict: CaseResult['verdict'], reason: string | undefined, evidence: Evidence): CaseResult => ({
    ...base, ...verdictAndReason(verdict, reason), evidence: { ...evidence, notes: [...new Set([...(evidence.notes ?? []), ...note])] },
  });
  const [exactlyOnce, noneLost, badTokenInert, replyDeadline, shedding] = byRecords as [CaseResult, CaseResult, CaseResult, CaseResult, CaseResult];

  // none-lost
  const pending = valid.filter((i) => readings.stateOf(i) === 'pending');
  const notReached = valid.filter(neverAnswered);
  const lost = pending.filter((i) => !neverAnswered(i));
  const lostEvidence: Evidence = { counts: { ...counts, lost: whole ? lost.length : null, notReached: whole ? notReached.length : null, pending: pending.length } };
  let lostCase: CaseResult;
  if (pending.length === 0) lostCase = build(noneLost, 'PASS', undefined, lostEvidence);
  else if (!whole) lostCase = build(noneLost, 'ERROR', `${plural(pending.length, 'outcome')} still pending, and Artillery started ${created} virtual users for ${exported.deliveries} planned deliveries: not a whole number of replays (a run cut short?), so an outcome never answered 2xx cannot be told from one lost; bring the delivery logs back to judge it`, lostEvidence);
  else if (lost.length === 0) lostCase = build(noneLost, notReached.length === valid.length ? 'SKIP' : 'PASS', notReached.length === valid.length ? `not exercised: none of the ${valid.length} outcomes was answered 2xx` : undefined, { ...lostEvidence, notes: [`${plural(notReached.length, 'outcome')} never answered 2xx in any replay: not reached, not lost`] });
  else {
    lostCase = build(noneLost, 'FAIL', `${plural(lost.length, 'outcome')} of ${valid.length} answered 2xx at least once and never applied: the record still reads pending after the receiver settled (first: ${plan.idOf(lost[0]!)}; no delivery logs, so no histories)`, {
      ...lostEvidence, firstIds: lost.slice(0, FIRST_IDS_SHOWN).map((i) => historyOf(input, i)),
    });
  }

  // bad-token-inert: the records decide a change; the counter, a bad token answered 2xx.
  let badCase = withCounts(badTokenInert);
  if (badTokenInert.verdict === 'PASS' && counts.badTokenAnswered2xx > 0) {
    badCase = build(badCase, 'FAIL', `${plural(counts.badTokenAnswered2xx, 'bad-token delivery', 'bad-token deliveries')} answered 2xx, though no record changed (§6 rule 1 says 403; no delivery logs, so not which ids)`, badCase.evidence ?? {});
  }

  // reply-deadline
  const hist = report.summaries[METRICS.deliveryMs];
  const latencyEvidence: Evidence = { counts, replyDeadlineMs: input.replyDeadlineMs, ...(hist ? { latency: { samples: hist.count, p50Ms: hist.p50, p99Ms: hist.p99, maxMs: hist.max } } : {}), ...input.engineEvidence };
  const deadlineCase = !hist || hist.count === 0
    ? build(replyDeadline, 'ERROR', `no ${METRICS.deliveryMs} samples in the report: no valid delivery finished, nothing to time`, latencyEvidence)
    : hist.p99 <= input.replyDeadlineMs
      ? build(replyDeadline, 'PASS', undefined, latencyEvidence)
      : build(replyDeadline, 'FAIL', `p99 of the valid deliveries (Artillery's ${METRICS.deliveryMs}, from the virtual user's arrival to the reply's last byte, time-outs counted at their elapsed time) is ${hist.p99} ms, over the ${input.replyDeadlineMs} ms deadline (§6 rule 3): ${plural(counts.late, 'attempt')} late, ${counts.noReply} with no reply`, latencyEvidence);

  // shedding
  const stillShed = counts.shedAnswers > 0 ? notReached : [];
  const shedEvidence: Evidence = { counts: { ...counts, stillShed: stillShed.length } };
  const shedCase = counts.shedAnswers === 0
    ? build(shedding, 'PASS', undefined, { ...shedEvidence, notes: ['the receiver never shed load (no 429 or 503 answer)'] })
    : stillShed.length === 0
      ? build(shedding, 'PASS', undefined, shedEvidence)
      : build(shedding, 'WARN', `${plural(stillShed.length, 'outcome')} never answered 2xx in any attempt after the receiver shed ${plural(counts.shedAnswers, 'answer')} with 429 or 503: the service gives up on them (first: ${plan.idOf(stillShed[0]!)})`, shedEvidence);

  return [withCounts(exactlyOnce), lostCase, badCase, deadlineCase, shedCase];
}

/** The counts a records-only case adds (e.g. appliedMoreThanOnce, changed); the attempt counts of an empty log dropped. */
function pickRecordCounts(counts: StormCounts | undefined): Partial<StormCounts> {
  const dropped = new Set<keyof StormCounts>(['outcomes', 'badTokenIds', 'attempts', 'validAttempts', 'retries', 'retryAmplification', 'plannedCopies', 'answers', 'answered2xx']);
  const kept: Partial<StormCounts> = { ...counts };
  for (const key of dropped) delete kept[key];
  return kept;
}
