// Input table of vectors/callback-url.json (§6 "URL composition"): callback_url and the three
// parameters, decided by hand. The URL, request target and alternatives are computed.
// tcIds are stable: append new rows with new ids, never renumber or reuse one.
import type { CallbackUrlRow, FileHeader } from '../types.ts';

const CB = 'https://merchant.example/payments/callback';
const OK = { transaction_id: 'TX-2026-0001', status: 'SUCCESS', message: 'Payment received' };

function msg(message: string) {
  return { ...OK, message };
}
function txid(transaction_id: string) {
  return { ...OK, transaction_id };
}

export const CALLBACK_URL_HEADER: FileHeader = {
  algorithm: 'callback URL composition: callback_url + transaction_id, status, message',
  schema: 'callback-url.schema.json',
  version: '1.0.0',
  specRef: '§6',
  header: [
    'Each test gives the callback_url of a request and the three callback parameters, and the URL',
    'the service requests: the supplied URL kept intact, the parameters appended with ? (or & when',
    'the URL already has a query), values form-encoded (spaces as +, UTF-8 %XX, upper-case hex).',
    'requestTarget is what reaches the receiver: path and query, never the fragment.',
    'acceptable: the spec is silent; alternatives lists what other composers produce, by label.',
  ],
  notes: {
    NoQuery: { bugType: 'BASIC', description: 'A URL without a query gets ? before the parameters.', effect: 'A composer that always writes & produces a path the receiver does not serve.' },
    ExistingQuery: { bugType: 'BASIC', description: 'A URL with a query keeps it and gets & before the parameters.', effect: 'A composer that always writes ? corrupts the last existing value; one that drops the query loses it.' },
    ExistingParam: { bugType: 'BASIC', description: 'The URL already holds a parameter of the same name; it stays, the new one is appended.', effect: 'A composer that replaces it does not keep the URL intact; the receiver must take the last one.' },
    TrailingSeparator: { bugType: 'INTERPRETIVE', description: 'The URL ends in its first ? (an empty query) or, after a query, in &: the suite adds no second separator.', effect: 'Other composers write ?& or &&, which receivers parse the same way.' },
    Fragment: { bugType: 'INTERPRETIVE', description: 'A #fragment is never sent over HTTP: the suite puts the parameters before it.', effect: 'A composer that appends after the fragment sends no parameters at all.' },
    MessageSpaces: { bugType: 'BASIC', description: 'Spaces in message are written as + (§6).', effect: 'A composer that writes %20 differs from the spec; receivers decode both.' },
    ReservedInMessage: { bugType: 'BASIC', description: '+ % & = # ? / in message are percent-encoded.', effect: 'An unencoded & or = splits the message; an unencoded + turns into a space.' },
    NonAscii: { bugType: 'BASIC', description: 'Non-ASCII text is percent-encoded as UTF-8 bytes, upper-case hex.', effect: 'A composer that uses Latin-1 or sends raw bytes breaks the message.' },
    EncoderDifference: { bugType: 'INTERPRETIVE', description: 'Characters the common encoders treat differently (~ * ! \' ( )); every decoding gives the same text.', effect: 'None for a decoding receiver; a byte-wise comparison of URLs differs.' },
    ReservedTransactionId: { bugType: 'INTERPRETIVE', description: 'transaction_id with reserved characters is form-encoded like message (§6 states encoding for message only).', effect: 'An unencoded & or # in transaction_id cuts it short at the receiver.' },
    StatusValue: { bugType: 'BASIC', description: 'status is SUCCESS or FAILED, written as is.', effect: 'A receiver that compares statuses exactly misses a lower-case status.' },
    EmptyMessage: { bugType: 'EDGE_CASE', description: 'An empty message is written as message= .', effect: 'A composer that leaves it out sends two parameters.' },
    HostOnly: { bugType: 'EDGE_CASE', description: 'A URL with no path: the request target starts with /.', effect: 'A client that sends ?… as the request target is refused by servers.' },
  },
};

export const CALLBACK_URL_ROWS: CallbackUrlRow[] = [
  { tcId: 1, comment: 'no query: parameters after ?', flags: ['NoQuery'], specRef: '§6 URL composition', callbackUrl: CB, params: OK, result: 'valid' },
  { tcId: 2, comment: 'one existing parameter: parameters after &', flags: ['ExistingQuery'], specRef: '§6 URL composition', callbackUrl: `${CB}?order=17`, params: OK, result: 'valid' },
  { tcId: 3, comment: 'several existing parameters are kept in order', flags: ['ExistingQuery'], specRef: '§6 URL composition', callbackUrl: `${CB}?order=17&shop=accra&lang=en`, params: OK, result: 'valid' },
  { tcId: 4, comment: 'existing query with %20 and + is kept intact', flags: ['ExistingQuery'], specRef: '§6 URL composition', callbackUrl: `${CB}?ref=a%20b+c&x=%2F`, params: OK, result: 'valid' },
  { tcId: 5, comment: 'existing parameter without a value', flags: ['ExistingQuery'], specRef: '§6 URL composition', callbackUrl: `${CB}?debug`, params: OK, result: 'valid' },
  { tcId: 6, comment: 'trailing ? gets no second separator', flags: ['TrailingSeparator'], specRef: '§6 URL composition', callbackUrl: `${CB}?`, params: OK, result: 'acceptable' },
  { tcId: 7, comment: 'trailing & after a query gets no second separator', flags: ['TrailingSeparator', 'ExistingQuery'], specRef: '§6 URL composition', callbackUrl: `${CB}?order=17&`, params: OK, result: 'acceptable' },
  { tcId: 8, comment: 'fragment: parameters go before #', flags: ['Fragment'], specRef: '§6 URL composition', callbackUrl: `${CB}#receipt`, params: OK, result: 'acceptable' },
  { tcId: 9, comment: 'query and fragment: parameters between them', flags: ['Fragment', 'ExistingQuery'], specRef: '§6 URL composition', callbackUrl: `${CB}?order=17#receipt`, params: OK, result: 'acceptable' },
  { tcId: 10, comment: 'a ? inside the fragment is not a query', flags: ['Fragment', 'NoQuery'], specRef: '§6 URL composition', callbackUrl: `${CB}#/done?tab=1`, params: OK, result: 'acceptable' },
  { tcId: 11, comment: 'existing status=PENDING stays, SUCCESS is appended', flags: ['ExistingParam', 'ExistingQuery'], specRef: '§6 URL composition', callbackUrl: `${CB}?status=PENDING`, params: OK, result: 'valid' },
  { tcId: 12, comment: 'existing transaction_id stays, the real one is appended', flags: ['ExistingParam', 'ExistingQuery'], specRef: '§6 URL composition', callbackUrl: `${CB}?transaction_id=old&message=x`, params: OK, result: 'valid' },
  { tcId: 13, comment: 'spaces in message become +', flags: ['MessageSpaces'], specRef: '§6 Parameters', callbackUrl: CB, params: msg('Transaction completed successfully'), result: 'valid' },
  { tcId: 14, comment: 'a + in message becomes %2B', flags: ['ReservedInMessage'], specRef: '§6 Parameters', callbackUrl: CB, params: msg('paid by +233 24 400 0001'), result: 'valid' },
  { tcId: 15, comment: 'a % in message becomes %25', flags: ['ReservedInMessage'], specRef: '§6 Parameters', callbackUrl: CB, params: msg('100% paid'), result: 'valid' },
  { tcId: 16, comment: '& and = in message become %26 and %3D', flags: ['ReservedInMessage'], specRef: '§6 Parameters', callbackUrl: CB, params: msg('fee=0&tax=0'), result: 'valid' },
  { tcId: 17, comment: '# and ? in message become %23 and %3F', flags: ['ReservedInMessage'], specRef: '§6 Parameters', callbackUrl: CB, params: msg('order #17 ok?'), result: 'valid' },
  { tcId: 18, comment: '/ and : in message become %2F and %3A', flags: ['ReservedInMessage'], specRef: '§6 Parameters', callbackUrl: CB, params: msg('see https://m.example/r'), result: 'valid' },
  { tcId: 19, comment: 'é becomes %C3%A9', flags: ['NonAscii'], specRef: '§6 Parameters', callbackUrl: CB, params: msg('Paiement reçu, merci Adéla'), result: 'valid' },
  { tcId: 20, comment: 'an emoji becomes four %XX bytes', flags: ['NonAscii'], specRef: '§6 Parameters', callbackUrl: CB, params: msg('paid \u{1F600}'), result: 'valid' },
  { tcId: 21, comment: 'Twi letters ɛ ɔ become UTF-8 %XX', flags: ['NonAscii'], specRef: '§6 Parameters', callbackUrl: CB, params: msg('Wo sika no aba ɛnnɛ, Ɔkyeame'), result: 'valid' },
  { tcId: 22, comment: 'newline and tab become %0A and %09', flags: ['ReservedInMessage'], specRef: '§6 Parameters', callbackUrl: CB, params: msg('line1\nline2\tend'), result: 'valid' },
  { tcId: 23, comment: 'status FAILED with a reason', flags: ['StatusValue', 'MessageSpaces'], specRef: '§6 Parameters', callbackUrl: CB, params: { transaction_id: 'TX-2026-0002', status: 'FAILED', message: 'Insufficient funds' }, result: 'valid' },
  { tcId: 24, comment: 'an empty message is written as message=', flags: ['EmptyMessage'], specRef: '§6 Parameters', callbackUrl: CB, params: msg(''), result: 'valid' },
  { tcId: 25, comment: 'a URL with no path gets / as request target', flags: ['HostOnly', 'NoQuery'], specRef: '§6 URL composition', callbackUrl: 'https://merchant.example', params: OK, result: 'valid' },
  { tcId: 26, comment: 'a URL with no path but a query', flags: ['HostOnly', 'ExistingQuery'], specRef: '§6 URL composition', callbackUrl: 'https://merchant.example?order=17', params: OK, result: 'valid' },
  { tcId: 27, comment: 'port, path and query are kept', flags: ['ExistingQuery'], specRef: '§6 URL composition', callbackUrl: 'https://merchant.example:8443/v2/cb.php?key=a-b_c.d', params: OK, result: 'valid' },
  { tcId: 28, comment: 'transaction_id with & and = is encoded', flags: ['ReservedTransactionId'], specRef: '§6 Parameters', callbackUrl: CB, params: txid('A&B=C'), result: 'acceptable' },
  { tcId: 29, comment: 'transaction_id with / ? # is encoded', flags: ['ReservedTransactionId'], specRef: '§6 Parameters', callbackUrl: CB, params: txid('inv/17?x#2'), result: 'acceptable' },
  { tcId: 30, comment: 'transaction_id with a space and a +', flags: ['ReservedTransactionId'], specRef: '§6 Parameters', callbackUrl: CB, params: txid('order 17+1'), result: 'acceptable' },
  { tcId: 31, comment: 'transaction_id with % and non-ASCII', flags: ['ReservedTransactionId', 'NonAscii'], specRef: '§6 Parameters', callbackUrl: CB, params: txid('50%-reçu'), result: 'acceptable' },
  { tcId: 32, comment: 'a ~ in message: %7E here, ~ in Python', flags: ['EncoderDifference'], specRef: '§6 Parameters', callbackUrl: CB, params: msg('ref ~17'), result: 'acceptable' },
  { tcId: 33, comment: 'a * in message: * here, %2A in Python and PHP', flags: ['EncoderDifference'], specRef: '§6 Parameters', callbackUrl: CB, params: msg('ref *17'), result: 'acceptable' },
  { tcId: 34, comment: "! ' ( ) in message: kept by encodeURIComponent", flags: ['EncoderDifference'], specRef: '§6 Parameters', callbackUrl: CB, params: msg("paid (in full)! it's done"), result: 'acceptable' },
  { tcId: 35, comment: 'existing query, fragment and a message with spaces', flags: ['Fragment', 'ExistingQuery', 'MessageSpaces'], specRef: '§6 URL composition', callbackUrl: `${CB}?order=17&#top`, params: msg('Payment received in full'), result: 'acceptable' },
  { tcId: 36, comment: 'plain URL over http (production refuses it elsewhere)', flags: ['NoQuery'], specRef: '§6 URL composition', callbackUrl: 'http://127.0.0.1:8081/callback', params: OK, result: 'valid' },
  { tcId: 37, comment: 'existing query ending in a literal ? still gets &', flags: ['ExistingQuery'], specRef: '§6 URL composition', callbackUrl: `${CB}?next=/done?`, params: OK, result: 'valid' },
  { tcId: 38, comment: 'no path, a query holding /: request target is /?…', flags: ['HostOnly', 'ExistingQuery'], specRef: '§6 URL composition', callbackUrl: 'https://merchant.example?next=/done', params: OK, result: 'valid' },
  { tcId: 39, comment: 'IPv6 host with port: the URL is kept intact', flags: ['NoQuery'], specRef: '§6 URL composition', callbackUrl: 'https://[2001:db8::1]:8443/payments/callback', params: OK, result: 'valid' },
];
