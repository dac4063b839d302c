// Public face of the signing client for the collect operation (§4.1, §5).
export {
  COLLECT_FIELD_NAMES, UNSORTED_ORDER, REVERSED_ORDER, membersOf, writeBody,
  type CollectFields, type CollectFieldName, type BodyMembers,
} from './body.ts';
export { describeTamper, tamperMembers, wrongSecretFor, type Tamper } from './tamper.ts';
export {
  judgeAnswer, judgeAnswerWhy, saysSuccessFalse, parseJsonOrUndefined, atPointer, DEFAULT_REJECTION,
  type Judgement, type RejectionRule, type AnswerJudgement,
} from './judge.ts';
export { prepareCollect, WRONG_CLIENT_KEY, type CollectInput, type CollectCredentials, type PreparedCollect } from './prepare.ts';
export {
  CollectClient, collectUrl, routeFailure, COLLECT_PATH,
  type CollectClientOptions, type CollectAnswer, type SentAnswer, type SignedRequest, type SourceRoute, type SourceName, type SendOptions,
} from './client.ts';
export { ownAddressTowards } from './own-address.ts';
export { ClientError, type ClientErrorCode } from './errors.ts';
