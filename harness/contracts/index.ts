// Public face of the Pact contracts: names and example values of the shipped pacts, the
// clients they describe, the matchers of the consumer tests, pact-file freshness, and provider
// verification (state handlers, request filters, `verifyProvider`).
export * from './examples.ts';
export * from './clients.ts';
export * from './matchers.ts';
export * from './pact-files.ts';
export { ContractError, type ContractErrorCode } from './errors.ts';
export type { ServiceVerifyOptions, ReceiverVerifyOptions, CommonVerifyOptions, VerifyProviderOptions } from './options.ts';
export { serviceRequestFilter, receiverRequestFilter, STATE_SETUP_PATH, type RequestFilter, type FilterRequest, type ServiceRunFlags } from './filters.ts';
export { serviceStates, receiverStates, freshIds, type StateSetup, type StateParams, type StateResult } from './states.ts';
export { verifyProvider, type VerificationOutcome } from './verify.ts';
