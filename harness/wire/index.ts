// Public face of the wire: the gate every exchange of ours with a target goes through, so that a
// measurement (reply latency, a burst, concurrent duplicates) has the wire to itself; the pace of
// the requests to a target (`run --rate`); a 429's Retry-After waited out and sent once more.
export { WireGate, WireWaitAborted, type SharedOptions } from './gate.ts';
export { CaseWire, MAX_RETRY_AFTER_MS, OPEN_WIRE, type CaseWireUse, type NoRetry, type Wire } from './case-wire.ts';
export { MAX_RATE_PER_SECOND, Pace, parseRate, RateError, type Rate } from './pace.ts';
export {
  RATE_LIMITED, rateLimitedReason, retryAfterMs, retryLabel, sendThrottled, type FinalThrottle, type Retried, type Sent, type ThrottleSignals,
} from './throttle.ts';
