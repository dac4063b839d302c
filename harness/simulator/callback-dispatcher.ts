// §3/§6: after the processing delay a transaction reaches SUCCESS or FAILED and its callback is
// delivered: retried on non-2xx or connection failure with exponential back-off
// (initialDelayMs × factor^n, scaled), duplicates after a 2xx (at-least-once), terminal states
// final. Nothing per transaction is held once its deliveries are done.
import { request, type Dispatcher } from 'undici';
import type { SimulatorConfig } from './config.ts';
import type { FaultSet } from './faults.ts';
import { decideOutcome } from './outcome.ts';
import { buildDelivery } from './callback-request.ts';
import { isHttpsUrl } from './fields.ts';
import type { Transaction, TransactionStore } from './store.ts';
import type { SimulatorLog } from './log.ts';
import { isSuccess } from '../http/index.ts';

type Result = { ok: true; status: number } | { ok: false; status?: number; error?: string };

export class CallbackDispatcher {
  private readonly timers = new Map<NodeJS.Timeout, string>();
  private readonly inFlight = new Set<Promise<void>>();
  private closed = false;

  constructor(
    private readonly config: SimulatorConfig,
    private readonly faults: FaultSet,
    private readonly store: TransactionStore,
    private readonly agent: Dispatcher,
    private readonly log: SimulatorLog,
  ) {}

  /** Called once per accepted transaction. */
  accepted(tx: Transaction): void {
    this.later(this.config.processingDelayMs, `outcome of ${tx.transactionId}`, () => this.complete(tx));
  }

  /** Scheduled work not yet started, for shutdown reporting. */
  get pending(): number {
    return this.timers.size + this.inFlight.size;
  }

  /** Stops scheduling, waits for deliveries on the wire, reports what was abandoned. */
  async close(): Promise<string[]> {
    this.closed = true;
    const abandoned = [...this.timers.values()];
    for (const timer of this.timers.keys()) clearTimeout(timer);
    this.timers.clear();
    for (const what of abandoned) this.log.event(`shutdown: abandoned ${what}`);
    await Promise.allSettled([...this.inFlight]);
    return abandoned;
  }

  private later(ms: number, what: string, work: () => Promise<void> | void): void {
    if (this.closed) {
      this.log.event(`shutdown: abandoned ${what}`);
      return;
    }
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      this.track(work());
    }, ms * this.config.timeScale);
    this.timers.set(timer, what);
  }

  private track(work: Promise<void> | void): void {
    if (!work) return;
    const running = work.catch((error: unknown) => this.log.event(`callback error: ${String(error)}`)).finally(() => {
      this.inFlight.delete(running);
    });
    this.inFlight.add(running);
  }

  private complete(tx: Transaction): Promise<void> | void {
    const outcome = decideOutcome(tx.customerNumber, tx.amount, this.config.outcome);
    this.store.finish(tx, outcome.status, outcome.message);
    this.log.event(`transaction ${tx.transactionId} ${tx.status}: ${tx.message}`);
    if (this.faults.has('no-callback')) return;
    if (this.config.mode === 'production' && !isHttpsUrl(tx.callbackUrl) && !this.faults.has('plain-http-in-production')) {
      // Refused at collect time already; kept here so no code path ever calls http in production.
      this.log.event(`callback for ${tx.transactionId} not sent: production mode delivers over https only`);
      return;
    }
    return this.attempt(tx, 1);
  }

  private statusToSend(tx: Transaction): 'SUCCESS' | 'FAILED' {
    const terminal = tx.status === 'FAILED' ? 'FAILED' : 'SUCCESS';
    return this.faults.has('failed-as-success') ? 'SUCCESS' : terminal;
  }

  private maxAttempts(): number {
    if (this.faults.has('no-retry')) return 1;
    if (this.faults.has('single-retry')) return Math.min(2, this.config.retry.attempts);
    return this.config.retry.attempts;
  }

  /** Retry n (n = 1 for the first retry) waits initialDelayMs × factor^(n-1). */
  private backoff(retry: number): number {
    const { initialDelayMs, factor } = this.config.retry;
    return this.faults.has('constant-retry') ? initialDelayMs : initialDelayMs * factor ** (retry - 1);
  }

  private async attempt(tx: Transaction, n: number): Promise<void> {
    const max = this.maxAttempts();
    const result = await this.deliver(tx, this.statusToSend(tx), `attempt ${n}/${max}`, n === 1);
    if (result.ok) {
      this.afterSuccess(tx);
      return;
    }
    if (n >= max) {
      this.log.event(`callback for ${tx.transactionId}: gave up after ${n} attempt(s)`);
      return;
    }
    this.later(this.backoff(n), `retry ${n} of the callback for ${tx.transactionId}`, () => this.attempt(tx, n + 1));
  }

  private afterSuccess(tx: Transaction): void {
    const gap = this.config.retry.initialDelayMs;
    const status = this.statusToSend(tx);
    for (let i = 1; i <= this.config.duplicateDeliveries; i++) {
      this.later(gap * i, `duplicate ${i} of the callback for ${tx.transactionId}`, async () => {
        await this.deliver(tx, status, `duplicate ${i}`);
      });
    }
    if (this.faults.has('retry-after-success')) {
      this.later(this.backoff(1), `retry after success for ${tx.transactionId}`, async () => {
        await this.deliver(tx, status, 'retry after a 2xx');
      });
    }
    if (this.faults.has('conflicting-duplicates')) {
      const opposite = status === 'SUCCESS' ? 'FAILED' : 'SUCCESS';
      this.later(gap, `conflicting duplicate for ${tx.transactionId}`, async () => {
        await this.deliver(tx, opposite, 'duplicate');
      });
    }
  }

  /** `first`: the first delivery of the callback (not a retry, not a duplicate). */
  private async deliver(tx: Transaction, status: 'SUCCESS' | 'FAILED', label: string, first = false): Promise<Result> {
    const delivery = buildDelivery(tx, status, this.config.callbackToken, this.faults, this.config.mode, first);
    let result: Result;
    try {
      const response = await request(delivery.url, {
        method: delivery.method,
        headers: delivery.headers,
        dispatcher: this.agent,
        signal: AbortSignal.timeout(this.config.callbackTimeoutMs),
      });
      await response.body.dump();
      const code = response.statusCode;
      // fault: `status === 200` where §4.3 says 2xx
      const delivered = this.faults.has('only-200-success') ? code === 200 : isSuccess(code);
      result = delivered ? { ok: true, status: code } : { ok: false, status: code };
    } catch (error) {
      result = { ok: false, error: (error as { code?: string }).code ?? (error as Error).name ?? String(error) };
    }
    const answer = result.status !== undefined ? String(result.status) : `failed (${result.ok ? '' : result.error})`;
    this.log.event(`callback ${delivery.method} ${delivery.url} ${label} -> ${answer}`);
    return result;
  }
}
