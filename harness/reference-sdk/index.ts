// Public face of the reference SDK: a small, correct collect call behind the adapter line
// protocol, with fault switches (one deviation each) that the client cases are proven against.
export { collect, type SdkConfig, type SdkResult } from './sdk.ts';
export { serveReferenceAdapter, referenceAdapterPeer, REFERENCE_SDK_TIMEOUT_MS, type ReferenceAdapterOptions } from './adapter.ts';
export { REFERENCE_SDK_FAULTS, isReferenceSdkFault, type ReferenceSdkFault, type ReferenceSdkFaultInfo } from './faults.ts';
