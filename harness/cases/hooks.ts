// The receiver test hooks of DESIGN.md, seen from the harness: seed a pending record, read
// what the receiver did with it. A hook that misbehaves makes the case ERROR, not FAIL.
import { rateLimitedReason } from '../wire/index.ts';
import type { HttpClient, HttpResult } from './http.ts';
import { CaseError } from './http.ts';

export interface HookReading {
  transaction_id: string;
  state: string;
  actions: number;
}

export class HooksClient {
  constructor(private readonly http: HttpClient, private readonly hooksUrl: string) {}

  private url(path: string): string {
    return this.hooksUrl.replace(/\/+$/, '') + path;
  }

  /** POST {hooks}/transactions: the receiver now holds a pending record for `id`. */
  async seed(id: string, amount = '10.00'): Promise<void> {
    const result = await this.http.send({
      label: 'hooks: seed',
      method: 'POST',
      url: this.url('/transactions'),
      headers: [{ name: 'content-type', value: 'application/json' }],
      body: JSON.stringify({ transaction_id: id, amount }),
    }, false);
    if (!result.ok) throw hookError(`the test hook POST /transactions failed: ${result.error}`, result);
    if (result.final429) throw hookError(rateLimitedReason('the test hook POST /transactions', result.final429, this.http.pace), result);
    if (result.answer.status < 200 || result.answer.status > 299) {
      throw hookError(`the test hook POST /transactions answered ${result.answer.status}, DESIGN.md expects 2xx`, result);
    }
  }

  /** GET {hooks}/transactions/{id}: the reading, or null for 404 (an id the receiver does not hold). */
  async read(id: string): Promise<HookReading | null> {
    const result = await this.http.send({
      label: 'hooks: read',
      url: this.url(`/transactions/${encodeURIComponent(id)}`),
    }, false);
    if (!result.ok) throw hookError(`the test hook GET /transactions/{id} failed: ${result.error}`, result);
    if (result.final429) throw hookError(rateLimitedReason('the test hook GET /transactions/{id}', result.final429, this.http.pace), result);
    if (result.answer.status === 404) return null;
    if (result.answer.status !== 200) {
      throw hookError(`the test hook GET /transactions/{id} answered ${result.answer.status}, DESIGN.md expects 200 or 404`, result);
    }
    let reading: unknown;
    try {
      reading = JSON.parse(result.answer.body);
    } catch {
      throw hookError('the test hook GET /transactions/{id} answered 200 with a body that is not JSON', result);
    }
    const r = reading as Partial<HookReading>;
    if (typeof r !== 'object' || r === null || typeof r.state !== 'string' || typeof r.actions !== 'number') {
      throw hookError('the test hook reading lacks "state" (string) or "actions" (number)', result);
    }
    if (r.transaction_id !== id) {
      throw hookError(`the test hook reading is for ${JSON.stringify(r.transaction_id)}, not ${JSON.stringify(id)}`, result);
    }
    return { transaction_id: id, state: r.state, actions: r.actions };
  }
}

function hookError(message: string, result: HttpResult): CaseError {
  return new CaseError(message, { exchanges: [...(result.retried ? [result.retried.exchange] : []), result.exchange] });
}
