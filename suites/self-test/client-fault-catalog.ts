// Which client case catches which fault switch of the reference SDK, and what its reason says.
// Plain data: the self-test (client-faults.test.ts) runs every client case against the reference
// SDK's adapter with that one fault on and asserts that exactly the listed cases FAIL (the rest
// PASS), each reason carrying the entry's words; the fault table of docs/faults.md is generated
// from it (fault-table.ts). Every fault of REFERENCE_SDK_FAULTS appears.
import type { ReasonMentions } from './fault-catalog.ts';

export interface ClientFaultEntry {
  side: 'client';
  fault: string;
  caseIds: string[];
  /**
   * Caught: FAIL for a MUST case, WARN for a SHOULD case (caughtVerdict of fault-catalog.ts); WARN
   * where the fault follows one form of a position the evidence disagrees on (docs/positions.md).
   */
  expect: 'FAIL' | 'WARN';
  /** Refusal cases that are ERROR: the SDK reported them rejected, but it also reports an accepted answer as rejected (the preflight). */
  errors?: string[];
  /** Words the reason of every listed case carries: the deviation named, not only "it differs" (none when no case catches it). */
  reasonMentions?: ReasonMentions;
  /** The shared cause (harness/diagnoses) named with the fault on. */
  diagnosis?: string;
  /** Cases that are SKIP with the fault on (not exercised): an adapter that does not declare a status call. */
  skips?: string[];
}

/** Every case whose check includes the signature over the bytes sent. */
const SIGNED = [
  'client.collect.signature', 'client.collect.callback-url-literal', 'client.collect.field-order',
  'client.collect.number-whole-float', 'client.collect.number-float-noise', 'client.collect.number-exponent',
  'client.collect.number-large-integer', 'client.collect.extra-fields',
];
const REFUSALS = ['client.answers.client-error', 'client.answers.success-false', 'client.answers.error-code', 'client.answers.server-error', 'client.answers.no-answer'];
/** The client.status cases that pass when the SDK reports no status (a refusal or an error). */
const STATUS_REFUSALS = ['client.status.refusal', 'client.status.unknown-id', 'client.status.server-error', 'client.status.unreadable'];
const STATUS_REPORTS = ['client.status.reports-pending', 'client.status.reports-success', 'client.status.reports-failed'];
const STATUS_ALL = [
  'client.status.method-path', 'client.status.headers', 'client.status.body', 'client.status.signature',
  'client.status.reports-pending', 'client.status.reports-success', 'client.status.reports-failed', ...STATUS_REFUSALS,
];

export const CLIENT_FAULT_CATALOG: readonly ClientFaultEntry[] = [
  { side: 'client', fault: 'wrong-path', expect: 'FAIL', caseIds: ['client.collect.method-path'], reasonMentions: 'the SDK sent POST "/api/v1.0/collect";' },
  { side: 'client', fault: 'no-content-type', expect: 'FAIL', caseIds: ['client.collect.content-type'], reasonMentions: 'Content-Type was not sent' },
  {
    // Issue 22: the rules that need no JSON (method, path, Authorization, the secret, the fields and their text) hold.
    side: 'client', fault: 'form-params', expect: 'FAIL', caseIds: [
      'client.collect.content-type', 'client.collect.amount-string', 'client.collect.customer-number-zeros', 'client.collect.client-id-integer', ...SIGNED,
    ],
    reasonMentions: 'the body sent is not JSON', diagnosis: 'client.body-not-json',
  },
  { side: 'client', fault: 'uppercase-hex', expect: 'FAIL', caseIds: ['client.collect.signature-lowercase'], reasonMentions: 'upper-case' },
  { side: 'client', fault: 'client-id-as-key', expect: 'FAIL', caseIds: ['client.collect.authorization'], reasonMentions: 'does not carry the client key the SDK was given' },
  { side: 'client', fault: 'client-key-as-secret', expect: 'FAIL', caseIds: SIGNED, reasonMentions: ['not the one over the bytes sent', 'no known canonicalisation reproduces it'], diagnosis: 'client.signature-mismatch' },
  { side: 'client', fault: 'secret-sent', expect: 'FAIL', caseIds: ['client.collect.secret-not-sent'], reasonMentions: 'the secret key (or an encoding of it) was sent' },
  { side: 'client', fault: 'amount-as-number', expect: 'FAIL', caseIds: ['client.collect.amount-string', 'client.collect.amount-text-kept'], reasonMentions: 'the SDK sent 15:' },
  { side: 'client', fault: 'amount-through-float', expect: 'FAIL', caseIds: ['client.collect.amount-text-kept'], reasonMentions: 'the SDK sent "15":' },
  { side: 'client', fault: 'customer-number-as-integer', expect: 'FAIL', caseIds: ['client.collect.customer-number-zeros'], reasonMentions: 'leading zeros' },
  { side: 'client', fault: 'client-id-as-string', expect: 'FAIL', caseIds: ['client.collect.client-id-integer'], reasonMentions: 'client_id was sent as "2"' },
  {
    side: 'client', fault: 'transaction-id-camel-case', expect: 'FAIL', caseIds: ['client.collect.fields', 'client.collect.transaction-id-kept'],
    reasonMentions: { 'client.collect.fields': 'transaction_id sent 0 times', 'client.collect.transaction-id-kept': 'the SDK sent none' },
    diagnosis: 'client.fields-missing',
  },
  { side: 'client', fault: 'body-order-signature', expect: 'FAIL', caseIds: ['client.collect.field-order', 'client.collect.extra-fields'], reasonMentions: '`body-order`' },
  { side: 'client', fault: 'locale-order-signature', expect: 'FAIL', caseIds: ['client.collect.extra-fields'], reasonMentions: '`locale-order`' },
  { side: 'client', fault: 'encode-uri-callback-signed', expect: 'FAIL', caseIds: ['client.collect.callback-url-literal'], reasonMentions: '`encode-uri`' },
  { side: 'client', fault: 'encoded-callback-sent', expect: 'FAIL', caseIds: ['client.collect.callback-url-literal'], reasonMentions: 'not re-encoded' },
  {
    // The PHP SDK of issue 14: signs 15 and sends 15.0.
    side: 'client', fault: 'float-text-sent', expect: 'FAIL', caseIds: ['client.collect.number-whole-float', 'client.collect.number-exponent'],
    reasonMentions: 'signed `amount=',
  },
  {
    // The PHP SDK of issue 14: signs 3.3 and sends 3.3000000000000003.
    side: 'client', fault: 'php-float-signed', expect: 'FAIL', caseIds: ['client.collect.number-float-noise', 'client.collect.number-large-integer'],
    reasonMentions: '`php-float-precision`',
  },
  { side: 'client', fault: 'extra-fields-unsigned', expect: 'FAIL', caseIds: ['client.collect.extra-fields'], reasonMentions: 'six fields of §2.1 alone: it left out `Reference`, `note`' },
  { side: 'client', fault: 'collect-put', expect: 'FAIL', caseIds: ['client.collect.method-path'], reasonMentions: 'the SDK sent PUT "/api/v1.0/collect/";' },
  { side: 'client', fault: 'content-type-twice', expect: 'FAIL', caseIds: ['client.collect.content-type'], reasonMentions: 'Content-Type was "application/json" and "application/json"; a JSON body' },
  // A JSON body under another type: the type named, and no word of a body that is not JSON.
  { side: 'client', fault: 'content-type-text-plain', expect: 'FAIL', caseIds: ['client.collect.content-type'], reasonMentions: 'Content-Type was "text/plain;charset=UTF-8"; a JSON body is sent as application/json' },
  { side: 'client', fault: 'authorization-twice', expect: 'FAIL', caseIds: ['client.collect.authorization'], reasonMentions: 'carried 2 Authorization headers' },
  // No signature can be read: one cause, named once, for the header's case and every signature case; letter case not judged.
  {
    side: 'client', fault: 'authorization-scheme-twice', expect: 'FAIL', caseIds: ['client.collect.authorization', ...SIGNED], skips: ['client.collect.signature-lowercase'],
    reasonMentions: 'is not "HMAC {client_key}:{signature}"', diagnosis: 'client.authorization-unreadable',
  },
  {
    side: 'client', fault: 'authorization-extra-member', expect: 'FAIL', caseIds: ['client.collect.authorization', ...SIGNED], skips: ['client.collect.signature-lowercase'],
    reasonMentions: 'is not "HMAC {client_key}:{signature}"', diagnosis: 'client.authorization-unreadable',
  },
  // The right HMAC in another form: named as such (not "likely the secret is wrong"); letter case not judged on base64.
  {
    side: 'client', fault: 'signature-base64', expect: 'FAIL', caseIds: ['client.collect.authorization', ...SIGNED], skips: ['client.collect.signature-lowercase'],
    reasonMentions: { 'client.collect.authorization': 'is not 64 hex digits', ...Object.fromEntries(SIGNED.map((id) => [id, 'it is the HMAC-SHA256 over the right message, written in base64, not hex'])) },
    diagnosis: 'client.signature-mismatch',
  },
  {
    side: 'client', fault: 'signature-prefixed', expect: 'FAIL', caseIds: ['client.collect.authorization', ...SIGNED], skips: ['client.collect.signature-lowercase'],
    reasonMentions: { 'client.collect.authorization': 'is not 64 hex digits', ...Object.fromEntries(SIGNED.map((id) => [id, 'in hex after a prefix `sha256=`'])) },
    diagnosis: 'client.signature-mismatch',
  },
  {
    side: 'client', fault: 'signature-sha512', expect: 'FAIL', caseIds: ['client.collect.authorization', ...SIGNED],
    reasonMentions: { 'client.collect.authorization': 'is not 64 hex digits', ...Object.fromEntries(SIGNED.map((id) => [id, 'it is the HMAC-SHA512 over the right message, not HMAC-SHA256'])) },
    diagnosis: 'client.signature-mismatch',
  },
  { side: 'client', fault: 'own-transaction-id', expect: 'FAIL', caseIds: ['client.collect.transaction-id-kept'], reasonMentions: 'it is the caller\'s reference' },
  { side: 'client', fault: 'network-code-lower-case', expect: 'FAIL', caseIds: ['client.collect.fields'], reasonMentions: 'network_code sent as "mtn", given "MTN"' },
  { side: 'client', fault: 'network-code-unknown-null', expect: 'FAIL', caseIds: ['client.collect.fields'], reasonMentions: 'network_code sent as null, not a string' },
  {
    side: 'client', fault: 'fields-pascal-case', expect: 'FAIL',
    caseIds: [
      'client.collect.fields', 'client.collect.transaction-id-kept', 'client.collect.amount-string', 'client.collect.amount-text-kept',
      'client.collect.customer-number-zeros', 'client.collect.client-id-integer', 'client.collect.callback-url-literal',
    ],
    reasonMentions: {
      'client.collect.fields': 'amount sent 0 times; callback_url sent 0 times', 'client.collect.transaction-id-kept': 'the SDK sent none',
      'client.collect.amount-string': 'the body has no amount', 'client.collect.amount-text-kept': 'the body has no amount',
      'client.collect.customer-number-zeros': 'the SDK sent none', 'client.collect.client-id-integer': 'client_id was sent as nothing',
      'client.collect.callback-url-literal': 'the SDK sent none',
    },
    diagnosis: 'client.fields-missing',
  },
  { side: 'client', fault: 'customer-number-international', expect: 'FAIL', caseIds: ['client.collect.customer-number-zeros'], reasonMentions: 'the SDK sent "233244000001"' },
  { side: 'client', fault: 'client-id-as-float', expect: 'FAIL', caseIds: ['client.collect.client-id-integer'], reasonMentions: 'client_id was sent as 2.0;' },
  { side: 'client', fault: 'status-only-answer', expect: 'FAIL', caseIds: ['client.answers.success-false', 'client.answers.error-code'], reasonMentions: 'the SDK reported accepted (HTTP 200' },
  { side: 'client', fault: 'error-code-ignored', expect: 'FAIL', caseIds: ['client.answers.error-code'], reasonMentions: 'a body carrying a non-null error_code is a refusal' },
  {
    side: 'client', fault: 'body-only-answer', expect: 'FAIL', caseIds: ['client.answers.client-error', 'client.answers.server-error'],
    reasonMentions: { 'client.answers.client-error': 'the SDK reported accepted (HTTP 401', 'client.answers.server-error': 'the SDK reported accepted (HTTP 503)' },
  },
  { side: 'client', fault: 'server-error-accepted', expect: 'FAIL', caseIds: ['client.answers.server-error'], reasonMentions: 'the SDK reported accepted (HTTP 503 (the service will process it))' },
  { side: 'client', fault: 'timeout-accepted', expect: 'FAIL', caseIds: ['client.answers.no-answer'], reasonMentions: 'the SDK reported accepted (no answer within' },
  { side: 'client', fault: 'success-string-compare', expect: 'FAIL', caseIds: ['client.answers.accepted'], errors: REFUSALS, reasonMentions: 'the SDK reported rejected' },
  // §4.2, the status query (docs/status.md).
  { side: 'client', fault: 'status-get-query', expect: 'FAIL', caseIds: ['client.status.method-path', 'client.status.body'], reasonMentions: 'GET' },
  { side: 'client', fault: 'status-wrong-path', expect: 'FAIL', caseIds: ['client.status.method-path'], reasonMentions: 'the SDK sent POST "/api/v1.0/transaction-status/"; the status query is POST' },
  {
    side: 'client', fault: 'status-unsigned', expect: 'FAIL', caseIds: ['client.status.headers', 'client.status.signature'],
    reasonMentions: { 'client.status.headers': 'carried 0 Authorization headers', 'client.status.signature': 'Authorization header is missing' },
  },
  { side: 'client', fault: 'status-client-id-string', expect: 'FAIL', caseIds: ['client.status.body'], reasonMentions: 'client_id sent as "2"' },
  { side: 'client', fault: 'status-id-camel-case', expect: 'FAIL', caseIds: ['client.status.body'], reasonMentions: 'transaction_id sent 0 times' },
  { side: 'client', fault: 'status-id-as-integer', expect: 'FAIL', caseIds: ['client.status.body'], reasonMentions: 'transaction_id sent as null, given "cc-' },
  { side: 'client', fault: 'status-no-content-type', expect: 'FAIL', caseIds: ['client.status.headers'], reasonMentions: 'Content-Type was not sent' },
  { side: 'client', fault: 'status-client-id-as-key', expect: 'FAIL', caseIds: ['client.status.headers'], reasonMentions: 'does not carry the client key the SDK was given' },
  {
    side: 'client', fault: 'status-get-body-signed', expect: 'FAIL', caseIds: ['client.status.method-path', 'client.status.body', 'client.status.signature'],
    reasonMentions: { 'client.status.method-path': 'its parameters in the query', 'client.status.body': 'the status query has no body', 'client.status.signature': ['not signed over its query\'s pairs: expected ', ', got "HMAC '] },
  },
  {
    side: 'client', fault: 'status-form-params', expect: 'FAIL', caseIds: ['client.status.headers', 'client.status.body', 'client.status.signature'],
    reasonMentions: {
      'client.status.headers': 'Content-Type was "application/x-www-form-urlencoded"', 'client.status.body': 'the body sent is not a JSON object',
      'client.status.signature': 'the signature is the one over the form\'s pairs',
    },
  },
  // Never asks: every status case FAILs on the request that never came (the preflight's status control too).
  { side: 'client', fault: 'status-from-cache', expect: 'FAIL', caseIds: STATUS_ALL, reasonMentions: 'no request reached the service; the SDK reported status PENDING (from the SDK\'s cache)' },
  { side: 'client', fault: 'status-signs-id-only', expect: 'FAIL', caseIds: ['client.status.signature'], reasonMentions: 'the signature over transaction_id alone' },
  {
    side: 'client', fault: 'status-success-only', expect: 'FAIL',
    caseIds: ['client.status.reports-pending', 'client.status.reports-failed', 'client.status.unreadable'], reasonMentions: 'reported status SUCCESS',
  },
  {
    // The plain status query (the preflight's, answered SUCCESS) is reported FAILED too: the refusal cases prove nothing.
    side: 'client', fault: 'status-successful-spelling', expect: 'FAIL', caseIds: ['client.status.reports-success'], errors: STATUS_REFUSALS,
    reasonMentions: 'the SDK reported status FAILED (HTTP 200)',
  },
  {
    // Its status call works (PENDING, FAILED): the SUCCESS case FAILs, not SKIP "likely no status call".
    side: 'client', fault: 'status-success-throws', expect: 'FAIL', caseIds: ['client.status.reports-success'], errors: STATUS_REFUSALS,
    reasonMentions: 'the SDK reported an error (unknown status "SUCCESS"',
  },
  { side: 'client', fault: 'status-not-found-as-failed', expect: 'FAIL', caseIds: ['client.status.unknown-id'], reasonMentions: ['answered 404', 'the SDK reported status FAILED'] },
  { side: 'client', fault: 'status-error-as-pending', expect: 'FAIL', caseIds: ['client.status.refusal', 'client.status.unknown-id', 'client.status.server-error'], reasonMentions: 'the SDK reported status PENDING' },
  // Its hello declares collect only: never sent a status request, one cause names it.
  { side: 'client', fault: 'status-not-implemented', expect: 'FAIL', caseIds: [], skips: STATUS_ALL, diagnosis: 'client.status-not-declared' },
  // An adapter that predates the hello: protocol 1, collect only, the upgrade named once.
  { side: 'client', fault: 'protocol-1', expect: 'FAIL', caseIds: [], skips: STATUS_ALL, diagnosis: 'client.status-not-declared' },
  // One letter case read (issue 37): WARN naming the other form and its evidence, never FAIL.
  { side: 'client', fault: 'status-upper-case-only', expect: 'WARN', caseIds: STATUS_REPORTS, reasonMentions: ['the SDK reads the status only in upper case', 'the real status client deployed in Ghana'] },
  { side: 'client', fault: 'status-lower-case-only', expect: 'WARN', caseIds: STATUS_REPORTS, reasonMentions: ['the SDK reads the status only in lower case', 'in upper case in callbacks (§6)'] },
  {
    // The earlier real client: upper-case SUCCESS and FAILED reported PENDING, misreports of one cause.
    side: 'client', fault: 'status-lower-case-compare', expect: 'FAIL', caseIds: ['client.status.reports-success', 'client.status.reports-failed', 'client.status.unreadable'],
    reasonMentions: 'the SDK reported status PENDING', diagnosis: 'client.status-misreported',
  },
];
