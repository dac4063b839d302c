// Public face of the client side's machinery (DESIGN.md "Client SDKs"): driving an SDK through
// its adapter over the line protocol (README.md beside this file), and the service end it calls
// (the reference service behind a recorder with scripted answers).
export {
  encodeCollectLine, fieldsJson, parseAdapterLine, OUTCOMES,
  type AdapterCredentials, type AdapterAnswerLine, type CollectCall, type RawField,
} from './protocol.ts';
// §4.2: the status query, the second op of the protocol.
export { encodeStatusLine, encodeRequestLine, type StatusCall, type AdapterRequest, type AdapterOp } from './protocol.ts';
export { SdkAdapter, HELLO_UPGRADE, type AdapterCapabilities, type AdapterAnswer, type AdapterFailureCode, type AdapterLaunch, type SdkAdapterOptions } from './adapter.ts';
export { startSdkService, MAX_BODY_BYTES, type ReceivedRequest, type SdkService, type SdkServiceOptions, type ServiceScript } from './service.ts';
