// Fault switches of the reference SDK: each one is a single, realistic deviation of an SDK's
// collect call (what it sends, what it signs, how it reads the answer), so that every client
// case can be shown to fail against an SDK that has exactly that bug. Data, not code: the
// switches are read where the behaviour lives (sdk.ts). An SDK with no time limit of its own is
// not among them: the harness cannot tell it from a hung adapter (ERROR, not FAIL).

export type ReferenceSdkFault =
  | 'wrong-path'
  | 'no-content-type'
  | 'form-params'
  | 'uppercase-hex'
  | 'client-id-as-key'
  | 'client-key-as-secret'
  | 'secret-sent'
  | 'amount-as-number'
  | 'amount-through-float'
  | 'customer-number-as-integer'
  | 'client-id-as-string'
  | 'transaction-id-camel-case'
  | 'body-order-signature'
  | 'locale-order-signature'
  | 'encode-uri-callback-signed'
  | 'encoded-callback-sent'
  | 'float-text-sent'
  | 'php-float-signed'
  | 'extra-fields-unsigned'
  | 'status-only-answer'
  | 'error-code-ignored'
  | 'body-only-answer'
  | 'server-error-accepted'
  | 'timeout-accepted'
  | 'success-string-compare';

export interface ReferenceSdkFaultInfo {
  name: ReferenceSdkFault;
  description: string;
  specRef: string;
}

export const REFERENCE_SDK_FAULTS: readonly ReferenceSdkFaultInfo[] = Object.freeze([
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
  { name: 'status-only-answer', description: 'reads a 2xx answer as accepted whatever its body says (success: false, error_code)', specRef: '§4.1, §7 (interpretive)' },
  { name: 'error-code-ignored', description: 'reads success: false as rejected, but not a 2xx carrying an error_code', specRef: '§4.1, §7 (interpretive)' },
  { name: 'body-only-answer', description: 'reads only the body: a 4xx without success: false or an error_code is accepted', specRef: '§7' },
  { name: 'server-error-accepted', description: 'reads a 5xx as accepted ("the service will process it")', specRef: '§7' },
  { name: 'timeout-accepted', description: 'reads its own time-out as accepted ("sent; the callback will tell")', specRef: '§4.1' },
  { name: 'success-string-compare', description: 'compares success with the string "true", so every answer reads as rejected', specRef: '§4.1 (interpretive)' },
] satisfies ReferenceSdkFaultInfo[]);

export function isReferenceSdkFault(name: string): name is ReferenceSdkFault {
  return REFERENCE_SDK_FAULTS.some((f) => f.name === name);
}
