// Names, paths and the fixed example values written into the shipped pact files.
// The examples are deliberately public test values (never real credentials): the pact files are
// golden artefacts, and their content must be the same on every run (no clocks, no randomness).
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { STATUS_POSITION } from '../status/index.ts';

export const PARTICIPANTS = {
  client: 'collect-client',
  service: 'collection-service',
  receiver: 'callback-receiver',
} as const;

export type PactSide = 'service' | 'receiver';

/** Where the committed pact files live (the package ships them; users download them). */
export const PACTS_DIR = fileURLToPath(new URL('../../vectors/pacts/', import.meta.url));

/** Pact's own naming: `<consumer>-<provider>.json`. */
export const PACT_FILES = {
  service: `${PARTICIPANTS.client}-${PARTICIPANTS.service}.json`,
  receiver: `${PARTICIPANTS.service}-${PARTICIPANTS.receiver}.json`,
} as const satisfies Record<PactSide, string>;

export function shippedPactPath(side: PactSide, dir: string = PACTS_DIR): string {
  return join(dir, PACT_FILES[side]);
}

/** §4.1, and the status endpoint as the suite takes it (§4.2 leaves it open: harness/status). */
export const COLLECT_PATH = '/api/v1.0/collect/';
export const STATUS_PATH = STATUS_POSITION.path;
/** The callback path of the pact; a receiver elsewhere is reached through `callbackPath`. */
export const PACT_CALLBACK_PATH = '/callback';

/** Example credentials of the consumer tests. Public by design: verification re-signs. */
export const EXAMPLE_CREDENTIALS = {
  clientId: 2,
  clientKey: 'pact-example-client-key',
  secretKey: 'pact-example-secret-key',
  /** What a client with a stale secret signs with (the "signature does not match" example). */
  staleSecretKey: 'pact-example-stale-secret',
  callbackToken: 'pact-example-callback-token',
  wrongCallbackToken: 'pact-example-wrong-token',
} as const;

export const EXAMPLE_VALUES = {
  amount: '15.00',
  whitelistedNumber: '0244000001',
  notWhitelistedNumber: '0244999999',
  networkCode: 'MTN',
  callbackUrl: 'https://merchant.example/payments/callback',
  transactionId: 'PACT-TX-0001',
  /** The status request's id of the "unknown id" interaction. */
  unknownTransactionId: 'PACT-TX-UNKNOWN',
  successMessage: 'Transaction successful',
  failedMessage: 'Transaction failed',
} as const;

/** Provider state names: the contract between the pacts and every provider's state setup. */
export const STATES = {
  whitelisted: `customer number ${EXAMPLE_VALUES.whitelistedNumber} is whitelisted in sandbox`,
  notWhitelisted: `customer number ${EXAMPLE_VALUES.notWhitelistedNumber} is not whitelisted in sandbox`,
  badSignature: 'the signature does not match the body',
  transactionExists: 'a collect request for customer number 0244000001 was accepted',
  transactionUnknown: 'no transaction has the transaction_id of the status request',
  pending: 'transaction {id} is pending',
  alreadySuccess: 'transaction {id} already SUCCESS',
} as const;

/** Names of the values provider states inject into requests (`fromProviderState`). */
export const INJECTED = {
  transactionId: 'transactionId',
  callbackUrl: 'callbackUrl',
  id: 'id',
} as const;
