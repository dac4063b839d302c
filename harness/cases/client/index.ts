// Public face of the client cases (DESIGN.md "Client SDKs"): client.collect (the request an SDK
// sends), client.answers (how it reports the service's answer) and client.status (its status
// query, §4.2), driven through the adapter.
import type { ClientCase } from './define.ts';
import { ANSWERS_CASES } from './answers.ts';
import { COLLECT_CASES } from './collect.ts';
import { STATUS_CASES } from './status.ts';

export { ClientBenches, probeAdapter, adapterLaunchOf, clientCaseTimeoutMs, CLIENT_CUSTOMER_NUMBER, type ClientBench } from './bench.ts';
export { callSdk, evidenceOf, reported, signatureProblem, notUtf8, silence, noAnswerGraceMs, NOT_SIGNED_AS_SENT, SILENT_AFTER_REFUSAL, type ClientContext, type SdkCall, type SdkReport } from './call.ts';
export { clientCase, fieldsOf, type ClientCase, type ClientCaseSpec } from './define.ts';
export { ACCEPTED_ANSWER, acceptedReported } from './answers.ts';
export { CALLBACK_URL_SUFFIX, missingFields } from './collect.ts';
export { readSentBody, bodyNotJsonCause, BODY_NOT_JSON, FORM_MEDIA_TYPE, type SentBody } from './body.ts';

export { plainStatusCall, successReported, statusNotDeclared, judgeLetterCases, formReading, letterCaseEvidence, STATUS_CALL_FAILED, type PlainStatusCall, type LetterCaseProfile, type FormReading } from './status.ts';

export const CLIENT_CASES: readonly ClientCase[] = [...COLLECT_CASES, ...ANSWERS_CASES, ...STATUS_CASES];
