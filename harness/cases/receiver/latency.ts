// receiver.latency (§6 rule 3, §8): a valid callback gets 2xx within timing.replyDeadlineMs
// (default 3000 ms, "a few seconds"), one at a time and in a burst; heavy work comes after.
import type { Evidence } from '../../results/index.ts';
import { isDefaulted, type ResolvedReceiverTarget } from '../../targets/index.ts';
import type { HttpResult } from '../../http/index.ts';
import type { CaseOutcome, ConformanceCase } from '../model.ts';
import { NO_SEEDED_RECORD, receiverCase, SUCCESS_MESSAGE, type ReceiverProbe } from './kit.ts';
import { isSuccess } from '../../http/index.ts';
import { StallWatch, TIMING_BLURRED } from '../stall-watch.ts';

export const BURST_SIZE = 20;

/**
 * How late the kit's own event loop may run while it times the replies without a word: within it,
 * a reply's measured time is the receiver's (the back-off case's 10 ms of jitter, service/backoff.ts).
 */
const STALL_ALLOWED_MS = 10;

/** Nearest-rank percentile of sorted samples. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]!;
}

export function latencyStats(samples: readonly number[]): NonNullable<Evidence['latency']> {
  const sorted = [...samples].sort((a, b) => a - b);
  return { samples: sorted.length, p50Ms: percentile(sorted, 50), p99Ms: percentile(sorted, 99), maxMs: sorted[sorted.length - 1] ?? 0 };
}

async function timedCallbacks(probe: ReceiverProbe, count: number): Promise<CaseOutcome> {
  const deadline = probe.target.timing.replyDeadlineMs;
  const ids = Array.from({ length: count }, () => probe.ctx.newTransactionId());
  if (probe.seeds) {
    for (const id of ids) await probe.seedOnly(id);
  } else {
    probe.notes.push(`${NO_SEEDED_RECORD}: the ids are unknown to the receiver, so any 2xx or 4xx is accepted and only the time is judged`);
  }
  // Wait one reply deadline past the deadline itself, so a late answer is measured, not cut.
  // The seeding above is not measured: only the callbacks have the wire to themselves. The kit's
  // own event loop is watched meanwhile: on a busy machine (a loaded CI runner) an answer it reads
  // late looks slow by as much.
  const stalls = new StallWatch();
  let results: HttpResult[];
  try {
    results = await probe.ctx.wire.alone(() => Promise.all(ids.map((id, i) => probe.callback(
      { transaction_id: id, status: 'SUCCESS', message: SUCCESS_MESSAGE },
      { label: count === 1 ? 'callback' : `burst callback ${i + 1} of ${count}` },
      true,
    ))), { burst: count });
  } finally {
    stalls.stop();
  }
  const stallMs = stalls.longestMs();
  const samples = results.map((r) => (r.ok ? r.answer.durationMs : r.durationMs));
  const latency = latencyStats(samples);
  const problems: string[] = [];
  const failures = results.flatMap((r) => (r.ok ? [] : [r.failure]));
  const unusable = failures.filter((f) => f.code !== 'timeout');
  if (unusable.length > 0) throw probe.error(`${unusable.length} of ${count} callbacks got no usable answer: ${unusable[0]!.message}`);
  // What is left failed only by its time limit.
  const late = failures;
  // Without seeded records a 4xx may be "no such id", but 401/403 is the configured token refused: then no
  // valid callback was timed, and a PASS would rest on refusals (DESIGN.md: not exercised).
  const refused = probe.seeds || probe.target.callbackToken === undefined ? [] : results.filter((r) => r.ok && (r.answer.status === 401 || r.answer.status === 403));
  if (refused.length > 0) {
    const statuses = [...new Set(refused.map((r) => (r.ok ? r.answer.status : 0)))].join(', ');
    throw probe.error(`${refused.length} of ${count} callbacks with the configured token were answered ${statuses}: the token was refused, so no valid callback's reply was timed`);
  }
  if (late.length > 0) problems.push(`${late.length} of ${count} callbacks got no answer within ${probe.ctx.requestTimeoutMs} ms`);
  // Without seeded records the ids are unknown to the receiver: DESIGN.md accepts 2xx or 4xx there, not
  // a 3xx (a redirect is no answer to a callback) or a 5xx (the service would retry).
  const acceptable = (status: number) => isSuccess(status) || (!probe.seeds && status >= 400 && status <= 499);
  const wrong = results.filter((r) => r.ok && !acceptable(r.answer.status));
  if (wrong.length > 0) {
    const statuses = [...new Set(wrong.map((r) => (r.ok ? r.answer.status : 0)))].join(', ');
    problems.push(probe.seeds
      ? `${wrong.length} of ${count} valid callbacks were answered ${statuses}, not 2xx`
      : `${wrong.length} of ${count} callbacks were answered ${statuses}, neither 2xx nor 4xx`);
  }
  const overDeadline = samples.filter((ms) => ms > deadline).length;
  const defaulted = isDefaulted(probe.target, 'timing.replyDeadlineMs');
  probe.notes.push(`reply times over ${count} callback(s): p50 ${latency.p50Ms} ms, p99 ${latency.p99Ms} ms, max ${latency.maxMs} ms (deadline ${deadline} ms${defaulted ? ', the default' : ''})`);
  const slow = overDeadline > 0
    ? `${overDeadline} of ${count} replies took longer than ${deadline} ms (max ${latency.maxMs} ms, p50 ${latency.p50Ms} ms): §6 rule 3 says reply first, work afterwards`
    : undefined;
  const stalled = stallMs > STALL_ALLOWED_MS;
  if (stalled) probe.notes.push(`the kit's event loop was seen to run up to ${Math.ceil(stallMs)} ms late while it timed the replies (a busy machine)`);
  if (problems.length) return probe.fail(slow ? [...problems, slow] : problems, { latency });
  if (slow && stalled && latency.maxMs <= deadline + stallMs) {
    // No reply later than the kit's own stall explains: a receiver is not failed for the kit's busy
    // machine (the back-off case's rule, service/retry.ts), nor passed: the time was not measured.
    return { verdict: 'SKIP', reason: `${TIMING_BLURRED} up to ${Math.ceil(stallMs)} ms late while it timed the replies (a busy machine): ${overDeadline} of ${count} replies took longer than ${deadline} ms, none by more than that (max ${latency.maxMs} ms); run this case again on a quieter machine`, evidence: probe.evidence({ latency }) };
  }
  if (slow && defaulted) {
    // §8 gives no exact bound; without a deadline in the target file, 3000 ms is the suite's reading.
    return { ...probe.fail(`${slow} (the target file sets no replyDeadlineMs, so the default is a SHOULD)`, { latency }), verdict: 'WARN', level: 'SHOULD' };
  }
  if (slow) return probe.fail(slow, { latency });
  return probe.pass({ latency });
}

export const LATENCY_CASES: ConformanceCase<ResolvedReceiverTarget>[] = [
  receiverCase(
    { id: 'receiver.latency.single', title: 'a valid callback gets 2xx within the reply deadline', specRef: '§6 rule 3, §8', level: 'MUST', needs: [] },
    (probe) => timedCallbacks(probe, 1),
  ),
  receiverCase(
    { id: 'receiver.latency.burst', title: `${BURST_SIZE} concurrent callbacks all get 2xx within the deadline`, specRef: '§6 rule 3, §8', level: 'MUST', needs: [] },
    (probe) => timedCallbacks(probe, BURST_SIZE),
  ),
];
