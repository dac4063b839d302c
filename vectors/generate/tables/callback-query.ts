// Input table of vectors/callback-query.json (§6, receiver side): the request target a
// receiver sees, decided by hand. `expected`, `all` and alternatives are computed.
// tcIds are stable: append new rows with new ids, never renumber or reuse one.
import type { CallbackQueryRow, FileHeader } from '../types.ts';

const P = '/payments/callback';

export const CALLBACK_QUERY_HEADER: FileHeader = {
  algorithm: 'callback query parsing (receiver side): request target to transaction_id, status, message',
  schema: 'callback-query.schema.json',
  version: '1.0.0',
  specRef: '§6',
  header: [
    'Each test gives the request target a receiver sees (path and query) and what it must read:',
    'the query split on &, each name and value form-decoded (+ is a space, %XX a UTF-8 byte),',
    'and for transaction_id, status and message the last occurrence (the service appends).',
    '`all` lists every parameter in order, decoded.',
    'acceptable: the spec is silent; alternatives lists what other parsers read, by label.',
  ],
  notes: {
    Basic: { bugType: 'BASIC', description: 'The three parameters as the service sends them.', effect: 'A receiver that cannot read them cannot act.' },
    PlusIsSpace: { bugType: 'BASIC', description: '+ in a value is a space (§6: spaces as +).', effect: 'decodeURIComponent and rawurldecode keep the +.' },
    PercentDecoding: { bugType: 'BASIC', description: '%XX is decoded: %2B is +, %25 is %, %26 is &, %3D is =.', effect: 'A receiver that uses raw values stores encoded text or matches the wrong id.' },
    NonAscii: { bugType: 'BASIC', description: '%XX sequences are UTF-8 bytes; hex in either case.', effect: 'Latin-1 decoding garbles the text.' },
    ExistingQuery: { bugType: 'BASIC', description: 'The callback URL had parameters of its own; they come first.', effect: 'A receiver that rejects unknown parameters refuses every callback.' },
    RepeatedParam: { bugType: 'INTERPRETIVE', description: 'A name stands twice: the last occurrence wins, because the service appends.', effect: 'A receiver that takes the first acts on the value the URL already had.' },
    ParamOrder: { bugType: 'BASIC', description: 'Parameters are read by name, not position.', effect: 'A positional parser reads the wrong values.' },
    ReservedTransactionId: { bugType: 'BASIC', description: 'transaction_id with encoded reserved characters decodes to the caller\'s reference.', effect: 'The receiver looks up the wrong record.' },
    EmptyValue: { bugType: 'EDGE_CASE', description: 'message= is an empty string.', effect: 'A parser that treats it as missing refuses the callback.' },
    EncoderDifference: { bugType: 'BASIC', description: '~ and * arrive raw or encoded; both decode to the same text.', effect: 'A receiver that compares raw text misses them.' },
    MalformedPercent: { bugType: 'INTERPRETIVE', description: 'A % not followed by two hex digits stays literal (WHATWG); invalid UTF-8 becomes U+FFFD.', effect: 'Strict decoders throw and answer 500, so the service retries forever.' },
    EmptyPart: { bugType: 'INTERPRETIVE', description: 'Empty parts (&& or ?&) are skipped; a part without = is a name with an empty value.', effect: 'A strict parser refuses the callback.' },
    EncodedName: { bugType: 'INTERPRETIVE', description: 'Names are form-decoded like values.', effect: 'A parser that decodes only values misses the parameter.' },
  },
};

export const CALLBACK_QUERY_ROWS: CallbackQueryRow[] = [
  { tcId: 1, comment: 'three parameters in the order the service sends them', flags: ['Basic'], specRef: '§6 Parameters', requestTarget: `${P}?transaction_id=TX-2026-0001&status=SUCCESS&message=Paid`, result: 'valid' },
  { tcId: 2, comment: '+ decodes to a space', flags: ['PlusIsSpace'], specRef: '§6 Parameters', requestTarget: `${P}?transaction_id=TX-2026-0001&status=SUCCESS&message=Payment+received`, result: 'valid' },
  { tcId: 3, comment: '%2B decodes to +', flags: ['PercentDecoding'], specRef: '§6 Parameters', requestTarget: `${P}?transaction_id=TX-2026-0001&status=SUCCESS&message=from+%2B233244000001`, result: 'valid' },
  { tcId: 4, comment: '%25 decodes to %', flags: ['PercentDecoding'], specRef: '§6 Parameters', requestTarget: `${P}?transaction_id=TX-2026-0001&status=SUCCESS&message=100%25+paid`, result: 'valid' },
  { tcId: 5, comment: '%26 and %3D decode to & and =', flags: ['PercentDecoding'], specRef: '§6 Parameters', requestTarget: `${P}?transaction_id=TX-2026-0001&status=SUCCESS&message=fee%3D0%26tax%3D0`, result: 'valid' },
  { tcId: 6, comment: '%20 decodes to a space too', flags: ['PercentDecoding'], specRef: '§6 Parameters', requestTarget: `${P}?transaction_id=TX-2026-0001&status=SUCCESS&message=Payment%20received`, result: 'valid' },
  { tcId: 7, comment: '%C3%A9 decodes to é', flags: ['NonAscii'], specRef: '§6 Parameters', requestTarget: `${P}?transaction_id=TX-2026-0001&status=SUCCESS&message=Paiement+re%C3%A7u+Ad%C3%A9la`, result: 'valid' },
  { tcId: 8, comment: 'lower-case hex %c3%a9 decodes to é', flags: ['NonAscii'], specRef: '§6 Parameters', requestTarget: `${P}?transaction_id=TX-2026-0001&status=SUCCESS&message=Ad%c3%a9la`, result: 'valid' },
  { tcId: 9, comment: 'four bytes decode to one emoji', flags: ['NonAscii'], specRef: '§6 Parameters', requestTarget: `${P}?transaction_id=TX-2026-0001&status=SUCCESS&message=paid+%F0%9F%98%80`, result: 'valid' },
  { tcId: 10, comment: 'existing parameters come first and are listed', flags: ['ExistingQuery'], specRef: '§6 URL composition', requestTarget: `${P}?order=17&shop=accra&transaction_id=TX-2026-0001&status=SUCCESS&message=Paid`, result: 'valid' },
  { tcId: 11, comment: 'existing status=PENDING: the appended SUCCESS wins', flags: ['RepeatedParam', 'ExistingQuery'], specRef: '§6 URL composition', requestTarget: `${P}?status=PENDING&transaction_id=TX-2026-0001&status=SUCCESS&message=Paid`, result: 'acceptable' },
  { tcId: 12, comment: 'existing transaction_id: the appended one wins', flags: ['RepeatedParam', 'ExistingQuery'], specRef: '§6 URL composition', requestTarget: `${P}?transaction_id=old&message=x&transaction_id=TX-2026-0001&status=FAILED&message=Declined`, result: 'acceptable' },
  { tcId: 13, comment: 'status FAILED', flags: ['Basic'], specRef: '§6 Parameters', requestTarget: `${P}?transaction_id=TX-2026-0002&status=FAILED&message=Insufficient+funds`, result: 'valid' },
  { tcId: 14, comment: 'transaction_id with %26 %3D %2F %3F %23 decoded', flags: ['ReservedTransactionId'], specRef: '§6 Parameters', requestTarget: `${P}?transaction_id=A%26B%3DC%2Finv%3Fx%232&status=SUCCESS&message=Paid`, result: 'valid' },
  { tcId: 15, comment: 'transaction_id with + and %2B', flags: ['ReservedTransactionId', 'PlusIsSpace'], specRef: '§6 Parameters', requestTarget: `${P}?transaction_id=order+17%2B1&status=SUCCESS&message=Paid`, result: 'valid' },
  { tcId: 16, comment: 'parameters in another order', flags: ['ParamOrder'], specRef: '§6 Parameters', requestTarget: `${P}?message=Paid&status=SUCCESS&transaction_id=TX-2026-0001`, result: 'valid' },
  { tcId: 17, comment: 'message= is the empty string', flags: ['EmptyValue'], specRef: '§6 Parameters', requestTarget: `${P}?transaction_id=TX-2026-0001&status=SUCCESS&message=`, result: 'valid' },
  { tcId: 18, comment: '~ raw and %7E both decode to ~', flags: ['EncoderDifference'], specRef: '§6 Parameters', requestTarget: `${P}?transaction_id=TX~1&status=SUCCESS&message=ref+%7E17`, result: 'valid' },
  { tcId: 19, comment: '* raw and %2A both decode to *', flags: ['EncoderDifference'], specRef: '§6 Parameters', requestTarget: `${P}?transaction_id=TX*1&status=SUCCESS&message=ref+%2A17`, result: 'valid' },
  { tcId: 20, comment: 'root path with the query', flags: ['Basic'], specRef: '§6 URL composition', requestTarget: '/?transaction_id=TX-2026-0001&status=SUCCESS&message=Paid', result: 'valid' },
  { tcId: 21, comment: 'existing value with + and %20 decoded in all', flags: ['ExistingQuery', 'PlusIsSpace'], specRef: '§6 URL composition', requestTarget: `${P}?ref=a%20b+c&transaction_id=TX-2026-0001&status=SUCCESS&message=Paid`, result: 'valid' },
  { tcId: 22, comment: '%ZZ is not an escape and stays literal', flags: ['MalformedPercent'], specRef: '§6 Parameters', requestTarget: `${P}?transaction_id=TX-2026-0001&status=SUCCESS&message=50%ZZ+off`, result: 'acceptable' },
  { tcId: 23, comment: 'a trailing % stays literal', flags: ['MalformedPercent'], specRef: '§6 Parameters', requestTarget: `${P}?transaction_id=TX-2026-0001&status=SUCCESS&message=100%`, result: 'acceptable' },
  { tcId: 24, comment: '%FF is not UTF-8 and becomes U+FFFD', flags: ['MalformedPercent', 'NonAscii'], specRef: '§6 Parameters', requestTarget: `${P}?transaction_id=TX-2026-0001&status=SUCCESS&message=bad%FFbyte`, result: 'acceptable' },
  { tcId: 25, comment: '?& and && give no empty parameters', flags: ['EmptyPart'], specRef: '§6 URL composition', requestTarget: `${P}?&transaction_id=TX-2026-0001&&status=SUCCESS&message=Paid`, result: 'acceptable' },
  { tcId: 26, comment: 'debug without = is a name with an empty value', flags: ['EmptyPart', 'ExistingQuery'], specRef: '§6 URL composition', requestTarget: `${P}?debug&transaction_id=TX-2026-0001&status=SUCCESS&message=Paid`, result: 'acceptable' },
  { tcId: 27, comment: 'an encoded name %74ransaction_id is transaction_id', flags: ['EncodedName'], specRef: '§6 Parameters', requestTarget: `${P}?%74ransaction_id=TX-2026-0001&status=SUCCESS&message=Paid`, result: 'acceptable' },
  { tcId: 28, comment: 'an unencoded = inside a value is part of it', flags: ['EmptyPart'], specRef: '§6 Parameters', requestTarget: `${P}?transaction_id=TX-2026-0001&status=SUCCESS&message=fee=0`, result: 'acceptable' },
];
