// The reference SDK: a small, correct collect call (§4.1, §5) as an SDK author would write it
// in JavaScript, with the fault switches of faults.ts. It signs what it sends: the body is
// written first, and the signature is computed over the pairs of that body (strings as they
// stand, any other value as its JSON text). It deliberately does not use harness/signing: it
// is an implementation under test, not the harness's twin.
import { createHmac, randomUUID } from 'node:crypto';
import { sendRequest, type SdkAnswer } from './http.ts';
import type { ReferenceSdkFault } from './faults.ts';
import { isSuccess } from '../http/index.ts';

export interface SdkConfig {
  /** The service root; the SDK posts to `{baseUrl}/api/v1.0/collect/`. */
  baseUrl: string;
  clientId: number;
  clientKey: string;
  secretKey: string;
  /** The SDK's own time limit for one call. */
  timeoutMs: number;
  faults?: ReadonlySet<ReferenceSdkFault>;
}

/** What the SDK tells its caller; a thrown error is its third answer (transport, time-out, 5xx). */
export interface SdkResult {
  outcome: 'accepted' | 'rejected';
  detail: string;
}

const SIX_FIELDS = new Set(['amount', 'callback_url', 'client_id', 'customer_number', 'network_code', 'transaction_id']);

/** Code-point order of keys (§5.1 step 2), not UTF-16 units and not the locale's collation. */
export function byCodePoint(a: string, b: string): number {
  const x = [...a].map((c) => c.codePointAt(0)!);
  const y = [...b].map((c) => c.codePointAt(0)!);
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
  return x.length - y.length;
}

/** A whole float as a language that keeps the float type prints it in JSON (Python, PHP 7.1+): 15.0. */
function floatText(n: number): string {
  return Number.isInteger(n) && Math.abs(n) < 1e16 ? `${n}.0` : JSON.stringify(n);
}

/** PHP's string conversion of a float: %.14G (3.3000000000000003 → 3.3, 1.2345678901234567e19 → 1.2345678901235E+19). */
function phpText(n: number): string {
  const [mantissa, exponent] = n.toPrecision(14).split('e');
  const trimmed = mantissa!.includes('.') ? mantissa!.replace(/\.?0+$/, '') : mantissa!;
  return exponent === undefined ? trimmed : `${trimmed}E${exponent}`;
}

export async function collect(config: SdkConfig, fields: Readonly<Record<string, unknown>>): Promise<SdkResult> {
  const on = (fault: ReferenceSdkFault) => config.faults?.has(fault) === true;
  // What goes on the wire, field by field, as JSON text; and the text each one is signed as.
  const members: Array<{ key: string; json: string; signed: string }> = [];
  for (const [name, given] of Object.entries(fields)) {
    let key = name === 'transaction_id' && on('transaction-id-camel-case') ? 'transactionId' : name;
    if (on('fields-pascal-case')) key = name.split('_').map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join('');
    let value = given;
    if (name === 'transaction_id' && on('own-transaction-id')) value = randomUUID();
    if (name === 'network_code' && typeof value === 'string' && on('network-code-lower-case')) value = value.toLowerCase();
    if (name === 'network_code' && on('network-code-unknown-null')) value = null;
    if (name === 'customer_number' && typeof value === 'string' && on('customer-number-international')) value = value.replace(/^0/, '233');
    if (key === 'amount' && typeof value === 'string' && on('amount-as-number')) value = Number(value);
    if (key === 'amount' && typeof value === 'string' && on('amount-through-float')) value = String(Number(value));
    if (key === 'customer_number' && typeof value === 'string' && on('customer-number-as-integer')) value = Number(value);
    if (key === 'client_id' && on('client-id-as-string')) value = String(value);
    if (key === 'callback_url' && typeof value === 'string' && on('encoded-callback-sent')) value = encodeURIComponent(value);
    let json = JSON.stringify(value);
    let signed = typeof value === 'string' ? value : json;
    if (typeof value === 'number' && key !== 'client_id' && on('float-text-sent')) json = floatText(value);
    if (typeof value === 'number' && on('php-float-signed')) signed = phpText(value);
    if (key === 'callback_url' && typeof value === 'string' && on('encode-uri-callback-signed')) signed = encodeURI(value);
    if (name === 'client_id' && typeof value === 'number' && on('client-id-as-float')) json = signed = floatText(value);
    members.push({ key, json, signed });
  }
  // A form carries text only: each value as the text it is signed as (a string as it stands, any other value as its JSON).
  const body = on('form-params')
    ? new URLSearchParams(members.map((m): [string, string] => [m.key, m.signed])).toString()
    : `{${members.map((m) => `${JSON.stringify(m.key)}:${m.json}`).join(',')}}`;
  let pairs = members.filter((m) => !on('extra-fields-unsigned') || SIX_FIELDS.has(m.key));
  if (!on('body-order-signature')) {
    pairs = [...pairs].sort((a, b) => (on('locale-order-signature') ? a.key.localeCompare(b.key) : byCodePoint(a.key, b.key)));
  }
  const message = pairs.map((m) => `${m.key}=${m.signed}`).join('&');
  const hmac = createHmac(on('signature-sha512') ? 'sha512' : 'sha256', on('client-key-as-secret') ? config.clientKey : config.secretKey).update(message, 'utf8');
  let signature = hmac.digest(on('signature-base64') ? 'base64' : 'hex');
  if (on('uppercase-hex')) signature = signature.toUpperCase();
  if (on('signature-prefixed')) signature = `sha256=${signature}`;

  let authorization = `HMAC ${on('client-id-as-key') ? config.clientId : config.clientKey}:${signature}`;
  if (on('authorization-scheme-twice')) authorization = `HMAC ${authorization}`;
  if (on('authorization-extra-member')) authorization = `${authorization}:${Math.floor(Date.now() / 1000)}`;
  const headers: Record<string, string | string[]> = { authorization: on('authorization-twice') ? [authorization, authorization] : authorization };
  const type = on('form-params') ? 'application/x-www-form-urlencoded' : on('content-type-text-plain') ? 'text/plain;charset=UTF-8' : 'application/json';
  if (!on('no-content-type')) headers['content-type'] = on('content-type-twice') ? [type, type] : type;
  if (on('secret-sent')) headers['x-secret-key'] = config.secretKey;
  const path = on('wrong-path') ? '/api/v1.0/collect' : '/api/v1.0/collect/';

  const answer = await sendRequest(`${config.baseUrl.replace(/\/+$/, '')}${path}`, { method: on('collect-put') ? 'PUT' : 'POST', headers, body }, config.timeoutMs);
  if (answer === 'timeout') {
    if (on('timeout-accepted')) return { outcome: 'accepted', detail: `no answer within ${config.timeoutMs} ms; the callback will tell` };
    throw new Error(`no answer within ${config.timeoutMs} ms`);
  }
  return readAnswer(answer, on);
}

function readAnswer(answer: SdkAnswer, on: (fault: ReferenceSdkFault) => boolean): SdkResult {
  const { status, json } = answer;
  const detail = `HTTP ${status}${typeof json?.message === 'string' ? `: ${json.message}` : typeof json?.error_message === 'string' ? `: ${json.error_message}` : ''}`;
  const ok = isSuccess(status);
  if (status >= 500 && !on('body-only-answer')) {
    if (on('server-error-accepted')) return { outcome: 'accepted', detail: `${detail} (the service will process it)` };
    throw new Error(`the service failed: ${detail}`);
  }
  if (on('success-string-compare')) return { outcome: json?.success === 'true' ? 'accepted' : 'rejected', detail };
  const saysFalse = json?.success === false;
  const errorCode = json?.error_code !== undefined && json?.error_code !== null;
  if (on('body-only-answer')) return { outcome: saysFalse || errorCode ? 'rejected' : 'accepted', detail };
  if (!ok) return { outcome: 'rejected', detail };
  if (on('status-only-answer')) return { outcome: 'accepted', detail };
  if (saysFalse || (errorCode && !on('error-code-ignored'))) return { outcome: 'rejected', detail };
  return { outcome: 'accepted', detail };
}
