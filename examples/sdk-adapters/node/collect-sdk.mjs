// A small SDK for the collect operation (§4.1, §5) and the status query (§4.2, as
// collect-conformance takes it: docs/status.md) on Node's own fetch, no dependencies. It
// signs what it sends: the body is written first, and the signature covers the pairs of that
// body (strings as they stand, any other value as its JSON text), keys in code-point order.
//
// COLLECT_SDK_FAULT=float-text switches on one deviation: whole numbers go out as floats
// (15.0, as a PHP or Python encoder writes them) while the signature covers String(x) (15).
import { createHmac } from 'node:crypto';

export class CollectError extends Error {}

const byCodePoint = (a, b) => {
  const x = [...a];
  const y = [...b];
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    if (x[i] !== y[i]) return x[i].codePointAt(0) - y[i].codePointAt(0);
  }
  return x.length - y.length;
};

export class CollectClient {
  constructor({ baseUrl, clientId, clientKey, secretKey, timeoutMs = 2000 }) {
    Object.assign(this, { baseUrl: baseUrl.replace(/\/+$/, ''), clientId, clientKey, secretKey, timeoutMs });
    this.fault = process.env.COLLECT_SDK_FAULT ?? '';
  }

  /** Resolves to {outcome: 'accepted' | 'rejected', detail}; throws CollectError when the outcome is unknown. */
  async collect(fields) {
    const members = Object.entries(fields).map(([key, value]) => {
      const json = JSON.stringify(value);
      const sent = this.fault === 'float-text' && Number.isInteger(value) && key !== 'client_id' ? `${json}.0` : json;
      return { key, sent, signed: typeof value === 'string' ? value : json };
    });
    const { response, answer } = await this.post('/api/v1.0/collect/', members);
    const detail = `HTTP ${response.status}${typeof answer.message === 'string' ? `: ${answer.message}` : ''}`;
    if (response.status >= 500) throw new CollectError(`the service failed: ${detail}`);
    return { outcome: refused(response, answer) ? 'rejected' : 'accepted', detail };
  }

  /**
   * Resolves to {status: 'PENDING' | 'SUCCESS' | 'FAILED', detail} or {outcome: 'rejected', detail};
   * throws CollectError when the service failed, did not answer, or answered no status.
   */
  async transactionStatus(transactionId) {
    const members = [
      { key: 'transaction_id', sent: JSON.stringify(transactionId), signed: transactionId },
      { key: 'client_id', sent: JSON.stringify(this.clientId), signed: JSON.stringify(this.clientId) },
    ];
    const { response, answer } = await this.post('/api/v1.0/transaction_status/', members);
    const detail = `HTTP ${response.status}${typeof answer.error_message === 'string' ? `: ${answer.error_message}` : ''}`;
    if (response.status >= 500) throw new CollectError(`the service failed: ${detail}`);
    if (refused(response, answer)) return { outcome: 'rejected', detail };
    // Either letter case: real services answer `success` as well as `SUCCESS` (docs/positions.md).
    const status = typeof answer.status === 'string' ? answer.status.toUpperCase() : undefined;
    if (!['PENDING', 'SUCCESS', 'FAILED'].includes(status)) throw new CollectError(`the status answer holds no status: ${detail}`);
    return { status, detail };
  }

  /** Posts the members as a JSON body signed over their pairs; the response and its JSON object ({} when none). */
  async post(path, members) {
    const body = `{${members.map((m) => `${JSON.stringify(m.key)}:${m.sent}`).join(',')}}`;
    const message = [...members].sort((a, b) => byCodePoint(a.key, b.key)).map((m) => `${m.key}=${m.signed}`).join('&');
    const signature = createHmac('sha256', this.secretKey).update(message).digest('hex');
    let response;
    try {
      response = await fetch(`${this.baseUrl}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `HMAC ${this.clientKey}:${signature}` },
        body,
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (error) {
      throw new CollectError(`no answer from the service: ${error.message}`);
    }
    let answer = {};
    try {
      const parsed = JSON.parse(await response.text());
      if (parsed && typeof parsed === 'object') answer = parsed;
    } catch {
      // Not JSON: the status alone speaks.
    }
    return { response, answer };
  }
}

const refused = (response, answer) => !response.ok || answer.success === false || (answer.error_code !== undefined && answer.error_code !== null);
