// Which service-side case catches which fault of the reference service, and with what verdict.
// Plain data: the self-test (service-faults.test.ts) runs exactly these cases against the
// simulator with that one fault on, and the fault table of docs/faults.md is generated from it.
// Every fault of SIMULATOR_FAULTS appears at least once, and every service case is caught by at
// least one fault unless SERVICE_CASES_WITHOUT_FAULT exempts it (the self-test checks both).

export interface ServiceFaultEntry {
  side: 'service';
  fault: string;
  caseIds: string[];
  /**
   * The verdict each listed case must give with the fault on (and PASS without it); FAIL means
   * WARN for a case of level SHOULD (caughtVerdict in fault-catalog.ts).
   */
  expect: 'FAIL' | 'WARN';
  /** The simulator's mode for this fault (default sandbox). */
  mode?: 'sandbox' | 'production';
}

export const SERVICE_FAULT_CATALOG: readonly ServiceFaultEntry[] = [
  {
    side: 'service', fault: 'no-signature-check', expect: 'FAIL',
    caseIds: [
      'service.auth.changed-amount', 'service.auth.changed-callback_url', 'service.auth.changed-customer_number',
      'service.auth.changed-network_code', 'service.auth.changed-transaction_id', 'service.auth.unsigned-callback_url',
      'service.auth.added-field', 'service.auth.dropped-field', 'service.auth.wrong-secret', 'service.auth.truncated-signature',
      'service.auth.uppercase-signature', 'service.status.wrong-signature',
    ],
  },
  { side: 'service', fault: 'authorization-optional', expect: 'FAIL', caseIds: ['service.auth.missing-header', 'service.status.missing-header'] },
  { side: 'service', fault: 'client-id-unsigned', expect: 'FAIL', caseIds: ['service.auth.changed-client_id'] },
  { side: 'service', fault: 'client-key-ignored', expect: 'FAIL', caseIds: ['service.auth.wrong-client-key', 'service.status.unknown-client-key'] },
  { side: 'service', fault: 'partial-signature', expect: 'FAIL', caseIds: ['service.auth.unsigned-callback_url'] },
  { side: 'service', fault: 'case-insensitive-signature', expect: 'FAIL', caseIds: ['service.auth.uppercase-signature'] },
  { side: 'service', fault: 'prefix-signature-compare', expect: 'FAIL', caseIds: ['service.auth.truncated-signature'] },
  { side: 'service', fault: 'unsorted-signature', expect: 'FAIL', caseIds: ['service.auth.unsorted-body-accepted', 'service.auth.valid-accepted', 'service.sandbox.whitelisted-accepted'] },
  { side: 'service', fault: 'encoded-signature', expect: 'FAIL', caseIds: ['service.auth.literal-url-accepted', 'service.auth.valid-accepted'] },
  { side: 'service', fault: 'ip-whitelist-off', expect: 'FAIL', caseIds: ['service.auth.ip-not-whitelisted', 'service.status.ip-not-whitelisted'] },
  { side: 'service', fault: 'trusts-forwarded-for', expect: 'FAIL', caseIds: ['service.auth.ip-not-whitelisted'] },
  { side: 'service', fault: 'sandbox-numbers-off', expect: 'FAIL', caseIds: ['service.sandbox.not-whitelisted-rejected', 'service.sandbox.leading-zeros-kept'] },
  { side: 'service', fault: 'numbers-as-integers', expect: 'FAIL', caseIds: ['service.sandbox.leading-zeros-kept'] },
  { side: 'service', fault: 'always-question-mark', expect: 'FAIL', caseIds: ['service.callback.query-appended-with-ampersand', 'service.callback.url-kept-intact'] },
  { side: 'service', fault: 'always-ampersand', expect: 'FAIL', caseIds: ['service.callback.query-appended-with-question-mark'] },
  { side: 'service', fault: 'drop-existing-query', expect: 'FAIL', caseIds: ['service.callback.query-appended-with-ampersand', 'service.callback.url-kept-intact'] },
  { side: 'service', fault: 'message-percent20', expect: 'FAIL', caseIds: ['service.callback.message-plus-encoding'] },
  { side: 'service', fault: 'lowercase-status', expect: 'FAIL', caseIds: ['service.callback.status-success', 'service.callback.status-failed'] },
  { side: 'service', fault: 'wrong-transaction-id', expect: 'FAIL', caseIds: ['service.callback.transaction-id-echoed'] },
  { side: 'service', fault: 'wrong-token', expect: 'FAIL', caseIds: ['service.callback.token-present'] },
  { side: 'service', fault: 'no-token', expect: 'WARN', caseIds: ['service.callback.token-present'] },
  { side: 'service', fault: 'token-first-attempt-only', expect: 'FAIL', caseIds: ['service.callback.token-present'] },
  { side: 'service', fault: 'post-callbacks', expect: 'FAIL', caseIds: ['service.callback.delivered-once-as-get'] },
  { side: 'service', fault: 'no-retry', expect: 'FAIL', caseIds: ['service.callback.retry-back-off'] },
  { side: 'service', fault: 'constant-retry', expect: 'FAIL', caseIds: ['service.callback.retry-back-off'] },
  { side: 'service', fault: 'single-retry', expect: 'WARN', caseIds: ['service.callback.retry-back-off'] },
  { side: 'service', fault: 'retry-after-success', expect: 'WARN', caseIds: ['service.callback.retries-stop-after-2xx'] },
  { side: 'service', fault: 'only-200-success', expect: 'WARN', caseIds: ['service.callback.retries-stop-after-2xx'] },
  { side: 'service', fault: 'conflicting-duplicates', expect: 'FAIL', caseIds: ['service.callback.duplicates-consistent'] },
  { side: 'service', fault: 'failed-as-success', expect: 'FAIL', caseIds: ['service.callback.status-failed', 'service.status.failed-agrees'] },
  {
    side: 'service', fault: 'no-callback', expect: 'FAIL',
    caseIds: ['service.callback.delivered-once-as-get', 'service.callback.status-success', 'service.callback.retry-back-off'],
  },
  { side: 'service', fault: 'plain-http-in-production', expect: 'FAIL', mode: 'production', caseIds: ['service.callback.https-only-in-production'] },
  { side: 'service', fault: 'raw-transaction-id', expect: 'FAIL', caseIds: ['service.callback.reserved-id-intact'] },
  { side: 'service', fault: 'https-downgrade', expect: 'FAIL', mode: 'production', caseIds: ['service.callback.delivered-over-https'] },
  // §4.2, the status endpoint (docs/status.md).
  {
    side: 'service', fault: 'status-unsigned', expect: 'FAIL',
    caseIds: ['service.status.missing-header', 'service.status.wrong-signature', 'service.status.unknown-client-key'],
  },
  { side: 'service', fault: 'status-ip-unchecked', expect: 'FAIL', caseIds: ['service.status.ip-not-whitelisted'] },
  { side: 'service', fault: 'status-stays-pending', expect: 'FAIL', caseIds: ['service.status.success-agrees', 'service.status.failed-agrees'] },
  { side: 'service', fault: 'status-failed-as-success', expect: 'FAIL', caseIds: ['service.status.failed-agrees'] },
  { side: 'service', fault: 'status-pending-as-success', expect: 'FAIL', caseIds: ['service.status.pending-not-terminal'] },
  { side: 'service', fault: 'status-unknown-success', expect: 'FAIL', caseIds: ['service.status.unknown-id-not-success'] },
];

/**
 * Service cases no simulator fault can make fail, each with why. Empty: every case is proven by
 * a faulty target. A case added here needs a comment saying why no realistic fault exists.
 */
export const SERVICE_CASES_WITHOUT_FAULT: readonly string[] = [];
