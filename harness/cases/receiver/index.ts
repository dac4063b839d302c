// Every receiver-side case, grouped as DESIGN.md names the groups.
import type { ResolvedReceiverTarget } from '../../targets/index.ts';
import type { ConformanceCase } from '../model.ts';
import { TOKEN_CASES } from './token.ts';
import { IDEMPOTENCE_CASES } from './idempotence.ts';
import { OUTCOME_CASES } from './outcome.ts';
import { LATENCY_CASES } from './latency.ts';
import { PARAMS_CASES } from './params.ts';
import { CONFIRM_CASES } from './confirm.ts';

export const RECEIVER_CASES: readonly ConformanceCase<ResolvedReceiverTarget>[] = [
  ...TOKEN_CASES, ...IDEMPOTENCE_CASES, ...OUTCOME_CASES, ...LATENCY_CASES, ...PARAMS_CASES, ...CONFIRM_CASES,
];
export { NO_STATUS_QUERY } from './confirm.ts';
export { TOKEN_VARIANTS } from './token.ts';
export { ReceiverProbe, receiverCase, describeReading, appliedOnce, untouched, expectedOnce, answerText, SUCCESS_MESSAGE } from './kit.ts';
export { latencyStats, percentile, BURST_SIZE } from './latency.ts';
export { StatusEndpoints, provideStatusEndpoint, withdrawStatusEndpoint, type HeldStatusEndpoint } from './status-endpoint.ts';
