// Public face of the reference SDK: a small, correct collect call and status query behind the adapter line
// protocol, with fault switches (one deviation each) that the client cases are proven against.
export { collect, type SdkConfig, type SdkResult } from './sdk.ts';
export { transactionStatus, type SdkStatusResult } from './status.ts';
export { serveReferenceAdapter, referenceAdapterPeer, REFERENCE_SDK_TIMEOUT_MS, type ReferenceAdapterOptions } from './adapter.ts';
export { REFERENCE_SDK_FAULTS, isReferenceSdkFault, type ReferenceSdkFault } from './faults.ts';
