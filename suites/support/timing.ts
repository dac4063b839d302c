// Lower bounds on measured waits. A test that waited on timers may assert the wait took at least
// so long, but never at least the exact timer: Node runs timers on libuv's millisecond clock, so a
// setTimeout(ms) can end up to a millisecond before `ms` have passed on performance.now() (a
// probe.test.ts run measured 59.55 ms for three 20 ms polls: issue 37 item 4). Each timer of a
// chain waited one after another may be that early, so the allowance grows with their number.
// timing.test.ts measures it. Upper bounds too: the embedded reference service's limits and
// processing time for a whole run on a loaded machine (load 10 to 18 on two cores is usual here).
import type { EmbeddedReceiverOptions, EmbeddedServiceOptions } from '../../harness/embedded/index.ts';

/** How early one timer may end, against performance.now(). */
export const TIMER_EARLY_MS = 1;

/** The least a wait of `ms` in all, over `timers` timers waited one after another, can measure. */
export function leastMeasured(ms: number, timers = 1): number {
  return ms - timers * TIMER_EARLY_MS;
}

/**
 * startEmbeddedService's options for a whole run against the reference service on a loaded
 * machine, where every request is answered and every accepted transaction called back:
 * timing.callbackTimeoutMs 5 s, and with it each request's limit (harness/runner defaultTimeouts:
 * the callback timeout, at least 1 s). A run whose requests are answered never waits it out. The
 * embedded 1 s ran out (issue 40): at load 12 to 15, in a worker's first run beside two other
 * files, collects through a front took up to 1031 ms; the cases ended ERROR "no complete answer
 * within 1000 ms", and once the preflight FAIL ("it was not answered"); status-forms.test.ts had
 * seen it run out before the first callback (four test files and the type check on two cores).
 */
export const LOADED_SERVICE = { timing: { callbackTimeoutMs: 5000 } } as const satisfies EmbeddedServiceOptions;

/**
 * With LOADED_SERVICE, when a status query right after an acceptance must see the transaction
 * PENDING (service.status.pending-not-terminal PASSes only then): the reference's processing
 * 1 s (20 s before the embedded timeScale 0.05). At its embedded 50 ms a loaded machine's query
 * came after the outcome and the case SKIPped ("every one of 3 transactions was already
 * terminal"); the first attempt's query came up to 378 ms after the acceptance at load 11.
 */
export const PENDING_SEEN = { ...LOADED_SERVICE, processingDelayMs: 20_000 } as const satisfies EmbeddedServiceOptions;

/**
 * startEmbeddedReceiver's options for a whole receiver case list against the confirming reference
 * receiver on a loaded machine: reply deadline 2 s (twice the embedded 1 s, as the embedded run's
 * confirming receiver has), so its own limit on a status query is 1 s (half the deadline). The kit,
 * the receiver and the harness's status endpoint share one process, and a loaded machine starves
 * it as a whole, in many short waits rather than one stall the kit can name. With the embedded
 * 1 s (issue 40, loaded runs) the receiver gave up on its queries and answered 503
 * ERR_STATUS_UNAVAILABLE ("the status query: no answer within 500 ms"), and receiver.latency.burst
 * measured up to 1442 ms (8 of 20 replies over 1000 ms, p50 943 ms) with no single stall of the
 * kit's to explain it. The process slowed about threefold that way (its loop blocked 40 ms at a
 * time, over and over) failed the burst at 1 s and passed the whole list at 2 s.
 */
export const LOADED_CONFIRMING_RECEIVER = { replyDeadlineMs: 2000 } as const satisfies EmbeddedReceiverOptions;
