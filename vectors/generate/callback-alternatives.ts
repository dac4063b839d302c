// Renderings other composers and parsers produce where they differ from the suite's (§6).
// These are deliberately *other* rules, named so a vector can say which one an
// implementation follows; the suite's own rule is only harness/callback.
import { CALLBACK_PARAM_NAMES, composeCallbackUrl, formDecode, formEncode, parseCallbackQuery, queryOf } from '../../harness/callback/index.ts';
import type { CallbackParamsOut } from './types.ts';

type Encoder = (value: string) => string;

/** Percent-encodes every UTF-8 byte of `value` except the characters `keep` accepts. */
function percentEncode(value: string, keep: RegExp, spaceAsPlus: boolean): string {
  let out = '';
  for (const ch of value) {
    if (spaceAsPlus && ch === ' ') out += '+';
    else if (keep.test(ch)) out += ch;
    else for (const byte of Buffer.from(ch, 'utf8')) out += '%' + byte.toString(16).toUpperCase().padStart(2, '0');
  }
  return out;
}

/** Python's urllib.parse.quote_plus (and urlencode): keeps A-Z a-z 0-9 _ . - ~. */
const pythonQuotePlus: Encoder = (v) => percentEncode(v, /^[A-Za-z0-9_.~-]$/, true);
/** PHP's urlencode (and http_build_query): keeps A-Z a-z 0-9 _ . -. */
const phpUrlencode: Encoder = (v) => percentEncode(v, /^[A-Za-z0-9_.-]$/, true);

function query(params: CallbackParamsOut, encode: (name: string, value: string) => string): string {
  return CALLBACK_PARAM_NAMES.map((name) => `${name}=${encode(name, params[name])}`).join('&');
}

function splitFragment(url: string): [base: string, fragment: string] {
  const at = url.indexOf('#');
  return at === -1 ? [url, ''] : [url.slice(0, at), url.slice(at)];
}

/** Swaps the suite's query for another encoding, keeping its separator and placement. */
function reencoded(url: string, params: CallbackParamsOut, encode: (name: string, value: string) => string): string {
  const composed = composeCallbackUrl(url, params);
  const suiteQuery = query(params, (_n, v) => formEncode(v));
  const at = composed.lastIndexOf(suiteQuery);
  return composed.slice(0, at) + query(params, encode) + composed.slice(at + suiteQuery.length);
}

export interface UrlAlternative {
  label: string;
  description: string;
  compose(callbackUrl: string, params: CallbackParamsOut): string;
}

export const URL_ALTERNATIVES: readonly UrlAlternative[] = [
  {
    label: 'always-question-mark',
    description: 'appends with ? even when the URL has a query',
    compose: (url, p) => {
      const [base, fragment] = splitFragment(url);
      return `${base}?${query(p, (_n, v) => formEncode(v))}${fragment}`;
    },
  },
  {
    label: 'always-separator',
    description: 'writes & after a URL that already ends in ? or &',
    compose: (url, p) => {
      const [base, fragment] = splitFragment(url);
      return `${base}${base.includes('?') ? '&' : '?'}${query(p, (_n, v) => formEncode(v))}${fragment}`;
    },
  },
  {
    label: 'drop-existing-query',
    description: 'replaces the existing query with the three parameters',
    compose: (url, p) => {
      const [base, fragment] = splitFragment(url);
      const q = base.indexOf('?');
      return `${q === -1 ? base : base.slice(0, q)}?${query(p, (_n, v) => formEncode(v))}${fragment}`;
    },
  },
  {
    label: 'append-after-fragment',
    description: 'appends to the end of the string, after the #fragment (never sent)',
    compose: (url, p) => {
      if (!url.includes('#')) return composeCallbackUrl(url, p);
      const separator = !url.includes('?') ? '?' : url.endsWith('?') || url.endsWith('&') ? '' : '&';
      return url + separator + query(p, (_n, v) => formEncode(v));
    },
  },
  {
    label: 'message-percent20',
    description: 'writes spaces in message as %20 instead of +',
    compose: (url, p) => reencoded(url, p, (n, v) => (n === 'message' ? formEncode(v).replace(/\+/g, '%20') : formEncode(v))),
  },
  {
    label: 'encode-uri-component',
    description: "values encoded with encodeURIComponent (%20, keeps ! ' ( ) * ~)",
    compose: (url, p) => reencoded(url, p, (_n, v) => encodeURIComponent(v)),
  },
  {
    label: 'python-quote-plus',
    description: 'values encoded with Python urllib.parse.quote_plus (keeps ~, encodes *)',
    compose: (url, p) => reencoded(url, p, (_n, v) => pythonQuotePlus(v)),
  },
  {
    label: 'php-urlencode',
    description: 'values encoded with PHP urlencode (encodes ~ and *)',
    compose: (url, p) => reencoded(url, p, (_n, v) => phpUrlencode(v)),
  },
  {
    label: 'unencoded-values',
    description: 'values appended as they are, nothing encoded',
    compose: (url, p) => reencoded(url, p, (_n, v) => v),
  },
];

export type ParsedExpectation = { transaction_id: string | null; status: string | null; message: string | null };

export interface QueryAlternative {
  label: string;
  description: string;
  parse(requestTarget: string): ParsedExpectation;
}

function pick(all: ReadonlyArray<readonly [string, string]>, which: 'first' | 'last'): ParsedExpectation {
  const out: ParsedExpectation = { transaction_id: null, status: null, message: null };
  for (const [name, value] of all) {
    if (name !== 'transaction_id' && name !== 'status' && name !== 'message') continue;
    if (which === 'first' && out[name] !== null) continue;
    out[name] = value;
  }
  return out;
}

function splitQuery(target: string, decodeName: (s: string) => string, decodeValue: (s: string) => string): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (const part of queryOf(target).split('&')) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    out.push([decodeName(eq === -1 ? part : part.slice(0, eq)), decodeValue(eq === -1 ? '' : part.slice(eq + 1))]);
  }
  return out;
}

/** decodeURIComponent / rawurldecode: %XX decoded, + kept. */
const plusKept = (s: string): string => formDecode(s.replace(/\+/g, '%2B'));

export const QUERY_ALTERNATIVES: readonly QueryAlternative[] = [
  {
    label: 'first-occurrence',
    description: 'a repeated name keeps its first value',
    parse: (t) => pick(parseCallbackQuery(t).all, 'first'),
  },
  {
    label: 'plus-not-space',
    description: '%XX decoded but + kept (decodeURIComponent, rawurldecode)',
    parse: (t) => pick(splitQuery(t, plusKept, plusKept), 'last'),
  },
  {
    label: 'no-percent-decoding',
    description: 'raw query values used as they arrive',
    parse: (t) => pick(splitQuery(t, (s) => s, (s) => s), 'last'),
  },
  {
    label: 'names-not-decoded',
    description: 'values decoded, names compared as they arrive',
    parse: (t) => pick(splitQuery(t, (s) => s, formDecode), 'last'),
  },
];
