// Fault switches of the reference SDK: each one is a single, realistic deviation of an SDK's
// collect call (what it sends, what it signs, how it reads the answer), so that every client
// case can be shown to fail against an SDK that has exactly that bug. Data, not code: the
// switches are read where the behaviour lives (sdk.ts). An SDK with no time limit of its own is
// not among them: the harness cannot tell it from a hung adapter (ERROR, not FAIL).

import { faultGuard, faultList } from '../faults/index.ts';

export const REFERENCE_SDK_FAULTS = faultList([
  { name: 'wrong-path', description: 'posts to /api/v1.0/collect, without the trailing slash', specRef: '§4.1' },
  { name: 'no-content-type', description: 'sets no Content-Type header', specRef: '§4' },
  { name: 'form-params', description: 'posts the fields as a form (application/x-www-form-urlencoded, as Guzzle\'s form_params does), signed over their pairs as ever', specRef: '§4, §4.1' },
  { name: 'uppercase-hex', description: 'writes the signature in upper-case hex', specRef: '§5.1 step 5, §5.2' },
  { name: 'client-id-as-key', description: 'puts the client id where the client key goes: Authorization: HMAC 2:{signature}', specRef: '§5.2' },
  { name: 'client-key-as-secret', description: 'keys the HMAC with the client key instead of the secret key (the two credentials swapped)', specRef: '§5.1 step 4' },
  { name: 'secret-sent', description: 'sends the secret key in an X-Secret-Key header ("for debugging")', specRef: '§2.2, §5.5' },
  { name: 'amount-as-number', description: 'converts the amount string to a number (Number("15.0") is sent as 15), signed as sent', specRef: '§2.1' },
  { name: 'amount-through-float', description: 'passes the amount string through a number and back ("15.00" is sent as the string "15"), signed as sent', specRef: '§2.1' },
  { name: 'customer-number-as-integer', description: 'sends customer_number as a number, so its leading zeros are lost', specRef: '§2.1' },
  { name: 'client-id-as-string', description: 'sends client_id as a JSON string ("2")', specRef: '§2.1' },
  { name: 'transaction-id-camel-case', description: 'sends (and signs) transaction_id under the key transactionId, the name of its own model\'s property', specRef: '§2.1' },
  { name: 'body-order-signature', description: 'signs the pairs in the order the body has them (the caller\'s order), not sorted', specRef: '§5.1 step 2' },
  { name: 'locale-order-signature', description: 'sorts the keys with localeCompare (Reference after amount), not by code point', specRef: '§5.1 step 2' },
  { name: 'encode-uri-callback-signed', description: 'signs callback_url through encodeURI (%, non-ASCII encoded), sends it literally', specRef: '§5.1 step 3' },
  { name: 'encoded-callback-sent', description: 'sends callback_url through encodeURIComponent (and signs what it sent)', specRef: '§2.1, §5.1 step 3' },
  { name: 'float-text-sent', description: 'writes whole numbers the caller passed as floats (15.0) but signs them as String(x) (15): the encoder and the signer print numbers differently', specRef: '§5.1 step 3, §5.2' },
  { name: 'php-float-signed', description: 'signs numbers as PHP prints floats (14 significant digits: 3.3000000000000003 as 3.3) but sends them in full', specRef: '§5.1 step 3, §5.2' },
  { name: 'extra-fields-unsigned', description: 'sends the caller\'s extra fields but signs only the six fields of §2.1', specRef: '§5.1 step 1' },
  { name: 'collect-put', description: 'sends the collect call with PUT ("it creates a transaction") to the right path', specRef: '§4.1' },
  { name: 'content-type-twice', description: 'sends Content-Type: application/json twice (a default header of its HTTP client, and its own)', specRef: '§4' },
  { name: 'content-type-text-plain', description: 'sends its JSON body as text/plain;charset=UTF-8 (what fetch gives a string body with no type set)', specRef: '§4' },
  { name: 'authorization-twice', description: 'sends the Authorization header twice (appended to a header list that already held it)', specRef: '§5.2' },
  { name: 'authorization-scheme-twice', description: 'writes the scheme twice: Authorization: HMAC HMAC {client_key}:{signature} (its caller\'s format string and its own)', specRef: '§5.2' },
  { name: 'authorization-extra-member', description: 'appends a timestamp to the header, HMAC {client_key}:{signature}:{unix time}, as other HMAC schemes do', specRef: '§5.2' },
  { name: 'signature-base64', description: 'encodes the HMAC in base64, not hex (what many HMAC helpers give by default)', specRef: '§5.1 step 5, §5.2' },
  { name: 'signature-prefixed', description: 'prefixes the hex signature with its algorithm: HMAC {client_key}:sha256={hex}, as webhook signatures are', specRef: '§5.1 step 5, §5.2' },
  { name: 'signature-sha512', description: 'computes HMAC-SHA512 (128 hex digits) over the right message, not HMAC-SHA256', specRef: '§5.1 step 4' },
  { name: 'own-transaction-id', description: 'sends (and signs) a transaction_id of its own (a UUID it generates), not the one its caller gave', specRef: '§2.1, §4.1' },
  { name: 'network-code-lower-case', description: 'normalises network_code to lower case ("MTN" is sent as "mtn"), signed as sent', specRef: '§2.1' },
  { name: 'network-code-unknown-null', description: 'looks network_code up in its own table of networks, which lacks the code given, and sends null, signed as sent', specRef: '§2.1' },
  { name: 'fields-pascal-case', description: 'sends (and signs) every field under its model\'s PascalCase property name (Amount, CallbackUrl, …), as .NET\'s serializer does by default', specRef: '§2.1, §4.1' },
  { name: 'customer-number-international', description: 'rewrites customer_number in international form ("0244000001" is sent as "233244000001"), signed as sent', specRef: '§2.1' },
  { name: 'client-id-as-float', description: 'sends client_id as a float (2.0, a number read from a JSON config in a language that keeps floats), signed as sent', specRef: '§2.1' },
  { name: 'status-only-answer', description: 'reads a 2xx answer as accepted whatever its body says (success: false, error_code)', specRef: '§4.1, §7 (interpretive)' },
  { name: 'error-code-ignored', description: 'reads success: false as rejected, but not a 2xx carrying an error_code', specRef: '§4.1, §7 (interpretive)' },
  { name: 'body-only-answer', description: 'reads only the body: a 4xx without success: false or an error_code is accepted', specRef: '§7' },
  { name: 'server-error-accepted', description: 'reads a 5xx as accepted ("the service will process it")', specRef: '§7' },
  { name: 'timeout-accepted', description: 'reads its own time-out as accepted ("sent; the callback will tell")', specRef: '§4.1' },
  { name: 'success-string-compare', description: 'compares success with the string "true", so every answer reads as rejected', specRef: '§4.1 (interpretive)' },
  // The status query (§4.2; its shape is the suite's position, docs/status.md).
  { name: 'status-get-query', description: 'queries the status with GET, transaction_id and client_id in the query string (signed over the pairs), no body', specRef: '§4.2 (the suite\'s position)' },
  { name: 'status-wrong-path', description: 'queries /api/v1.0/transaction-status/ (a hyphen for the underscore)', specRef: '§4.2 (the suite\'s position)' },
  { name: 'status-unsigned', description: 'sends the status query without an Authorization header ("it only reads")', specRef: '§4, §5.2' },
  { name: 'status-client-id-string', description: 'sends client_id in the status query as a JSON string ("2"), signed as sent', specRef: '§2.1, §4.2' },
  { name: 'status-signs-id-only', description: 'signs the status query over transaction_id alone, not every field of its body', specRef: '§5.1 step 1' },
  { name: 'status-id-camel-case', description: 'sends (and signs) the status query\'s id under the key transactionId, its model\'s property name', specRef: '§4.2 (the suite\'s position)' },
  { name: 'status-id-as-integer', description: 'parses the transaction id as an integer (a model typed for numeric order ids): "cc-…" is sent as null, signed as sent', specRef: '§2.1, §4.2' },
  { name: 'status-no-content-type', description: 'posts the status query\'s JSON body with no Content-Type (a second HTTP helper beside collect\'s)', specRef: '§4' },
  { name: 'status-client-id-as-key', description: 'puts the client id where the client key goes in the status query\'s Authorization (HMAC 2:{signature})', specRef: '§5.2' },
  { name: 'status-get-body-signed', description: 'queries with GET, the pairs in the query, but signs the body it sends (none: the signature over "")', specRef: '§4.2 (the suite\'s position), §5.1' },
  { name: 'status-form-params', description: 'posts the status query as a form (application/x-www-form-urlencoded, Guzzle\'s form_params), signed over its pairs as ever', specRef: '§4, §4.2' },
  { name: 'status-from-cache', description: 'answers a status query from its own cache, without asking the service: PENDING, the last status it saw', specRef: '§4.2, §6 rule 5' },
  { name: 'status-success-only', description: 'reads only "success" of a status answer: every 2xx with success: true is reported SUCCESS, PENDING and FAILED included', specRef: '§4.2, §6 rule 5' },
  { name: 'status-successful-spelling', description: 'recognises the outcome only as "SUCCESSFUL" (a sibling API\'s spelling), so a SUCCESS answer is reported FAILED', specRef: '§3, §4.2' },
  { name: 'status-success-throws', description: 'throws on a SUCCESS answer (its enum of statuses knows SUCCESSFUL, a sibling API\'s spelling, and raises on anything else); PENDING and FAILED are reported', specRef: '§3, §4.2' },
  { name: 'status-not-found-as-failed', description: 'reports a 404 (an id the service does not know) as status FAILED', specRef: '§4.2, §7' },
  { name: 'status-error-as-pending', description: 'reports a 5xx or a refusal of the status query as status PENDING ("try again later")', specRef: '§4.2, §7' },
  { name: 'status-not-implemented', description: 'has no status call: its adapter says so in its hello (supports collect only), so it is sent no status request (the client.status cases are SKIP, not ERROR)', specRef: '§4.2' },
  // The line protocol's version, and the letter case of the status values (positions: status.answer-values).
  { name: 'protocol-1', description: 'its adapter predates the hello (protocol 1): it answers the hello with an error, as a request it cannot read, and is sent collect requests only', specRef: 'harness/sdk/README.md' },
  { name: 'status-upper-case-only', description: 'compares the status with upper-case values only (PENDING, SUCCESS, FAILED): a lower-case answer is unreadable to it (it throws)', specRef: '§4.2 (the suite\'s position)' },
  { name: 'status-lower-case-only', description: 'compares the status with lower-case values only (pending, success, failed), as the real status client deployed in Ghana does: an upper-case answer is unreadable to it (it throws)', specRef: '§4.2 (the suite\'s position)' },
  { name: 'status-lower-case-compare', description: 'compares the status with success and failed in lower case and reports anything else PENDING ("not yet"), as an earlier version of the real client deployed in Ghana did: an upper-case SUCCESS or FAILED is reported PENDING', specRef: '§4.2 (the suite\'s position)' },
]);

export type ReferenceSdkFault = (typeof REFERENCE_SDK_FAULTS)[number]['name'];

export const isReferenceSdkFault = faultGuard(REFERENCE_SDK_FAULTS);
