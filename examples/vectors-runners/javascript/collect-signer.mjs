// A small, correct signer for the collect API (§5.1, §5.2) and the callback URL (§6), in plain
// JavaScript with no dependency: the example that vectors.test.mjs runs against. Your SDK has its
// own; point the runner at it instead.
//
// COLLECT_SIGNER_FAULT switches on one fault of the signer, to see what a failing vector looks like:
//   body-order          keys left in the order of the body, not sorted
//   url-encoded-values  every value through encodeURIComponent
//   python-ascii-only   a message with a non-ASCII character refused (str.encode('ascii'))
// and COLLECT_CALLBACK_FAULT one of the callback URL's composer or parser:
//   always-question-mark  the parameters appended with ? even after a query
//   plus-not-space        + left as it is in the query, not read as a space
import { createHmac } from 'node:crypto';

const FAULT = process.env.COLLECT_SIGNER_FAULT ?? '';
const CALLBACK_FAULT = process.env.COLLECT_CALLBACK_FAULT ?? '';

/** Thrown for a body this signer does not sign (allowed on `acceptable` vectors only). */
export class Refused extends Error {}

/** The pairs of the top-level object, in body order: a repeated key keeps its first place and its last value. */
export function bodyPairs(body) {
  try {
    JSON.parse(body); // only to refuse what is not JSON; the values are read from the text below
  } catch (error) {
    throw new Refused(`the body is not JSON: ${error.message}`);
  }
  let i = skipSpace(body, 0);
  if (body[i] !== '{') throw new Refused('the body is not a JSON object');
  const pairs = new Map();
  i = skipSpace(body, i + 1);
  while (body[i] !== '}') {
    const keyEnd = valueEnd(body, i);
    const key = JSON.parse(body.slice(i, keyEnd));
    i = skipSpace(body, skipSpace(body, keyEnd) + 1); // past the ':'
    const end = valueEnd(body, i);
    const raw = body.slice(i, end);
    // A string is signed unquoted and unescaped; anything else (numbers, true, false, null,
    // nested objects and arrays) exactly as written in the body.
    pairs.set(key, raw[0] === '"' ? JSON.parse(raw) : raw);
    i = skipSpace(body, end);
    if (body[i] === ',') i = skipSpace(body, i + 1);
  }
  return [...pairs];
}

function skipSpace(text, i) {
  while (i < text.length && ' \t\r\n'.includes(text[i])) i++;
  return i;
}

/** Where the JSON value starting at `i` ends (the text is known to be valid JSON). */
function valueEnd(text, i) {
  let depth = 0;
  let inString = false;
  for (let j = i; j < text.length; j++) {
    const c = text[j];
    if (inString) {
      if (c === '\\') j++;
      else if (c === '"') {
        inString = false;
        if (depth === 0) return j + 1;
      }
    } else if (c === '"') inString = true;
    else if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') {
      if (depth === 0) return j;
      if (--depth === 0) return j + 1;
    } else if (depth === 0 && (c === ',' || ' \t\r\n'.includes(c))) return j;
  }
  return text.length;
}

/** Code-point order: the order of the keys' UTF-8 bytes (not localeCompare, not sort()'s UTF-16 order). */
const byCodePoint = ([a], [b]) => Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));

/** §5.1: the canonical message and the lower-case hex HMAC-SHA256 of it. */
export function sign(body, secret) {
  let pairs = bodyPairs(body);
  if (FAULT !== 'body-order') pairs = pairs.sort(byCodePoint);
  if (FAULT === 'url-encoded-values') pairs = pairs.map(([k, v]) => [k, encodeURIComponent(v)]);
  const message = pairs.map(([k, v]) => `${k}=${v}`).join('&');
  if (/\p{Surrogate}/u.test(message)) throw new Refused('the message holds a lone surrogate and has no UTF-8 form');
  if (FAULT === 'python-ascii-only' && /[^\x00-\x7f]/.test(message)) throw new Refused('the message is not ASCII');
  return { message, signature: createHmac('sha256', secret).update(message, 'utf8').digest('hex') };
}

const CALLBACK_PARAMS = ['transaction_id', 'status', 'message'];

/** application/x-www-form-urlencoded as WHATWG writes it: A-Z a-z 0-9 * - . _ kept, space as +. */
export function formEncode(value) {
  let out = '';
  for (const byte of Buffer.from(value, 'utf8')) {
    const c = String.fromCharCode(byte);
    if (/[A-Za-z0-9*\-._]/.test(c)) out += c;
    else if (c === ' ') out += '+';
    else out += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** §6: the callback URL kept intact, the three parameters appended with ? or & before any #fragment. */
export function composeCallbackUrl(callbackUrl, params) {
  const hash = callbackUrl.indexOf('#');
  const base = hash < 0 ? callbackUrl : callbackUrl.slice(0, hash);
  const fragment = hash < 0 ? '' : callbackUrl.slice(hash);
  const query = CALLBACK_PARAMS.map((name) => `${name}=${formEncode(params[name])}`).join('&');
  const q = base.indexOf('?');
  const joiner = q < 0 || CALLBACK_FAULT === 'always-question-mark' ? '?' : q === base.length - 1 || base.endsWith('&') ? '' : '&';
  return base + joiner + query + fragment;
}

function formDecode(text) {
  const raw = Buffer.from(CALLBACK_FAULT === 'plus-not-space' ? text : text.replace(/\+/g, ' '), 'utf8');
  const bytes = [];
  for (let i = 0; i < raw.length; i++) {
    const hex = raw.toString('latin1', i + 1, i + 3);
    if (raw[i] === 0x25 && /^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else bytes.push(raw[i]);
  }
  return new TextDecoder().decode(new Uint8Array(bytes)); // invalid UTF-8 becomes U+FFFD
}

/** Receiver side: the three parameters of a request target; the last occurrence of a name wins, null when absent. */
export function parseCallbackQuery(requestTarget) {
  const found = { transaction_id: null, status: null, message: null };
  const q = requestTarget.indexOf('?');
  if (q < 0) return found;
  for (const part of requestTarget.slice(q + 1).split('#')[0].split('&')) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    const name = formDecode(eq < 0 ? part : part.slice(0, eq));
    if (CALLBACK_PARAMS.includes(name)) found[name] = eq < 0 ? '' : formDecode(part.slice(eq + 1));
  }
  return found;
}
