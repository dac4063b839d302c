// Service-side cases (DESIGN.md groups service.auth, service.sandbox, service.callback,
// service.status), in the order a run reports them.
import type { ResolvedServiceTarget } from '../../targets/index.ts';
import type { ConformanceCase } from '../model.ts';
import { AUTH_CASES } from './auth.ts';
import { SANDBOX_CASES } from './sandbox.ts';
import { CALLBACK_CASES } from './callback.ts';
import { RETRY_CASES } from './retry.ts';
import { TRANSPORT_CASES } from './transport.ts';
import { STATUS_CASES } from './status.ts';

export const SERVICE_CASES: ConformanceCase<ResolvedServiceTarget>[] = [
  ...AUTH_CASES,
  ...SANDBOX_CASES,
  ...CALLBACK_CASES,
  ...RETRY_CASES,
  ...TRANSPORT_CASES,
  ...STATUS_CASES,
];

export { ServiceListeners, listenerOptionsOf } from './listener-pool.ts';
export { judgeBackoff, judgeOnABusyMachine, looksConstant, stepGrows, timingTolerance, BACKOFF_VERDICT, CONSTANT_MIN_INTERVALS, FULL_JITTER_LOOKS_CONSTANT_PERCENT, GROWTH_FACTOR, GROWTH_TOLERANCE_MS, type BackoffJudgement } from './backoff.ts';
export { compositionProblems, messageEncodingProblems } from './checks.ts';
export { RETRY_SCRIPT } from './retry.ts';
export { serviceCase, firstCallback, PROCESSED_AFTER_REFUSAL, UNREAD_REJECTION } from './define.ts';
export { SIGNATURE_NOT_MATCHING } from './auth.ts';
export { describeAnswer, failureOf } from './session.ts';
export { askStatus, serviceStatusEndpoint, statusReading, describeStatusReading, notReadReason, probeEndpointAbsent, formNote, STATUS_NOT_READ } from './status.ts';
