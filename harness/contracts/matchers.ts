// Pact matchers for the collect body and the Authorization header (§2.1, §5.2), shared by the
// consumer tests. Example values are fixed so that the pact files come out the same every run.
import { MatchersV3 } from '@pact-foundation/pact';
import { signBody } from '../signing/index.ts';
import type { CollectBody } from './clients.ts';
import { EXAMPLE_CREDENTIALS, INJECTED } from './examples.ts';

export const AUTHORIZATION_PATTERN = '^HMAC [^:]+:[0-9a-f]{64}$';
export const AMOUNT_PATTERN = '^[0-9]+(\\.[0-9]+)?$';
export const DIGITS_PATTERN = '^[0-9]+$';
export const HTTPS_URL_PATTERN = '^https://[^\\s]+$';
export const CALLBACK_STATUS_PATTERN = '^(SUCCESS|FAILED)$';
/** A status answer's value (§4.2 as the suite takes it: harness/status STATUS_VALUES). */
export const TRANSACTION_STATUS_PATTERN = '^(PENDING|SUCCESS|FAILED)$';

/**
 * A regex matcher whose value the provider state may replace (`fromProviderState` keeps only a
 * type rule; the integration format takes a matcher and a generator side by side).
 */
export function injectedRegex(pattern: string, expression: string, example: string): MatchersV3.Matcher<string> {
  return {
    'pact:matcher:type': 'regex',
    regex: pattern,
    'pact:generator:type': 'ProviderState',
    expression,
    value: example,
  } as unknown as MatchersV3.Matcher<string>;
}

/** `HMAC {client_key}:{hex}` matched by shape; the example is the real signature of `body`. */
export function authorizationMatcher(body: CollectBody | object, secretKey: string): MatchersV3.Matcher<string> {
  const example = signBody(JSON.stringify(body), secretKey, { clientKey: EXAMPLE_CREDENTIALS.clientKey }).authorization!;
  return MatchersV3.regex(AUTHORIZATION_PATTERN, example);
}

export interface CollectBodyMatcherOptions {
  /** Pin customer_number exactly (a state names the number). */
  exactCustomerNumber?: boolean;
}

/** The six §2.1 fields with type and format rules; transaction_id and callback_url injectable. */
export function collectBodyMatcher(body: CollectBody, options: CollectBodyMatcherOptions = {}): Record<string, unknown> {
  return {
    amount: MatchersV3.regex(AMOUNT_PATTERN, body.amount),
    callback_url: injectedRegex(HTTPS_URL_PATTERN, `\${${INJECTED.callbackUrl}}`, body.callback_url),
    client_id: MatchersV3.integer(body.client_id),
    customer_number: options.exactCustomerNumber ? body.customer_number : MatchersV3.regex(DIGITS_PATTERN, body.customer_number),
    network_code: MatchersV3.string(body.network_code),
    transaction_id: MatchersV3.fromProviderState(`\${${INJECTED.transactionId}}`, body.transaction_id),
  };
}
