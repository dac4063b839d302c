// Public face of §4.2 Transaction status: the one wire shape every side uses (shape.ts).
export {
  STATUS_POSITION, STATUS_VALUES, isStatusValue, LETTER_CASES, UNKNOWN_ID_FORMS, REFERENCE_STATUS_FORM, spell, readStatusValue, statusAt,
  unknownIdInBody, unknownIdAnswer, describeForm, type LetterCase, type UnknownIdForm, type StatusForm, statusQueryBody, signedStatusQuery, readStatusAnswer, statusAnswerBody, unknownIdAnswerBody, atPointer,
  type StatusEndpoint, type StatusQuery, type StatusReading, type StatusValue,
} from './shape.ts';

// The harness's own status endpoint, which a confirming receiver calls (receiver.confirm).
export {
  startStatusEndpoint, checkStatusQuery, queryExchange, lateForReceiver, lateAnswerWords, UNREAD_STALL_MS,
  type RunningStatusEndpoint, type StatusEndpointOptions, type ScriptedAnswer, type ReceivedQuery, type QueryProblem, type QueryAnswer, type CallbackReply, type LateAnswer,
} from './endpoint.ts';
