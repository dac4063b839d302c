// The reference SDK's status query (§4.2, as the suite takes it: harness/status, docs/status.md):
// POST {baseUrl}/api/v1.0/transaction_status/ with {"transaction_id", "client_id"}, signed as
// collect is, the answer read into a status, a refusal, or a thrown error (a 5xx, an answer it
// cannot read, no answer). Written as an SDK author would, not with harness/signing or
// harness/status: it is an implementation under test. Fault switches of faults.ts (status-*).
import { createHmac } from 'node:crypto';
import type { ReferenceSdkFault } from './faults.ts';
import { sendRequest, type SdkAnswer } from './http.ts';
import { byCodePoint, type SdkConfig } from './sdk.ts';

export type SdkStatusResult =
  | { status: 'PENDING' | 'SUCCESS' | 'FAILED'; detail: string }
  | { outcome: 'rejected'; detail: string };

const STATUSES = new Set(['PENDING', 'SUCCESS', 'FAILED']);
const LOWER = new Set(['pending', 'success', 'failed']);

export async function transactionStatus(config: SdkConfig, transactionId: string): Promise<SdkStatusResult> {
  const on = (fault: ReferenceSdkFault) => config.faults?.has(fault) === true;
  if (on('status-from-cache')) return { status: 'PENDING', detail: 'from the SDK\'s cache' };
  const clientId = on('status-client-id-string') ? String(config.clientId) : config.clientId;
  // parseInt("cc-…") is NaN, which JSON writes as null (and the message signs as "null").
  const id = on('status-id-as-integer') ? Number.parseInt(transactionId, 10) : transactionId;
  const members: Array<[string, string | number | null]> = [
    [on('status-id-camel-case') ? 'transactionId' : 'transaction_id', Number.isNaN(id) ? null : id], ['client_id', clientId],
  ];
  const get = on('status-get-query') || on('status-get-body-signed');
  const signed = members.filter(([key]) => !on('status-signs-id-only') || key === 'transaction_id');
  const message = on('status-get-body-signed') ? '' : [...signed].sort(([a], [b]) => byCodePoint(a, b)).map(([k, v]) => `${k}=${v}`).join('&');
  const signature = createHmac('sha256', config.secretKey).update(message, 'utf8').digest('hex');
  const headers: Record<string, string> = {};
  if (!on('status-unsigned')) headers['authorization'] = `HMAC ${on('status-client-id-as-key') ? config.clientId : config.clientKey}:${signature}`;
  let url = `${config.baseUrl.replace(/\/+$/, '')}${on('status-wrong-path') ? '/api/v1.0/transaction-status/' : '/api/v1.0/transaction_status/'}`;
  let body: string | undefined = JSON.stringify(Object.fromEntries(members));
  const pairs = () => new URLSearchParams(members.map(([k, v]): [string, string] => [k, String(v)])).toString();
  if (get) {
    url += `?${pairs()}`;
    body = undefined;
  } else if (on('status-form-params')) {
    body = pairs();
    headers['content-type'] = 'application/x-www-form-urlencoded';
  } else if (!on('status-no-content-type')) {
    headers['content-type'] = 'application/json';
  }

  const answer = await sendRequest(url, { method: body === undefined ? 'GET' : 'POST', headers, ...(body !== undefined ? { body } : {}) }, config.timeoutMs);
  if (answer === 'timeout') throw new Error(`no answer within ${config.timeoutMs} ms`);
  return readStatusAnswer(answer, on);
}

function readStatusAnswer(answer: SdkAnswer, on: (fault: ReferenceSdkFault) => boolean): SdkStatusResult {
  const { status, text, json } = answer;
  const detail = `HTTP ${status}${typeof json?.error_message === 'string' ? `: ${json.error_message}` : typeof json?.message === 'string' ? `: ${json.message}` : ''}`;
  if (status >= 500) {
    if (on('status-error-as-pending')) return { status: 'PENDING', detail: `${detail} (try again later)` };
    throw new Error(`the service failed: ${detail}`);
  }
  if (status === 404 && on('status-not-found-as-failed')) return { status: 'FAILED', detail };
  if (status < 200 || status > 299) {
    return on('status-error-as-pending') ? { status: 'PENDING', detail: `${detail} (try again later)` } : { outcome: 'rejected', detail };
  }
  if (json?.success === false || (json?.error_code !== undefined && json?.error_code !== null)) return { outcome: 'rejected', detail };
  if (on('status-success-only')) return json?.success === true ? { status: 'SUCCESS', detail } : { status: 'PENDING', detail };
  const raw = json?.status;
  // The real client deployed in Ghana, earlier version: success and failed compared in lower case, anything else "not yet".
  if (on('status-lower-case-compare')) return { status: raw === 'success' ? 'SUCCESS' : raw === 'failed' ? 'FAILED' : 'PENDING', detail };
  if (on('status-lower-case-only') && !(typeof raw === 'string' && LOWER.has(raw))) throw new Error(`unknown status ${JSON.stringify(raw)} (expected pending, success or failed)`);
  if (on('status-upper-case-only') && !(typeof raw === 'string' && STATUSES.has(raw))) throw new Error(`unknown status ${JSON.stringify(raw)} (expected PENDING, SUCCESS or FAILED)`);
  // Either letter case, as the kit reads it (harness/positions: status.answer-values).
  const value = typeof raw === 'string' ? raw.toUpperCase() : raw;
  if (on('status-success-throws') && value === 'SUCCESS') throw new Error('unknown status "SUCCESS" (expected PENDING, SUCCESSFUL or FAILED)');
  if (on('status-successful-spelling') && typeof value === 'string' && value !== 'PENDING') {
    return { status: value === 'SUCCESSFUL' ? 'SUCCESS' : 'FAILED', detail };
  }
  if (typeof value === 'string' && STATUSES.has(value)) return { status: value as 'PENDING' | 'SUCCESS' | 'FAILED', detail };
  throw new Error(`the status answer cannot be read: ${detail}, no status in ${text.slice(0, 80)}`);
}
