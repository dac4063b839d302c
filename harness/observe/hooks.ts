// The receiver test hooks of DESIGN.md as a way of observing: seed a pending record with
// POST {hooks}/transactions, read what the receiver did with GET {hooks}/transactions/{id}.
// A hook that misbehaves makes the case ERROR, not FAIL.
import type { Stated } from '../results/index.ts';
import { rateLimitedReason } from '../wire/index.ts';
import { mapState } from './states.ts';
import { ObserveError, type CaseUse, type HookHttp, type ObservedStep, type RecordObserver, type RecordReading } from './model.ts';

type HookResult = Awaited<ReturnType<HookHttp['send']>>;

export class HooksObserver implements RecordObserver {
  readonly way = 'hooks';
  readonly can = { seed: true, actions: true };
  private readonly http: HookHttp;

  constructor(private readonly hooksUrl: string, use: Pick<CaseUse, 'http'>) {
    this.http = use.http;
  }

  private url(path: string): string {
    return this.hooksUrl.replace(/\/+$/, '') + path;
  }

  /** A refused connection is most often nothing started there yet, or another port. */
  private refusedHint(result: HookResult): string {
    return !result.ok && result.failure.code === 'refused' ? ` (is the receiver listening on ${new URL(this.hooksUrl).host}?)` : '';
  }

  /** POST {hooks}/transactions: the receiver now holds a pending record for `id`. */
  async seed(id: string, amount: string): Promise<ObservedStep[]> {
    const result = await this.http.send({
      label: 'hooks: seed',
      method: 'POST',
      url: this.url('/transactions'),
      headers: [{ name: 'content-type', value: 'application/json' }],
      body: JSON.stringify({ transaction_id: id, amount }),
    }, false);
    if (!result.ok) throw hookError(`the test hook POST /transactions failed: ${result.failure.message}${this.refusedHint(result)}`, result);
    if (result.final429) throw hookError(rateLimitedReason('the test hook POST /transactions', result.final429, this.http.pace), result, { causes: ['rate-limited'] });
    if (result.answer.status < 200 || result.answer.status > 299) {
      throw hookError(`the test hook POST /transactions answered ${result.answer.status}, DESIGN.md expects 2xx`, result);
    }
    return [];
  }

  /** GET {hooks}/transactions/{id}: the reading, or null for 404 (an id the receiver does not hold). */
  async read(id: string): Promise<RecordReading | null> {
    const result = await this.http.send({
      label: 'hooks: read',
      url: this.url(`/transactions/${encodeURIComponent(id)}`),
    }, false);
    if (!result.ok) throw hookError(`the test hook GET /transactions/{id} failed: ${result.failure.message}${this.refusedHint(result)}`, result);
    if (result.final429) throw hookError(rateLimitedReason('the test hook GET /transactions/{id}', result.final429, this.http.pace), result, { causes: ['rate-limited'] });
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
    const r = reading as Partial<{ transaction_id: unknown; state: unknown; actions: unknown }>;
    if (typeof r !== 'object' || r === null || typeof r.state !== 'string' || typeof r.actions !== 'number') {
      throw hookError('the test hook reading lacks "state" (string) or "actions" (number)', result);
    }
    if (r.transaction_id !== id) {
      throw hookError(`the test hook reading is for ${JSON.stringify(r.transaction_id)}, not ${JSON.stringify(id)}`, result);
    }
    // The hooks speak the suite's own states: a value other than the three is shown as it is.
    return { transaction_id: id, state: mapState(r.state, undefined), value: r.state, actions: r.actions };
  }

  /** Whether the receiver serves POST {hooks}/transactions/read (unknown until asked). */
  private readManyServed: boolean | undefined;

  /**
   * POST {hooks}/transactions/read: the readings in the order asked; undefined when the receiver
   * does not serve it (404 or 405: the caller reads one id at a time).
   */
  async readMany(ids: readonly string[]): Promise<Array<RecordReading | null> | undefined> {
    if (this.readManyServed === false) return undefined;
    const result = await this.http.send({
      label: 'hooks: read many',
      method: 'POST',
      url: this.url('/transactions/read'),
      headers: [{ name: 'content-type', value: 'application/json' }],
      body: JSON.stringify({ transaction_ids: ids }),
    }, false);
    if (!result.ok) throw hookError(`the test hook POST /transactions/read failed: ${result.failure.message}`, result);
    if (result.answer.status === 404 || result.answer.status === 405) {
      this.readManyServed = false;
      return undefined;
    }
    if (result.answer.status !== 200) throw hookError(`the test hook POST /transactions/read answered ${result.answer.status}, expected 200 (or 404/405 where it is not served)`, result);
    let records: unknown;
    try {
      records = (JSON.parse(result.answer.body) as { records?: unknown }).records;
    } catch {
      throw hookError('the test hook POST /transactions/read answered 200 with a body that is not JSON', result);
    }
    if (!Array.isArray(records) || records.length !== ids.length) {
      throw hookError(`the test hook POST /transactions/read answered ${Array.isArray(records) ? `${records.length} records` : 'no "records" array'} for ${ids.length} ids`, result);
    }
    this.readManyServed = true;
    return records.map((r, i) => {
      if (r === null) return null;
      const x = r as Partial<{ transaction_id: unknown; state: unknown; actions: unknown }>;
      if (typeof x.state !== 'string' || typeof x.actions !== 'number' || x.transaction_id !== ids[i]) {
        throw hookError(`the test hook POST /transactions/read answered, at position ${i}, no reading of ${JSON.stringify(ids[i])} ("transaction_id", "state" and "actions")`, result);
      }
      return { transaction_id: ids[i]!, state: mapState(x.state, undefined), value: x.state, actions: x.actions };
    });
  }

  async close(): Promise<void> {}
}

function hookError(message: string, result: HookResult, stated?: Stated): ObserveError {
  return new ObserveError('ERR_OBSERVE_HOOK', message, { exchanges: [...(result.retried ? [result.retried.exchange] : []), result.exchange] }, stated);
}
