// Public face of the conformance cases: the case model, every case, and what a case's context holds
// (RunResources). The runner that runs them is harness/runner.
export { CaseError, type Capability, type CaseContext, type CaseOutcome, type ConformanceCase, type ControlHalf, type NegativeKind, type ReasonedOutcome } from './model.ts';
export {
  RECEIVER_CASES, TOKEN_VARIANTS, latencyStats, percentile, BURST_SIZE, ReceiverProbe, receiverCase, describeReading, SUCCESS_MESSAGE,
  appliedOnce, untouched, expectedOnce, answerText,
} from './receiver/index.ts';
export { provideStatusEndpoint, withdrawStatusEndpoint, NO_STATUS_QUERY, type HeldStatusEndpoint } from './receiver/index.ts';
export { RunResources } from './resources.ts';
export { StallWatch, TIMING_BLURRED } from './stall-watch.ts';
export { ApplyTimes } from './receiver/apply-times.ts';
export { SERVICE_CASES, serviceCase, firstCallback, describeAnswer, PROCESSED_AFTER_REFUSAL, UNREAD_REJECTION, SIGNATURE_NOT_MATCHING } from './service/index.ts';
export { askStatus, serviceStatusEndpoint, describeStatusReading, notReadReason, probeEndpointAbsent, formNote, STATUS_NOT_READ } from './service/index.ts';
export {
  CLIENT_CASES, clientCase, callSdk, probeAdapter, clientCaseTimeoutMs, fieldsOf, ACCEPTED_ANSWER, acceptedReported, evidenceOf, reported,
  signatureProblem, NOT_SIGNED_AS_SENT, SILENT_AFTER_REFUSAL, noAnswerGraceMs, readSentBody, bodyNotJsonCause, BODY_NOT_JSON, notUtf8, missingFields, type SentBody,
  type ClientCase, type ClientContext, type SdkCall,
} from './client/index.ts';
export { plainStatusCall, successReported, statusNotDeclared, judgeLetterCases, formReading, letterCaseEvidence, STATUS_CALL_FAILED, type PlainStatusCall, type LetterCaseProfile, type FormReading } from './client/index.ts';
import { CLIENT_CASES } from './client/index.ts';
import { RECEIVER_CASES } from './receiver/index.ts';
import { SERVICE_CASES } from './service/index.ts';
import type { ConformanceCase } from './model.ts';

/** Every case of the three sides: receiver, service, client. */
export function allCases(): ConformanceCase[] {
  return [...(RECEIVER_CASES as readonly ConformanceCase[]), ...(SERVICE_CASES as readonly ConformanceCase[]), ...(CLIENT_CASES as readonly ConformanceCase[])];
}
