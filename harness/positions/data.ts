// Every position the kit takes where the spec says "not shown", as data, each with the evidence it
// rests on: which real code (or standard, or sentence of the spec), and what it does. Where the
// evidence disagrees, the position says which forms the kit reads and which one its reference
// implementations use. docs/positions.md is generated from this list (page.ts; `npm run
// docs:positions`), and suites/positions checks that the committed page is the generated one.

/** What a position rests on. `code`: real code written by others; `reasoning`: no code seen, the argument is given. */
export interface PositionEvidence {
  kind: 'code' | 'spec' | 'standard' | 'reasoning';
  /** Which code, document or sentence. */
  source: string;
  /** What it does or says, as observed. */
  what: string;
}

export interface Position {
  /** Stable id, e.g. `status.answer-values`. */
  id: string;
  /** The page section it is listed under. */
  topic: string;
  title: string;
  /** What the spec leaves open (the § where it is silent). */
  silent: string;
  /** The kit's position, in a paragraph (markdown). */
  position: string;
  /** Where the evidence disagrees: what the kit accepts, and what its reference implementations do. */
  reads?: string;
  evidence: readonly PositionEvidence[];
  /** The cases judged by it (ids or `group.*`). */
  cases: readonly string[];
}

export const TOPICS = [
  'Signing and the callback URL',
  'The callback token',
  'Source addresses',
  'Reply time',
  'Retries and back-off',
  'A valid callback is answered 2xx',
  'The service\'s answers and transaction ids',
  'Transaction status (§4.2)',
  'The line protocols',
] as const;

export const POSITIONS: readonly Position[] = [
  {
    id: 'signing.values-as-text', topic: 'Signing and the callback URL', title: 'Values are signed as their text stands in the body',
    silent: '§5.1 says "value" without saying how a JSON number, a string\'s escapes, `null`, a boolean or a nested value is written.',
    position: 'Values are signed as their text stands in the body (the JSON number `15.0` is `15.0`, `"0.10"` stays `0.10`; a string is its characters, its JSON escapes read: `"caf\\u00e9"` is `café`), never URL-encoded; keys in byte (code-point) order; `null`, booleans and nested values as their JSON text (interpretive: `acceptable`). [`vectors/README.md`](../vectors/README.md) has the full list, with the alternatives real code follows under stable labels.',
    evidence: [
      { kind: 'spec', source: '§2.1, §5.1', what: 'the amount travels as a string, and the message is "key=value" pairs of the body: signing anything but the text sent would sign what was not sent' },
      { kind: 'code', source: 'the alternatives of vectors/signature.json (`locale-order`, `php-float`, `encode-uri`, …)', what: 'each is what a family of real signers does (PHP\'s float printing, localeCompare, encodeURI): a verifier is told which one it follows' },
    ],
    cases: ['vectors.signature.*', 'client.collect.signature', 'service.auth.*'],
  },
  {
    id: 'signing.not-injective', topic: 'Signing and the callback URL', title: 'The canonical form is not injective: verify the bytes received',
    silent: '§5.2 says to verify the signature, not over which bytes.',
    position: '`{"a": "1&b=2"}` and `{"a": "1", "b": "2"}` both give the message `a=1&b=2`, hence the same signature. A verifier must therefore verify the raw body bytes it received and act on exactly those bytes, never rebuild a body from the pairs or accept pairs from elsewhere (a query string, a form) under a signature made over JSON.',
    evidence: [{ kind: 'reasoning', source: '§5.1 steps 2 and 3', what: 'pairs joined with `&` and `=` unescaped: two bodies can share one message' }],
    cases: ['service.auth.*'],
  },
  {
    id: 'callback.url-parameters', topic: 'Signing and the callback URL', title: 'Callback parameters are form-encoded, before a fragment, the last one wins',
    silent: '§6 shows a callback URL with its parameters appended, not how they are encoded or what happens to a `callback_url` that already has them.',
    position: 'Callback parameters are form-encoded (`+` for spaces) and go before a `#fragment`; when parsing, the last occurrence of a parameter wins, because the service appends.',
    evidence: [
      { kind: 'standard', source: 'WHATWG URL, application/x-www-form-urlencoded', what: 'what URLSearchParams, PHP\'s http_build_query and Python\'s urlencode write' },
      { kind: 'reasoning', source: '§6', what: 'the service appends to the URL the client gave: a parameter the client put there comes first' },
    ],
    cases: ['vectors.callback-url.*', 'vectors.callback-query.*', 'receiver.params.*'],
  },
  {
    id: 'callback.token-header', topic: 'The callback token', title: 'X-Callback-Token: optional outside hosted checkout, any spelling of the name',
    silent: '§6 shows the header for hosted checkout only.',
    position: 'Outside hosted checkout a service that omits `X-Callback-Token` gets WARN, and a receiver whose target file names a token must check it (MUST). The header\'s name is case-insensitive: a receiver must check the value under any spelling of the name and accept the configured token under any spelling (MUST, `receiver.token.*-lowercase-name`). The token must be on every delivery, retries included.',
    evidence: [{ kind: 'standard', source: 'RFC 9110 §5.1; RFC 9113 §8.2', what: 'field names are case-insensitive; HTTP/2 always sends them in lower case (`x-callback-token`)' }],
    cases: ['receiver.token.*', 'service.callback.token-present'],
  },
  {
    id: 'auth.source-address', topic: 'Source addresses', title: 'A drop at the network is a refusal only beside an answered control',
    silent: '§5.4 whitelists source addresses without saying how a refusal looks or which address counts behind a proxy.',
    position: 'A request from a non-whitelisted source may be dropped at the network (reset, refused, no answer) instead of answered 403: that counts as a rejection only when the same request from the whitelisted source, in the same case, got an HTTP answer; a service that answers nobody gets ERROR for `service.auth.ip-not-whitelisted`, never PASS. The source address is the connection\'s: the same request claiming the whitelisted address in `X-Forwarded-For`, `X-Real-IP` and `Forwarded` (headers the client writes) must be rejected too; a service behind its own proxy reads the address that proxy sets, not the client\'s (the last entry it appends, or the header it overwrites), and PASSes; trusting the first `X-Forwarded-For` entry FAILs. The claim names this machine\'s own address towards the service (127.0.0.1 or ::1 on loopback): the whitelisted one unless a NAT lies between them, where the claim cannot show the fault. A `sources.notWhitelisted.proxy` is asked for a CONNECT tunnel, so it adds no header of its own.',
    evidence: [
      { kind: 'code', source: 'firewalls and load balancers in front of real services', what: 'drop or reset a connection from an address they refuse, with no HTTP answer' },
      { kind: 'standard', source: 'RFC 7239; X-Forwarded-For as proxies append it', what: 'the first entry is whatever the client wrote; only the proxy\'s own entry can be trusted' },
    ],
    cases: ['service.auth.ip-not-whitelisted'],
  },
  {
    id: 'receiver.reply-deadline', topic: 'Reply time', title: 'A reply within 3 s by default, measured to its last byte',
    silent: '§8 asks for a reply "within a few seconds" and gives no bound.',
    position: 'A receiver\'s reply time is measured to the last byte of its reply. Its deadline is the target file\'s `timing.replyDeadlineMs`, a `MUST` for that run; left out, it is 3000 ms, the suite\'s reading of "a few seconds", and the report says it was defaulted.',
    evidence: [
      { kind: 'spec', source: '§8', what: '"a reply of HTTP 200 is expected within a few seconds (no exact bound is given)"' },
      { kind: 'reasoning', source: 'harness/targets (TARGET_DEFAULTS)', what: 'three seconds is the smallest reading of "a few"; a user who knows the service\'s real time-out states it' },
    ],
    cases: ['receiver.latency.*'],
  },
  {
    id: 'service.retry-backoff', topic: 'Retries and back-off', title: 'Back-off means intervals that grow; only what jitter never gives FAILs',
    silent: '§6 names exponential back-off without intervals.',
    position: 'The retry intervals PASS when they grow, step by step or overall (the last at least 1.5 × the first), and FAIL only for what back-off with jitter practically never gives: immediate retries, or a fixed delay seen on at least four intervals (the listener answers two more deliveries 500 when the first two look alike; full jitter looks that constant in under 0.2 % of runs); irregular or shrinking intervals, and fewer that look constant, are SKIP, not FAIL, since full jitter (each wait random up to a growing cap) gives them too.',
    evidence: [
      { kind: 'code', source: 'AWS SDKs\' "full jitter" retry strategy; Celery\'s retry_backoff with retry_jitter', what: 'each wait is random up to a growing cap, so single intervals may shrink while the cap grows' },
      { kind: 'spec', source: '§6', what: '"retried with exponential back-off": growth is the rule (MUST)' },
    ],
    cases: ['service.callback.retry-back-off'],
  },
  {
    id: 'receiver.valid-callback-2xx', topic: 'A valid callback is answered 2xx', title: 'Duplicates and late outcomes are answered 2xx too',
    silent: '§6 rule 3 asks for 2xx to stop retries, not what a duplicate gets.',
    position: 'A receiver answers every valid callback 2xx (§6 rule 3), a duplicate and a late one with the other outcome too, which change nothing: a 409 or a 5xx only makes the service retry a callback that can never apply.',
    evidence: [{ kind: 'spec', source: '§6 rules 3 and 4', what: 'any non-2xx causes a retry; terminal states are final' }],
    cases: ['receiver.idempotence.*', 'receiver.outcome.*'],
  },
  {
    id: 'service.rejection-shape', topic: 'The service\'s answers and transaction ids', title: 'A rejection: not 2xx, or `success: false`, or an `error_code`',
    silent: '§4.1 and §7 show no answer bodies or status codes.',
    position: 'A collect answer is **rejected** when not 2xx or when its JSON body says `"success": false` or carries a non-null `error_code` (a target file may state another shape, [`rejection`](service.md#your-services-rejections)). A client is judged on both halves as `SHOULD` (`client.answers.success-false`, `client.answers.error-code`).',
    evidence: [
      { kind: 'code', source: 'the real status client deployed in Ghana (issue 37)', what: 'reads `success: false` with an `error_code` (421) as the service\'s refusal of a request' },
      { kind: 'reasoning', source: '§7', what: 'a service may refuse with a 2xx and a body that says so; the two body fields are what the real clients read' },
    ],
    cases: ['service.auth.*', 'client.answers.*'],
  },
  {
    id: 'service.transaction-ids', topic: 'The service\'s answers and transaction ids', title: 'Transaction ids are the harness\'s own',
    silent: '§2.1 says the client chooses `transaction_id`, not its shape.',
    position: 'Transaction ids are the harness\'s own (`cc-` and a random part) unless the target file states the implementation\'s shape ([`transactionIds`](command-line.md#your-own-id-format)).',
    evidence: [{ kind: 'reasoning', source: '§2.1', what: 'any string the client chooses; a receiver with its own format says so in its target file' }],
    cases: ['receiver.*', 'service.*'],
  },
  {
    id: 'status.request', topic: 'Transaction status (§4.2)', title: 'The query: POST /api/v1.0/transaction_status/, signed as collect',
    silent: '§4.2 says the endpoint exists and "may be called to confirm a callback independently"; it shows no method, path, body or answer.',
    position: '`POST {base_url}/api/v1.0/transaction_status/` with the JSON body `{"transaction_id": "…", "client_id": 2}` (`Content-Type: application/json`), signed exactly as collect: §5.1 over the body\'s pairs, `Authorization: HMAC {client_key}:{signature}` (§5.2). A service target may state another method, path and answer pointer (`"status"` in its target file, [docs/status.md](status.md)).',
    evidence: [
      { kind: 'code', source: 'the real service\'s clients (the status client deployed in Ghana, issue 37)', what: 'POST the id and client id to the status path with the collect signature' },
      { kind: 'spec', source: '§4', what: 'every call carries the Authorization header of §5' },
    ],
    cases: ['service.status.*', 'client.status.method-path', 'client.status.headers', 'client.status.body', 'client.status.signature', 'receiver.confirm.*'],
  },
  {
    id: 'status.answer-values', topic: 'Transaction status (§4.2)', title: 'The status values: read in either letter case; answered in lower case',
    silent: '§4.2 shows no status answer; §6 shows `SUCCESS` and `FAILED` in upper case for callbacks only; §3 does not name the state before them.',
    position: 'An answer is `200 {"success": true, "transaction_id": "…", "status": …}` with one of three values, `pending`, `success` or `failed`.',
    reads: 'The kit reads the value in either letter case (`SUCCESS` and `success` alike) and notes in the report which one the target used. The reference service, and the kit\'s own endpoint a confirming receiver asks (unless the target states `confirms.statusForm`), answer in **lower case**: the only real code that reads a status answer compares lower-case values, and a client written against the real service for months could not have worked otherwise; upper case rests on the callbacks\' spelling alone. An SDK is asked in both forms: one that reads only one letter case gets a WARN naming the other form and this evidence, and a FAIL only where it misreports an answer in a form it does read (a wrong status, or an error to a value of a form whose other values it reads).',
    evidence: [
      { kind: 'code', source: 'the real status client deployed in Ghana (a research deployment paying participants through this API, issue 37)', what: 'compares the answer\'s status with lower-case `success`, `pending`, `failed`; its later version answers an error for any other value' },
      { kind: 'code', source: 'a second real integration of this API (issue 37)', what: 'lowercases the status before comparing it, so it reads either case' },
      { kind: 'spec', source: '§6', what: 'callbacks carry `SUCCESS` and `FAILED` in upper case: the only upper-case evidence, and not about the status answer' },
    ],
    cases: ['service.status.*', 'client.status.reports-*', 'receiver.confirm.*'],
  },
  {
    id: 'status.unknown-id', topic: 'Transaction status (§4.2)', title: 'An unknown id: 404, or `error_code` 421 with `success: false`',
    silent: '§4.2 and §7 show no answer for an id the service does not know.',
    position: 'An id the service does not know is answered `{"success": false, "error_code": 421, "error_message": …}`, or `404`; never a status.',
    reads: 'The kit reads both as "unknown id": an HTTP 404, or a body with `"error_code": 421` beside `"success": false` (under any status below 500), and notes which form the target used. The reference service and the kit\'s own endpoint for receiver.confirm answer the 421 form (with HTTP 200: the real client reads only the body, so the HTTP status it comes with is a guess). An SDK is asked in both forms and must report neither as a status.',
    evidence: [
      { kind: 'code', source: 'the real status client deployed in Ghana (issue 37)', what: 'reads `error_code` 421 with `success: false` as "no such transaction"' },
      { kind: 'reasoning', source: 'RFC 9110 §15.5.5', what: '404 is what an HTTP API says for a resource it does not have: the kit\'s earlier position, kept as the other form' },
    ],
    cases: ['service.status.unknown-id-not-success', 'client.status.unknown-id', 'receiver.confirm.*'],
  },
  {
    id: 'status.refusal', topic: 'Transaction status (§4.2)', title: 'A refused status query reads as a refused collect',
    silent: '§7 shows no status codes or bodies.',
    position: 'A status query is refused as a collect is (not 2xx, or 2xx with `"success": false` or a non-null `error_code`, or the target file\'s own `"rejection"` rules). A status in the answer to a spoiled query is a disclosure: FAIL.',
    evidence: [{ kind: 'spec', source: '§4, §5.2, §5.4', what: 'every call carries the Authorization header and is whitelisted like collect' }],
    cases: ['service.status.missing-header', 'service.status.wrong-signature', 'service.status.unknown-client-key', 'service.status.ip-not-whitelisted', 'client.status.refusal'],
  },
  {
    id: 'status.endpoint-absent', topic: 'Transaction status (§4.2)', title: 'A target without a status endpoint is not judged on it, and fails nothing for it',
    silent: '§4.2 says the endpoint exists, not that every service, test double or SDK has it.',
    position: 'A service whose status path answers 404 with no unknown-id body, as a path beside it does (the endpoint itself is absent, not the id), and an SDK adapter that does not declare `status` in its hello, are not judged on status: their status cases SKIP with one shared cause naming the one line to add (`"status": false` in the target file; `"supports": ["collect", "status"]` in the hello), and their preflight verdict comes from collect alone. A position the spec does not state never turns a preflight into FAIL.',
    evidence: [
      { kind: 'code', source: 'a real project\'s fake service (a test double with collect only, issue 37)', what: 'answers the status path 404 as any unknown path' },
      { kind: 'code', source: 'SDK adapters written before "op": "status" existed (issue 37)', what: 'answer a status request with a collect outcome, or crash on it' },
    ],
    cases: ['preflight.service', 'preflight.client', 'service.status.*', 'client.status.*'],
  },
  {
    id: 'protocol.hello', topic: 'The line protocols', title: 'Protocol 2 opens with a hello; no hello answer means protocol 1',
    silent: 'The spec has no SDK adapter or signer: the line protocols are the kit\'s own.',
    position: 'The kit\'s first line to an SDK adapter or a signer is `{"id": "hello", "op": "hello", "protocol": 2}`. A version-2 peer answers `{"id": "hello", "protocol": 2, "supports": […], "implementation": {"language", "library", "version"}}` (`collect`, `status` for an adapter; `sign` for a signer). Any other answer, none within 1.5 s (an answer later, before the first request\'s, still counts), or an exit, is protocol 1: collect (or sign) only, restarted transparently if it exited, never sent `op: "status"`, its verdicts and exit status what they were.',
    evidence: [
      { kind: 'code', source: 'Bowtie (bowtie-json-schema), its `start` command', what: 'opens every harness-to-implementation conversation with a versioned start that the implementation answers with what it is and supports' },
      { kind: 'reasoning', source: 'issue 37', what: 'guessing support from how an adapter fails hid faults: an SDK that errors on every status value looked like one with no status call' },
    ],
    cases: ['client.*', 'vectors.*'],
  },
];
