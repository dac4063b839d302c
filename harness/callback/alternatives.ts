// Renderings other composers and parsers produce where they differ from the suite's (§6), each
// with a stable label. One definition, used three ways: the golden vectors name them, the
// reference service's URL faults compose with them, the reference receiver's parsing faults
// parse with them. The suite's own rule is composeCallbackUrl / parseCallbackQuery only.
import {
  CALLBACK_PARAM_NAMES, composeCallbackUrl, encodeCallbackQuery, formEncode, separatorAfter, splitFragment, type CallbackParams,
} from './compose.ts';
import { formDecode, queryOf, splitQuery, type ParsedCallbackQuery } from './parse.ts';

export interface ComposeAlternative {
  label: string;
  description: string;
  compose(callbackUrl: string, params: CallbackParams): string;
}

export interface ParseAlternative {
  label: string;
  description: string;
  parse(requestTarget: string): ParsedCallbackQuery;
}

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

/** The three parameters after `separator`, before any fragment. */
function appendWith(separator: string, callbackUrl: string, params: CallbackParams): string {
  const [base, fragment] = splitFragment(callbackUrl);
  return `${base}${separator}${encodeCallbackQuery(params)}${fragment}`;
}

/** The suite's composition with the query encoded another way (same separator and placement). */
function reencoded(callbackUrl: string, params: CallbackParams, encode: (value: string, name: string) => string): string {
  const composed = composeCallbackUrl(callbackUrl, params);
  const suiteQuery = encodeCallbackQuery(params);
  const at = composed.lastIndexOf(suiteQuery);
  return composed.slice(0, at) + encodeCallbackQuery(params, encode) + composed.slice(at + suiteQuery.length);
}

export const COMPOSE_ALTERNATIVES: readonly ComposeAlternative[] = Object.freeze([
  {
    label: 'always-question-mark',
    description: 'appends with ? even when the URL has a query',
    compose: (url, p) => appendWith('?', url, p),
  },
  {
    label: 'always-ampersand',
    description: 'appends with & even when the URL has no query (…/cb&transaction_id=…)',
    compose: (url, p) => appendWith('&', url, p),
  },
  {
    label: 'always-separator',
    description: 'writes & after a URL that already ends in ? or &',
    compose: (url, p) => appendWith(splitFragment(url)[0].includes('?') ? '&' : '?', url, p),
  },
  {
    label: 'drop-existing-query',
    description: 'replaces the existing query with the three parameters',
    compose: (url, p) => {
      const [base, fragment] = splitFragment(url);
      const q = base.indexOf('?');
      return composeCallbackUrl((q === -1 ? base : base.slice(0, q)) + fragment, p);
    },
  },
  {
    label: 'append-after-fragment',
    description: 'appends to the end of the string, after the #fragment (never sent)',
    // The naive string append: the separator is chosen from the whole string, fragment included.
    compose: (url, p) => url + separatorAfter(url) + encodeCallbackQuery(p),
  },
  {
    label: 'message-percent20',
    description: 'writes spaces in message as %20 instead of +',
    compose: (url, p) => reencoded(url, p, (v, n) => (n === 'message' ? formEncode(v).replace(/\+/g, '%20') : formEncode(v))),
  },
  {
    label: 'encode-uri-component',
    description: "values encoded with encodeURIComponent (%20, keeps ! ' ( ) * ~)",
    compose: (url, p) => reencoded(url, p, (v) => encodeURIComponent(v)),
  },
  {
    label: 'python-quote-plus',
    description: 'values encoded with Python urllib.parse.quote_plus (keeps ~, encodes *)',
    compose: (url, p) => reencoded(url, p, (v) => percentEncode(v, /^[A-Za-z0-9_.~-]$/, true)),
  },
  {
    label: 'php-urlencode',
    description: 'values encoded with PHP urlencode (encodes ~ and *)',
    compose: (url, p) => reencoded(url, p, (v) => percentEncode(v, /^[A-Za-z0-9_.-]$/, true)),
  },
  {
    label: 'unencoded-values',
    description: 'values appended as they are, nothing encoded',
    compose: (url, p) => reencoded(url, p, (v) => v),
  },
] satisfies ComposeAlternative[]);

/** decodeURIComponent / rawurldecode: %XX decoded, + kept (a bad % stays literal). */
const plusKept = (s: string): string => formDecode(s.replace(/\+/g, '%2B'));
const asIs = (s: string): string => s;

export const PARSE_ALTERNATIVES: readonly ParseAlternative[] = Object.freeze([
  {
    label: 'first-occurrence',
    description: 'a repeated name keeps its first value',
    parse: (t) => {
      const parsed = splitQuery(queryOf(t), formDecode, formDecode);
      for (const name of CALLBACK_PARAM_NAMES) {
        const first = parsed.all.find(([n]) => n === name);
        if (first) parsed[name] = first[1];
      }
      return parsed;
    },
  },
  {
    label: 'plus-not-space',
    description: '%XX decoded but + kept (decodeURIComponent, rawurldecode)',
    parse: (t) => splitQuery(queryOf(t), plusKept, plusKept),
  },
  {
    label: 'no-percent-decoding',
    description: 'raw query values used as they arrive',
    parse: (t) => splitQuery(queryOf(t), asIs, asIs),
  },
  {
    label: 'names-not-decoded',
    description: 'values decoded, names compared as they arrive',
    parse: (t) => splitQuery(queryOf(t), asIs, formDecode),
  },
  {
    // e.g. urldecode($_SERVER['QUERY_STRING']) then explode('&', …): %26 and %3D inside a value
    // become separators, so `message=a%26status%3DFAILED` yields a status of its own.
    label: 'decode-before-split',
    description: 'the whole query decoded before splitting on & and =',
    parse: (t) => splitQuery(formDecode(queryOf(t)), asIs, asIs),
  },
] satisfies ParseAlternative[]);

export function composeAlternative(label: string): ComposeAlternative {
  const found = COMPOSE_ALTERNATIVES.find((a) => a.label === label);
  if (!found) throw new Error(`no compose alternative labelled ${JSON.stringify(label)}`);
  return found;
}

export function parseAlternative(label: string): ParseAlternative {
  const found = PARSE_ALTERNATIVES.find((a) => a.label === label);
  if (!found) throw new Error(`no parse alternative labelled ${JSON.stringify(label)}`);
  return found;
}
