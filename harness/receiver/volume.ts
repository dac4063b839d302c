// What a receiver does under volume (issue 38, DESIGN.md "A callback storm"): a bounded cache of
// recent ids, a small fixed pool of "database connections", and a bounded work queue. The faults
// `recent-ids-dedupe`, `pool-held-before-reply` and `dropping-work-queue` use them the way real
// receivers do, wrongly; the correct `shedding` mode uses the pool and answers 503 + Retry-After
// when too many callbacks wait for it. Each pass every case of `run`: only a storm shows them.

/** Sizes and times (not scaled by timeScale: they are a database's, not the fulfilment's). */
export interface ReceiverVolumeConfig {
  /** `recent-ids-dedupe`: how many recent ids the cache holds (oldest forgotten first). */
  recentIds: number;
  /** `pool-held-before-reply` and `shedding`: connections in the pool. */
  poolSize: number;
  /** How long each callback holds a connection before its reply, in ms. */
  holdMs: number;
  /** `dropping-work-queue`: the most queued outcomes; beyond it an outcome is dropped. */
  queueSize: number;
  /** `dropping-work-queue`: ms the one worker spends on each queued outcome. */
  itemMs: number;
  /** `shedding`: a callback that finds this many already waiting for a connection gets 503. */
  shedAbove: number;
  /** `shedding`: the Retry-After of a 503, in seconds. */
  retryAfterS: number;
}

export const VOLUME_DEFAULTS: ReceiverVolumeConfig = {
  recentIds: 1000,
  poolSize: 4,
  holdMs: 20,
  queueSize: 100,
  itemMs: 10,
  shedAbove: 16,
  retryAfterS: 1,
};

/** The ids seen last, at most `size` of them (first in, first forgotten). */
export class RecentIds {
  private readonly ids = new Set<string>();
  constructor(private readonly size: number) {}

  /** True when `id` was already held; otherwise it is remembered now (no await between the two). */
  seenOrAdd(id: string): boolean {
    if (this.ids.has(id)) return true;
    this.ids.add(id);
    while (this.ids.size > this.size) {
      const oldest = this.ids.values().next();
      if (oldest.done) break;
      this.ids.delete(oldest.value);
    }
    return false;
  }
}

/** A fixed pool of `size` connections; callers wait in order for one. */
export class ConnectionPool {
  private free: number;
  private readonly queue: Array<() => void> = [];
  constructor(size: number) {
    this.free = size;
  }

  /** How many callers are waiting for a connection. */
  get waiting(): number {
    return this.queue.length;
  }

  async acquire(): Promise<() => void> {
    if (this.free > 0) this.free -= 1;
    else await new Promise<void>((resolve) => this.queue.push(resolve));
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.queue.shift();
      if (next) next();
      else this.free += 1;
    };
  }
}

/** At most `size` queued jobs, done one at a time by one worker; `offer` refuses when full. */
export class WorkQueue {
  private readonly jobs: Array<() => Promise<unknown>> = [];
  private running: Promise<void> | undefined;
  constructor(private readonly size: number, private readonly itemMs: number) {}

  /** False (the job dropped) when the queue is full. */
  offer(job: () => Promise<unknown>): boolean {
    if (this.jobs.length >= this.size) return false;
    this.jobs.push(job);
    this.running ??= this.work().finally(() => {
      this.running = undefined;
    });
    return true;
  }

  private async work(): Promise<void> {
    for (let job = this.jobs.shift(); job; job = this.jobs.shift()) {
      await job().catch(() => {});
      await sleep(this.itemMs);
    }
  }

  /** Resolves when the queue is empty (close waits for it). */
  async drain(): Promise<void> {
    while (this.running) await this.running;
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** What the handler uses, one per receiver. */
export interface Volume {
  config: ReceiverVolumeConfig;
  recent: RecentIds;
  pool: ConnectionPool;
  queue: WorkQueue;
}

export function volumeOf(config: ReceiverVolumeConfig): Volume {
  return {
    config,
    recent: new RecentIds(config.recentIds),
    pool: new ConnectionPool(config.poolSize),
    queue: new WorkQueue(config.queueSize, config.itemMs),
  };
}
