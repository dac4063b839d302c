// Input table of vectors/signature.json: one row per test, decided by hand. The generator
// computes pairs, message, signature, header and alternatives from harness/signing.
// tcIds are stable: append new rows with new ids, never renumber or reuse one.
import type { FileHeader, PositionSource, SignatureRow } from '../types.ts';

/** The six fields of §2.1 with `amount` as a decimal string, already in A-to-Z order. */
const SPEC_BODY =
  '{"amount":"15.0","callback_url":"https://merchant.example/payments/callback","client_id":2,' +
  '"customer_number":"0244000001","network_code":"MTN","transaction_id":"TX-2026-0001"}';

/** The body the real service's public documentation shows: `amount` as the JSON number 15.0. */
const DOC_BODY =
  '{"amount": 15.0, "callback_url": "https://merchant.example/payments/callback", "client_id": 2, ' +
  '"customer_number": "0244000001", "network_code": "MTN", "transaction_id": "TX-2026-0001"}';

const REVERSED_BODY =
  '{"transaction_id":"TX-2026-0001","network_code":"MTN","customer_number":"0244000001",' +
  '"client_id":2,"callback_url":"https://merchant.example/payments/callback","amount":"15.0"}';

const PRETTY_BODY =
  '{\n  "network_code" : "MTN",\n\t"amount":\t"15.0" ,\r\n  "transaction_id":"TX-2026-0001",\n' +
  '  "client_id" :2,\n  "customer_number": "0244000001",\n' +
  '  "callback_url": "https://merchant.example/payments/callback"\n}\n';

/** SPEC_BODY with one value changed (for tamper rows: the presented signature is SPEC_BODY's). */
function changed(from: string, to: string): string {
  if (!SPEC_BODY.includes(from)) throw new Error(`table error: ${from} not in SPEC_BODY`);
  return SPEC_BODY.replace(from, to);
}

export const SIGNATURE_HEADER: FileHeader = {
  algorithm: 'HMAC-SHA256 over the canonical message of a JSON body (k1=v1&k2=v2, keys sorted)',
  schema: 'signature.schema.json',
  // 1.1.0: tests 105-122, a `source` per test and `sources`, language-labelled alternatives.
  // 1.2.0: tests 123-125 and the alternative js-object-key-order (a JavaScript object's key order).
  version: '1.2.0',
  specRef: '§5.1, §5.2',
  header: [
    'Each test gives a raw JSON body (the bytes sent) and every signing stage the suite computes:',
    'pairs (keys in code-point order, values as their text stands in the body), message, signature',
    '(lower-case hex HMAC-SHA256 with `secret` as key) and the Authorization header.',
    'valid: the spec states the result. invalid: `presentedSignature` must be refused.',
    'acceptable: the spec is silent; `alternatives` lists what other signers produce, by label.',
    'The secret and client key are test values, not credentials.',
  ],
  notes: {
    SpecExample: { bugType: 'BASIC', description: 'The body of the public documentation: amount as the JSON number 15.0, signed as amount=15.0.', effect: 'A signer that re-prints numbers signs amount=15 and is refused by the service.' },
    SpecFields: { bugType: 'BASIC', description: 'The six fields of §2.1, keys sorted A to Z and joined as k=v with &.', effect: 'A signer that fails here cannot call the collect operation at all.' },
    ReorderedBody: { bugType: 'BASIC', description: 'The body lists its keys in another order; the message and signature are unchanged.', effect: 'A signer or verifier that signs in body order rejects a correctly signed request.' },
    Whitespace: { bugType: 'BASIC', description: 'Whitespace between JSON tokens is not part of any value.', effect: 'A signer that hashes the body text, or keeps the spaces, signs a different message.' },
    KeyOrderCase: { bugType: 'BASIC', description: 'Upper- and lower-case ASCII keys: ascending order is byte order, which every default string sort gives (Z before a).', effect: 'A locale-aware sort (localeCompare, ICU) puts amount before Zeta and produces another message.' },
    KeyOrderPunctuation: { bugType: 'BASIC', description: 'ASCII keys that differ at _, -, . or a letter: byte order puts N before _ before a.', effect: 'localeCompare or ICU collation orders customer_number before customerName.' },
    KeyOrderPrefix: { bugType: 'BASIC', description: 'A key that is a prefix of another sorts first (amount before amount_x).', effect: 'A comparison that stops at the shorter key signs the pairs in the wrong order.' },
    KeyOrderDigits: { bugType: 'BASIC', description: 'Digits in ASCII keys sort by byte (a1, a10, a2), not numerically.', effect: 'A natural-order sort produces another message.' },
    NonAsciiKey: { bugType: 'INTERPRETIVE', description: 'Keys outside ASCII sort by code point (z before é).', effect: 'A locale-aware sort puts é next to e.' },
    AstralKey: { bugType: 'INTERPRETIVE', description: 'A key above U+FFFF sorts after U+FB01 by code point, before it by UTF-16 unit.', effect: 'JavaScript\'s default sort (UTF-16 units) orders such keys differently from UTF-8 byte order.' },
    LiteralValue: { bugType: 'BASIC', description: 'Values are plain text, never URL-encoded: ? & = % # + and spaces stay as they are.', effect: 'A signer that percent-encodes values (encodeURIComponent, urlencode) is refused.' },
    NonAsciiValue: { bugType: 'EDGE_CASE', description: 'Non-ASCII text is signed as its UTF-8 bytes, unencoded.', effect: 'A signer that escapes or re-encodes the text signs another message.' },
    StringEscapes: { bugType: 'EDGE_CASE', description: 'JSON escapes (\\" \\\\ \\/ \\n \\u00e9, surrogate pairs) are decoded: the value is the string, not its JSON spelling.', effect: 'A signer that signs the escaped spelling differs from one that signs the string.' },
    IntegerNumber: { bugType: 'BASIC', description: 'A JSON integer is written as it stands (a number 2 becomes 2).', effect: 'A signer that writes 2.0 or quotes the number signs another message.' },
    NumberAsWritten: { bugType: 'BASIC', description: 'A JSON number is written exactly as it stands in the body (15.0 stays 15.0).', effect: 'A float printer writes 15; the service signs 15.0 and refuses the request.' },
    ReformattedNumber: { bugType: 'INTERPRETIVE', description: 'A number a float printer would rewrite (0.10, 1e3, -0, big integers): the suite keeps its text.', effect: 'Signers that parse numbers into floats sign the printed form (alternative float-printer).' },
    DecimalString: { bugType: 'BASIC', description: 'A decimal string is text: "100.10" stays 100.10 (§5.1: a string 15.0 stays 15.0).', effect: 'A signer that re-parses amounts as floats signs 100.1 and is refused.' },
    LeadingZeros: { bugType: 'BASIC', description: 'customer_number digits are text, leading zeros kept (§2.1).', effect: 'A signer that treats the number as an integer drops the zeros.' },
    EmptyString: { bugType: 'INTERPRETIVE', description: 'An empty string is signed as key= (the suite keeps the pair).', effect: 'Signers that drop empty values sign a shorter message.' },
    NullValue: { bugType: 'INTERPRETIVE', description: 'null is signed as key=null, its text in the body.', effect: 'Signers leave the key out, write key=, or write None.' },
    BooleanValue: { bugType: 'INTERPRETIVE', description: 'true and false are signed as their text in the body.', effect: 'PHP writes 1 and an empty string; Python writes True and False.' },
    NestedObject: { bugType: 'INTERPRETIVE', description: 'An object value is signed as its raw JSON text, whitespace included.', effect: 'Signers write compact JSON, Array, [object Object] or a[b]=1 pairs.' },
    ArrayValue: { bugType: 'INTERPRETIVE', description: 'An array value is signed as its raw JSON text, whitespace included.', effect: 'Signers write compact JSON, Array, 1,2,3 or a[0]=1 pairs.' },
    DuplicateKey: { bugType: 'INTERPRETIVE', description: 'A key that stands twice: the last value wins, as in most JSON parsers.', effect: 'Parsers that keep the first value, or both, sign another message.' },
    EmptyKey: { bugType: 'INTERPRETIVE', description: 'The empty key is a key like any other and sorts first (=value).', effect: 'A signer that drops it signs a shorter message.' },
    EmptyBody: { bugType: 'INTERPRETIVE', description: 'An empty object has no pairs; the message is the empty string.', effect: 'A signer may refuse the body; refusing is fine.' },
    ChangedValue: { bugType: 'MODIFIED_BODY', description: 'One value of the body changed after signing (§5.2: any differing parameter).', effect: 'A verifier that skips the field accepts a forged request.' },
    DroppedField: { bugType: 'MODIFIED_BODY', description: 'A field was removed from the body after signing.', effect: 'A verifier that signs only the fields it knows accepts a forged request.' },
    AddedField: { bugType: 'MODIFIED_BODY', description: 'A field was added to the body after signing.', effect: 'A verifier that signs only the six fields accepts a forged request.' },
    WrongSecret: { bugType: 'MODIFIED_SIGNATURE', description: 'The signature is right for the message but made with another secret.', effect: 'A verifier that does not check the signature accepts anyone.' },
    UpperCaseHex: { bugType: 'MODIFIED_SIGNATURE', description: 'The right signature written in upper-case hex; §5.1 hex is lower-case.', effect: 'A case-insensitive comparison accepts it.' },
    TruncatedSignature: { bugType: 'MODIFIED_SIGNATURE', description: 'A prefix of the right signature.', effect: 'A prefix comparison (startsWith, strncmp) accepts it.' },
    FlippedSignature: { bugType: 'MODIFIED_SIGNATURE', description: 'The right signature with its last hex digit changed.', effect: 'A comparison of only part of the signature accepts it.' },
    OtherBody: { bugType: 'MODIFIED_SIGNATURE', description: 'The signature of another, unrelated body.', effect: 'A verifier that does not bind the signature to the body accepts a replay.' },
    WrongCanonicalisation: { bugType: 'MODIFIED_SIGNATURE', description: 'The signature a signer following a wrong rendering presents, where §5.1 states the rule.', effect: 'A verifier with the same bug accepts it; the service refuses it.' },
    IntegerLikeKey: { bugType: 'EDGE_CASE', description: 'Keys made of digits ("10", "9") sort as text by code point: 10 before 9.', effect: 'PHP arrays make them integers: ksort() puts 9 before 10, and array_merge() renumbers them from 0. A JavaScript object lists them first, 9 before 10.' },
    NegativeIntegerKey: { bugType: 'EDGE_CASE', description: 'Keys such as "-1" and "-2" sort as text by code point: -1 before -2, and before any digit key.', effect: 'PHP makes them integers too (ksort() puts -2 before -1 before 9); a JavaScript object does not (they follow its array-index keys, 9 before -1).' },
    LongFloat: { bugType: 'INTERPRETIVE', description: 'A JSON number with 15 or more significant digits (3.3000000000000003, 3.14159265358979): the suite keeps its text.', effect: 'PHP string conversion prints 14 significant digits (3.3, 3.1415926535898); other float printers keep 17.' },
    DottedKey: { bugType: 'BASIC', description: 'A key with a dot is a key: `a` and `a.b` are two pairs.', effect: 'Libraries that treat a.b as a path (lodash _.set, dot-object) keep only one of them.' },
    PrototypeKey: { bugType: 'BASIC', description: 'Keys named __proto__, constructor or toString are ordinary keys.', effect: 'JavaScript code that copies fields with obj[key] = value loses __proto__; code that tests key in obj skips constructor.' },
    KeyWithSpace: { bugType: 'BASIC', description: 'A key with a space is signed as it stands, unencoded.', effect: 'http_build_query() writes first+name; a form encoder writes first%20name.' },
    LanguageRendering: { bugType: 'INTERPRETIVE', description: 'A body whose numbers, booleans, null and nested values each language prints differently, so that the vectors tell every labelled alternative apart.', effect: 'PHP writes 1000, 1, empty and Array; Python 1000.0, True, None and a dict repr; Ruby 1000.0, true, empty and {"k"=>"v"}.' },
    NonInjective: { bugType: 'PROPERTY', description: 'Two different bodies give the same message: the canonical form is not injective.', effect: 'A signature covers the message, not the body: verify the raw body bytes, never a body rebuilt from pairs.' },
  },
};

export const SIGNATURE_ROWS: SignatureRow[] = [
  // --- the documented body and the six fields (valid) ---
  { tcId: 1, comment: 'documented body: the JSON number 15.0 is signed as 15.0', flags: ['SpecExample', 'NumberAsWritten'], specRef: '§5.1 step 3', body: DOC_BODY, result: 'valid' },
  { tcId: 2, comment: 'six spec fields, amount as a string, keys sorted', flags: ['SpecFields', 'DecimalString', 'LeadingZeros'], specRef: '§5.1', body: SPEC_BODY, result: 'valid' },
  { tcId: 3, comment: 'six spec fields in reverse order verify unchanged', flags: ['ReorderedBody', 'SpecFields'], specRef: '§5.1 step 2', body: REVERSED_BODY, result: 'valid' },
  { tcId: 4, comment: 'pretty-printed body with tabs and CRLF verifies unchanged', flags: ['Whitespace', 'ReorderedBody'], specRef: '§5.1', body: PRETTY_BODY, result: 'valid' },
  { tcId: 5, comment: 'one pair, no separator', flags: ['SpecFields'], specRef: '§5.1 step 3', body: '{"amount":"1.00"}', result: 'valid' },
  { tcId: 6, comment: 'two lower-case keys in reverse order are sorted', flags: ['ReorderedBody'], specRef: '§5.1 step 2', body: '{"network_code":"VODAFONE","amount":"5"}', result: 'valid' },

  // --- key order ---
  { tcId: 7, comment: 'Zeta sorts before amount (code point Z < a)', flags: ['KeyOrderCase'], specRef: '§5.1 step 2', body: '{"amount":"1","Zeta":"z"}', result: 'valid' },
  { tcId: 8, comment: 'customerName sorts before customer_number (N < _)', flags: ['KeyOrderPunctuation'], specRef: '§5.1 step 2', body: '{"customer_number":"0244000001","customerName":"Ama"}', result: 'valid' },
  { tcId: 9, comment: 'A B a b: upper case first', flags: ['KeyOrderCase'], specRef: '§5.1 step 2', body: '{"b":"1","a":"2","B":"3","A":"4"}', result: 'valid' },
  { tcId: 10, comment: 'Id, _id, id: upper case, then _, then lower case', flags: ['KeyOrderCase', 'KeyOrderPunctuation'], specRef: '§5.1 step 2', body: '{"id":"1","_id":"2","Id":"3"}', result: 'valid' },
  { tcId: 11, comment: 'amount, amount_x, amounts, amountx: prefix first', flags: ['KeyOrderPrefix'], specRef: '§5.1 step 2', body: '{"amountx":"4","amounts":"3","amount_x":"2","amount":"1"}', result: 'valid' },
  { tcId: 12, comment: 'amountX sorts before amount_x (X < _)', flags: ['KeyOrderPrefix', 'KeyOrderCase'], specRef: '§5.1 step 2', body: '{"amount_x":"1","amountX":"2","amount":"3"}', result: 'valid' },
  { tcId: 13, comment: 'a-b, a.b, a_b, aB, ab in code-point order', flags: ['KeyOrderPunctuation'], specRef: '§5.1 step 2', body: '{"ab":"1","aB":"2","a_b":"3","a.b":"4","a-b":"5"}', result: 'valid' },
  { tcId: 14, comment: 'a1, a10, a2: digits by code point, not numerically', flags: ['KeyOrderDigits'], specRef: '§5.1 step 2', body: '{"a2":"x","a10":"y","a1":"z"}', result: 'valid' },
  { tcId: 15, comment: 'e, z, é: é (U+00E9) sorts after z', flags: ['NonAsciiKey'], specRef: '§5.1 step 2', body: '{"é":"1","z":"2","e":"3"}', result: 'acceptable' },
  { tcId: 16, comment: 'U+FB01 sorts before U+1F600 by code point', flags: ['AstralKey'], specRef: '§5.1 step 2', body: '{"\u{1F600}":"1","\uFB01":"2"}', result: 'acceptable' },
  { tcId: 17, comment: 'Key and key differ only in case', flags: ['KeyOrderCase'], specRef: '§5.1 step 2', body: '{"key":"lower","Key":"upper"}', result: 'valid' },
  { tcId: 18, comment: 'six spec fields plus customerName and Zeta', flags: ['KeyOrderCase', 'KeyOrderPunctuation', 'SpecFields'], specRef: '§5.1 step 2', body: SPEC_BODY.replace('{', '{"customerName":"Kofi","Zeta":"1",'), result: 'valid' },

  // --- literal values (never URL-encoded) ---
  { tcId: 19, comment: 'callback_url with ?, & and = stays literal', flags: ['LiteralValue'], specRef: '§5.1 step 3', body: '{"callback_url":"https://merchant.example/cb?order=17&sig=a=b","client_id":2}', result: 'valid' },
  { tcId: 20, comment: 'percent sequences in a URL are not decoded', flags: ['LiteralValue'], specRef: '§5.1 step 3', body: '{"callback_url":"https://merchant.example/a%20b/c%2Fd?q=%41"}', result: 'valid' },
  { tcId: 21, comment: 'a fragment in a URL stays literal', flags: ['LiteralValue'], specRef: '§5.1 step 3', body: '{"callback_url":"https://merchant.example/cb#done"}', result: 'valid' },
  { tcId: 22, comment: 'spaces in a URL stay spaces', flags: ['LiteralValue'], specRef: '§5.1 step 3', body: '{"callback_url":"https://merchant.example/pay back/cb?x=a b"}', result: 'valid' },
  { tcId: 23, comment: 'non-ASCII URL stays literal UTF-8', flags: ['LiteralValue', 'NonAsciiValue'], specRef: '§5.1 step 3', body: '{"callback_url":"https://café.example/reçu?nom=Adjoa Ɔkyere"}', result: 'valid' },
  { tcId: 24, comment: 'a value holding a=b&c=d stays literal', flags: ['LiteralValue'], specRef: '§5.1 step 3', body: '{"note":"a=b&c=d","amount":"2"}', result: 'valid' },
  { tcId: 25, comment: 'a plus sign stays a plus sign', flags: ['LiteralValue'], specRef: '§5.1 step 3', body: '{"customer_number":"+233244000001"}', result: 'valid' },
  { tcId: 26, comment: 'a lone percent sign stays literal', flags: ['LiteralValue'], specRef: '§5.1 step 3', body: '{"note":"100% paid"}', result: 'valid' },
  { tcId: 27, comment: 'leading and trailing spaces in a value are kept', flags: ['LiteralValue'], specRef: '§5.1 step 3', body: '{"network_code":" MTN "}', result: 'valid' },
  { tcId: 28, comment: 'URL with every reserved character stays literal', flags: ['LiteralValue'], specRef: '§5.1 step 3', body: '{"callback_url":"https://u:p@merchant.example:8443/cb;v=1?a=[1]&b=$,!\'()*+~#f"}', result: 'valid' },

  // --- JSON escapes and non-ASCII text ---
  { tcId: 29, comment: 'escaped quote and backslash are decoded', flags: ['StringEscapes'], specRef: '§5.1 step 3', body: String.raw`{"note":"say \"hi\" \\ bye"}`, result: 'valid' },
  { tcId: 30, comment: 'escaped slashes in a URL are decoded', flags: ['StringEscapes', 'LiteralValue'], specRef: '§5.1 step 3', body: String.raw`{"callback_url":"https:\/\/merchant.example\/cb"}`, result: 'valid' },
  { tcId: 31, comment: '\\u00e9 escape signs the same as a raw é', flags: ['StringEscapes', 'NonAsciiValue'], specRef: '§5.1 step 3', body: String.raw`{"name":"Ad\u00e9la"}`, result: 'valid' },
  { tcId: 32, comment: 'raw é in the body', flags: ['NonAsciiValue'], specRef: '§5.1 step 3', body: '{"name":"Adéla"}', result: 'valid' },
  { tcId: 33, comment: 'emoji written raw', flags: ['NonAsciiValue'], specRef: '§5.1 step 3', body: '{"note":"paid \u{1F600}"}', result: 'valid' },
  { tcId: 34, comment: 'emoji as a surrogate-pair escape signs as raw', flags: ['StringEscapes', 'NonAsciiValue'], specRef: '§5.1 step 3', body: String.raw`{"note":"paid \ud83d\ude00"}`, result: 'valid' },
  { tcId: 35, comment: 'escaped newline and tab become the characters', flags: ['StringEscapes'], specRef: '§5.1 step 3', body: String.raw`{"note":"line1\nline2\tend"}`, result: 'valid' },
  { tcId: 36, comment: 'Twi and Ewe letters ɛ ɔ ŋ signed as UTF-8', flags: ['NonAsciiValue'], specRef: '§5.1 step 3', body: '{"customer_name":"Ɛsi Ɔpoku Ŋkrumah"}', result: 'valid' },

  // --- numbers ---
  { tcId: 37, comment: 'the number 2 becomes 2', flags: ['IntegerNumber'], specRef: '§5.1 step 3', body: '{"client_id":2}', result: 'valid' },
  { tcId: 38, comment: 'the number 15.0 stays 15.0', flags: ['NumberAsWritten'], specRef: '§5.1 step 3', body: '{"amount":15.0}', result: 'valid' },
  { tcId: 39, comment: 'the number 0', flags: ['IntegerNumber'], specRef: '§5.1 step 3', body: '{"client_id":0}', result: 'valid' },
  { tcId: 40, comment: 'a negative integer', flags: ['IntegerNumber'], specRef: '§5.1 step 3', body: '{"offset":-5}', result: 'valid' },
  { tcId: 41, comment: 'the number 0.10 keeps its trailing zero', flags: ['ReformattedNumber'], specRef: '§5.1 step 3', body: '{"amount":0.10}', result: 'acceptable' },
  { tcId: 42, comment: 'the number 100.10 keeps its trailing zero', flags: ['ReformattedNumber'], specRef: '§5.1 step 3', body: '{"amount":100.10}', result: 'acceptable' },
  { tcId: 43, comment: 'the number 1e3 stays 1e3', flags: ['ReformattedNumber'], specRef: '§5.1 step 3', body: '{"amount":1e3}', result: 'acceptable' },
  { tcId: 44, comment: 'the number 1E+2 stays 1E+2', flags: ['ReformattedNumber'], specRef: '§5.1 step 3', body: '{"amount":1E+2}', result: 'acceptable' },
  { tcId: 45, comment: 'the number -0 stays -0', flags: ['ReformattedNumber'], specRef: '§5.1 step 3', body: '{"offset":-0}', result: 'acceptable' },
  { tcId: 46, comment: 'a 20-digit integer keeps every digit', flags: ['ReformattedNumber'], specRef: '§5.1 step 3', body: '{"reference":12345678901234567890}', result: 'acceptable' },
  { tcId: 47, comment: '2^53+1 keeps its last digit', flags: ['ReformattedNumber'], specRef: '§5.1 step 3', body: '{"reference":9007199254740993}', result: 'acceptable' },
  { tcId: 48, comment: 'the number 2.50E-3 stays 2.50E-3', flags: ['ReformattedNumber'], specRef: '§5.1 step 3', body: '{"rate":2.50E-3}', result: 'acceptable' },
  { tcId: 49, comment: 'the number 1.0 next to the string "1.0"', flags: ['NumberAsWritten', 'DecimalString'], specRef: '§5.1 step 3', body: '{"a":1.0,"b":"1.0"}', result: 'valid' },

  // --- decimal strings and leading zeros ---
  { tcId: 50, comment: 'the string "15.0" stays 15.0', flags: ['DecimalString'], specRef: '§5.1 step 3', body: '{"amount":"15.0"}', result: 'valid' },
  { tcId: 51, comment: 'the string "0.10" stays 0.10', flags: ['DecimalString'], specRef: '§5.1 step 3', body: '{"amount":"0.10"}', result: 'valid' },
  { tcId: 52, comment: 'the string "100.10" stays 100.10', flags: ['DecimalString'], specRef: '§5.1 step 3', body: '{"amount":"100.10"}', result: 'valid' },
  { tcId: 53, comment: 'the string "15.00" stays 15.00', flags: ['DecimalString'], specRef: '§5.1 step 3', body: '{"amount":"15.00"}', result: 'valid' },
  { tcId: 54, comment: 'the string "1e3" stays 1e3', flags: ['DecimalString'], specRef: '§5.1 step 3', body: '{"amount":"1e3"}', result: 'valid' },
  { tcId: 55, comment: 'the string "15" stays 15', flags: ['DecimalString'], specRef: '§5.1 step 3', body: '{"amount":"15"}', result: 'valid' },
  { tcId: 56, comment: 'the string "-0.50" stays -0.50', flags: ['DecimalString'], specRef: '§5.1 step 3', body: '{"adjustment":"-0.50"}', result: 'valid' },
  { tcId: 57, comment: 'customer_number keeps its leading zero', flags: ['LeadingZeros'], specRef: '§2.1, §5.1 step 3', body: '{"customer_number":"0244000001"}', result: 'valid' },
  { tcId: 58, comment: 'bank account number of zeros and digits', flags: ['LeadingZeros'], specRef: '§2.1, §5.1 step 3', body: '{"customer_number":"000123400"}', result: 'valid' },
  { tcId: 59, comment: 'customer_number "00" stays 00', flags: ['LeadingZeros'], specRef: '§2.1, §5.1 step 3', body: '{"customer_number":"00"}', result: 'valid' },

  // --- empty, null, booleans, nested, arrays, duplicates (interpretive) ---
  { tcId: 60, comment: 'an empty string is signed as key=', flags: ['EmptyString'], specRef: '§5.1 (not shown)', body: '{"amount":"1","note":""}', result: 'acceptable' },
  { tcId: 61, comment: 'an empty string between spec fields', flags: ['EmptyString', 'SpecFields'], specRef: '§5.1 (not shown)', body: SPEC_BODY.replace('"MTN"', '""'), result: 'acceptable' },
  { tcId: 62, comment: 'null is signed as key=null', flags: ['NullValue'], specRef: '§5.1 (not shown)', body: '{"amount":"1","note":null}', result: 'acceptable' },
  { tcId: 63, comment: 'null as the first key', flags: ['NullValue'], specRef: '§5.1 (not shown)', body: '{"a":null,"b":"2"}', result: 'acceptable' },
  { tcId: 64, comment: 'true is signed as true', flags: ['BooleanValue'], specRef: '§5.1 (not shown)', body: '{"amount":"1","save_card":true}', result: 'acceptable' },
  { tcId: 65, comment: 'false is signed as false', flags: ['BooleanValue'], specRef: '§5.1 (not shown)', body: '{"amount":"1","save_card":false}', result: 'acceptable' },
  { tcId: 66, comment: 'a nested object is signed as its JSON text', flags: ['NestedObject'], specRef: '§5.1 (not shown)', body: '{"amount":"1","meta":{"order":"17","paid":true}}', result: 'acceptable' },
  { tcId: 67, comment: 'a nested object keeps its inner whitespace and order', flags: ['NestedObject', 'Whitespace'], specRef: '§5.1 (not shown)', body: '{"meta": { "z" : 1, "a" : [ 2 ] }}', result: 'acceptable' },
  { tcId: 68, comment: 'an array of numbers is signed as its JSON text', flags: ['ArrayValue'], specRef: '§5.1 (not shown)', body: '{"items":[1,2,3]}', result: 'acceptable' },
  { tcId: 69, comment: 'an array of strings is signed as its JSON text', flags: ['ArrayValue'], specRef: '§5.1 (not shown)', body: '{"tags":["a","b c"]}', result: 'acceptable' },
  { tcId: 70, comment: 'an empty object and an empty array', flags: ['NestedObject', 'ArrayValue'], specRef: '§5.1 (not shown)', body: '{"o":{},"l":[]}', result: 'acceptable' },
  { tcId: 71, comment: 'an array of objects', flags: ['ArrayValue', 'NestedObject'], specRef: '§5.1 (not shown)', body: '{"lines":[{"sku":"A1","qty":2},{"sku":"B2","qty":1}]}', result: 'acceptable' },
  { tcId: 72, comment: 'a duplicated key keeps its last value', flags: ['DuplicateKey'], specRef: '§5.1 (not shown)', body: '{"amount":"1.00","amount":"9.00"}', result: 'acceptable' },
  { tcId: 73, comment: 'a key three times, other keys between', flags: ['DuplicateKey'], specRef: '§5.1 (not shown)', body: '{"a":"1","b":"x","a":"2","a":"3"}', result: 'acceptable' },
  { tcId: 74, comment: 'a duplicated key changes type: number then string', flags: ['DuplicateKey'], specRef: '§5.1 (not shown)', body: '{"client_id":2,"client_id":"3"}', result: 'acceptable' },
  { tcId: 75, comment: 'the empty key sorts first', flags: ['EmptyKey'], specRef: '§5.1 (not shown)', body: '{"b":"2","":"0"}', result: 'acceptable' },
  { tcId: 76, comment: 'an empty object gives the empty message', flags: ['EmptyBody'], specRef: '§5.1 (not shown)', body: '{}', result: 'acceptable' },

  // --- tampering (invalid): presentedSignature is the signature of SPEC_BODY unless said ---
  { tcId: 77, comment: 'amount changed after signing', flags: ['ChangedValue'], specRef: '§5.2', body: changed('"15.0"', '"16.0"'), tamper: { kind: 'signed-body', body: SPEC_BODY }, result: 'invalid' },
  { tcId: 78, comment: 'callback_url changed after signing', flags: ['ChangedValue'], specRef: '§5.2', body: changed('/payments/callback', '/payments/evil'), tamper: { kind: 'signed-body', body: SPEC_BODY }, result: 'invalid' },
  { tcId: 79, comment: 'client_id changed after signing', flags: ['ChangedValue'], specRef: '§5.2', body: changed('"client_id":2', '"client_id":3'), tamper: { kind: 'signed-body', body: SPEC_BODY }, result: 'invalid' },
  { tcId: 80, comment: 'customer_number changed after signing', flags: ['ChangedValue'], specRef: '§5.2', body: changed('0244000001', '0244000009'), tamper: { kind: 'signed-body', body: SPEC_BODY }, result: 'invalid' },
  { tcId: 81, comment: 'network_code changed after signing', flags: ['ChangedValue'], specRef: '§5.2', body: changed('"MTN"', '"VODAFONE"'), tamper: { kind: 'signed-body', body: SPEC_BODY }, result: 'invalid' },
  { tcId: 82, comment: 'transaction_id changed after signing', flags: ['ChangedValue'], specRef: '§5.2', body: changed('TX-2026-0001', 'TX-2026-0002'), tamper: { kind: 'signed-body', body: SPEC_BODY }, result: 'invalid' },
  { tcId: 83, comment: 'network_code dropped after signing', flags: ['DroppedField'], specRef: '§5.2', body: changed(',"network_code":"MTN"', ''), tamper: { kind: 'signed-body', body: SPEC_BODY }, result: 'invalid' },
  { tcId: 84, comment: 'a field added after signing', flags: ['AddedField'], specRef: '§5.2', body: changed('{', '{"description":"extra",'), tamper: { kind: 'signed-body', body: SPEC_BODY }, result: 'invalid' },
  { tcId: 85, comment: 'signature made with another secret', flags: ['WrongSecret'], specRef: '§5.1 step 4', body: SPEC_BODY, tamper: { kind: 'wrong-secret', secret: 'vector-other-secret-not-a-real-one' }, result: 'invalid' },
  { tcId: 86, comment: 'right signature in upper-case hex', flags: ['UpperCaseHex'], specRef: '§5.1 step 5', body: SPEC_BODY, tamper: { kind: 'upper-case' }, result: 'invalid' },
  { tcId: 87, comment: 'right signature cut to 63 hex digits', flags: ['TruncatedSignature'], specRef: '§5.1 step 5', body: SPEC_BODY, tamper: { kind: 'truncate', length: 63 }, result: 'invalid' },
  { tcId: 88, comment: 'right signature cut to 32 hex digits', flags: ['TruncatedSignature'], specRef: '§5.1 step 5', body: SPEC_BODY, tamper: { kind: 'truncate', length: 32 }, result: 'invalid' },
  { tcId: 89, comment: 'right signature with the last hex digit changed', flags: ['FlippedSignature'], specRef: '§5.1 step 5', body: SPEC_BODY, tamper: { kind: 'flip-last' }, result: 'invalid' },
  { tcId: 90, comment: 'signature of another body', flags: ['OtherBody'], specRef: '§5.2', body: SPEC_BODY, tamper: { kind: 'signed-body', body: '{"amount":"1.00","transaction_id":"TX-OTHER"}' }, result: 'invalid' },
  { tcId: 91, comment: 'signature over the keys in body order', flags: ['WrongCanonicalisation'], specRef: '§5.1 step 2', body: REVERSED_BODY, tamper: { kind: 'alternative', label: 'body-order' }, result: 'invalid' },
  { tcId: 92, comment: 'signature over URL-encoded values', flags: ['WrongCanonicalisation', 'LiteralValue'], specRef: '§5.1 step 3', body: SPEC_BODY, tamper: { kind: 'alternative', label: 'url-encoded-values' }, result: 'invalid' },
  { tcId: 93, comment: 'signature over amount=15 for the string "15.0"', flags: ['WrongCanonicalisation', 'DecimalString'], specRef: '§5.1 step 3', body: SPEC_BODY, tamper: { kind: 'alternative', label: 'decimal-as-float' }, result: 'invalid' },
  { tcId: 94, comment: 'signature over amount=15 for the documented 15.0', flags: ['WrongCanonicalisation', 'SpecExample'], specRef: '§5.1 step 3', body: DOC_BODY, tamper: { kind: 'alternative', label: 'float-printer' }, result: 'invalid' },
  { tcId: 95, comment: 'signature with the leading zero of customer_number lost', flags: ['WrongCanonicalisation', 'LeadingZeros'], specRef: '§2.1, §5.1 step 3', body: '{"customer_number":"0244000001"}', tamper: { kind: 'signed-message', message: 'customer_number=244000001' }, result: 'invalid' },
  { tcId: 96, comment: 'signature over the message with a trailing &', flags: ['WrongCanonicalisation'], specRef: '§5.1 step 3', body: '{"a":"1","b":"2"}', tamper: { kind: 'signed-message', message: 'a=1&b=2&' }, result: 'invalid' },
  { tcId: 97, comment: 'signature over the compact JSON body text', flags: ['WrongCanonicalisation'], specRef: '§5.1', body: '{"a":"1","b":"2"}', tamper: { kind: 'signed-message', message: '{"a":"1","b":"2"}' }, result: 'invalid' },
  { tcId: 98, comment: 'query of callback_url changed after signing', flags: ['ChangedValue', 'LiteralValue'], specRef: '§5.2', body: '{"amount":"1","callback_url":"https://m.example/cb?order=18"}', tamper: { kind: 'signed-body', body: '{"amount":"1","callback_url":"https://m.example/cb?order=17"}' }, result: 'invalid' },

  // --- non-injectivity (valid): pairs of bodies with one message ---
  { tcId: 99, comment: 'a=1&b=2 from one value holding & and =', flags: ['NonInjective', 'LiteralValue'], specRef: '§5.1 step 3', body: '{"a":"1&b=2"}', result: 'valid' },
  { tcId: 100, comment: 'a=1&b=2 from two pairs: same message as tcId 99', flags: ['NonInjective'], specRef: '§5.1 step 3', body: '{"a":"1","b":"2"}', result: 'valid' },
  { tcId: 101, comment: 'a=1=2 from a value holding =', flags: ['NonInjective', 'LiteralValue'], specRef: '§5.1 step 3', body: '{"a":"1=2"}', result: 'valid' },
  { tcId: 102, comment: 'a=1=2 from a key holding =: same as tcId 101', flags: ['NonInjective'], specRef: '§5.1 step 3', body: '{"a=1":"2"}', result: 'valid' },
  { tcId: 103, comment: 'client_id=9 inside callback_url: same as tcId 104', flags: ['NonInjective', 'LiteralValue'], specRef: '§5.1 step 3', body: '{"callback_url":"https://m.example/cb?x=1&client_id=9"}', result: 'valid' },
  { tcId: 104, comment: 'client_id=9 as its own pair: same as tcId 103', flags: ['NonInjective', 'IntegerNumber'], specRef: '§5.1 step 3', body: '{"callback_url":"https://m.example/cb?x=1","client_id":9}', result: 'valid' },
  // --- inputs that break real clients, and vectors that tell the labelled alternatives apart (appended) ---
  { tcId: 105, comment: 'digit keys 10 and 9: 10 sorts first by code point', flags: ['IntegerLikeKey'], specRef: '§5.1 step 2', body: '{"10":"ten","9":"nine"}', result: 'valid', source: 'spec' },
  { tcId: 106, comment: 'digit keys among letters: 10, 9, a, b', flags: ['IntegerLikeKey'], specRef: '§5.1 step 2', body: '{"b":"1","9":"y","a":"2","10":"x"}', result: 'valid', source: 'spec' },
  { tcId: 107, comment: 'the float 1.1*3 as JSON prints it: 3.3000000000000003', flags: ['LongFloat', 'ReformattedNumber'], specRef: '§5.1 step 3', body: '{"amount":3.3000000000000003}', result: 'acceptable', source: 'suite' },
  { tcId: 108, comment: 'a number of 15 significant digits keeps them all', flags: ['LongFloat', 'ReformattedNumber'], specRef: '§5.1 step 3', body: '{"rate":3.14159265358979}', result: 'acceptable', source: 'suite' },
  { tcId: 109, comment: 'a number of 19 significant digits stays as written', flags: ['LongFloat', 'ReformattedNumber'], specRef: '§5.1 step 3', body: '{"rate":0.1234567890123456789}', result: 'acceptable', source: 'suite' },
  { tcId: 110, comment: 'the number 1e16 stays 1e16', flags: ['ReformattedNumber'], specRef: '§5.1 step 3', body: '{"reference":1e16}', result: 'acceptable', source: 'suite' },
  { tcId: 111, comment: 'a and a.b are two keys', flags: ['DottedKey'], specRef: '§5.1 step 1', body: '{"a":"1","a.b":"2"}', result: 'valid', source: 'spec' },
  { tcId: 112, comment: 'a.b before a in the body: still two keys', flags: ['DottedKey'], specRef: '§5.1 step 1', body: '{"a.b":"2","a":"1"}', result: 'valid', source: 'spec' },
  { tcId: 113, comment: 'the key __proto__ is signed like any other', flags: ['PrototypeKey'], specRef: '§5.1 step 1', body: '{"__proto__":"x","amount":"1"}', result: 'valid', source: 'spec' },
  { tcId: 114, comment: 'the keys constructor and toString are signed', flags: ['PrototypeKey'], specRef: '§5.1 step 1', body: '{"toString":"t","constructor":"c","amount":"1"}', result: 'valid', source: 'spec' },
  { tcId: 115, comment: 'the empty key with an empty value: =&a=1', flags: ['EmptyKey', 'EmptyString'], specRef: '§5.1 (not shown)', body: '{"a":"1","":""}', result: 'acceptable', source: 'suite' },
  { tcId: 116, comment: 'keys with spaces stay literal', flags: ['KeyWithSpace', 'LiteralValue'], specRef: '§5.1 step 3', body: '{"last name":"Mensah","first name":"Ama"}', result: 'valid', source: 'spec' },
  { tcId: 117, comment: 'space, * and ~ stay literal next to false', flags: ['LiteralValue', 'BooleanValue'], specRef: '§5.1 (not shown)', body: '{"note":"a b*~","ok":false}', result: 'acceptable', source: 'suite' },
  { tcId: 118, comment: 'number, true, null and object: every language differs', flags: ['LanguageRendering', 'BooleanValue', 'NullValue', 'NestedObject'], specRef: '§5.1 (not shown)', body: '{"a":1e3,"b":true,"c":null,"d":{"k":"v w"}}', result: 'acceptable', source: 'suite' },
  { tcId: 119, comment: 'the amount string "1000000000000000" stays as written', flags: ['DecimalString'], specRef: '§5.1 step 3', body: '{"amount":"1000000000000000"}', result: 'valid', source: 'spec' },
  { tcId: 120, comment: 'astral, ligature and B b keys in code-point order', flags: ['AstralKey', 'KeyOrderCase'], specRef: '§5.1 step 2', body: '{"\u{1F600}":"1","\uFB01":"2","b":"3","B":"4"}', result: 'acceptable', source: 'suite' },
  { tcId: 121, comment: 'null next to true: neither left out nor rewritten', flags: ['NullValue', 'BooleanValue'], specRef: '§5.1 (not shown)', body: '{"c":null,"b":true}', result: 'acceptable', source: 'suite' },
  { tcId: 122, comment: '15 significant digits next to true', flags: ['LongFloat', 'BooleanValue'], specRef: '§5.1 step 3', body: '{"paid":true,"rate":3.14159265358979}', result: 'acceptable', source: 'suite' },
  // --- integer-like keys: PHP's ksort() and a JavaScript object order them differently (appended) ---
  { tcId: 123, comment: 'digit keys 10 and 9 with -1: -1 sorts first by code point', flags: ['IntegerLikeKey', 'NegativeIntegerKey'], specRef: '§5.1 step 2', body: '{"10":"ten","9":"nine","-1":"minus"}', result: 'valid', source: 'spec' },
  { tcId: 124, comment: 'keys -1 and -2 by code point: -1 first', flags: ['NegativeIntegerKey'], specRef: '§5.1 step 2', body: '{"-2":"b","-1":"a"}', result: 'valid', source: 'spec' },
  { tcId: 125, comment: 'digit keys beside astral and ligature keys', flags: ['IntegerLikeKey', 'AstralKey'], specRef: '§5.1 step 2', body: '{"\u{1F600}":"1","\uFB01":"2","9":"nine","10":"ten"}', result: 'acceptable', source: 'suite' },
];

/** Where a row's position comes from when the row does not say: the spec for what it states, the suite where it is silent. */
export function sourceOfRow(row: SignatureRow): PositionSource {
  if (row.source) return row.source;
  // The public documentation shows the JSON number 15.0 signed as amount=15.0.
  if (row.flags.includes('SpecExample') || row.flags.includes('NumberAsWritten')) return 'service-docs';
  return row.result === 'acceptable' ? 'suite' : 'spec';
}

/** What each `source` means, written into the file. */
export const SIGNATURE_SOURCES: Record<PositionSource, string> = {
  spec: 'The position rests on the spec\'s own text (specRef names the step).',
  'service-docs': 'The position rests on the real service\'s public documentation: a body with the JSON number 15.0 signed as amount=15.0.',
  suite: 'The spec is silent and the position is the suite\'s own: acceptable unless a rule the spec states decides it.',
};
