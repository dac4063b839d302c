// `storm --export artillery` and `--judge` without Artillery (the end-to-end tier runs Artillery
// itself: artillery.test.ts): the exported processor composes every callback-url vector exactly
// and presents tokens as the native driver does; no exported file holds the token; its hooks
// log and measure each attempt as Artillery calls them; and a whole export → deliveries →
// judgement, the deliveries made by the exported processor's own hooks (a small stand-in for
// Artillery's engine, twice over, as `run-fargate --count 2` would), against the reference
// receiver and its duplicate fault.
import { existsSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  ARTILLERY_FILES, exportArtillery, judgeArtillery, LOG_DIR_ENV, LOG_FIELDS, LOG_FORMAT, METRICS, readDeliveryLogs, stormProcessor,
  TOKEN_ENV, type LoadedProcessor, type ProcessorSettings,
} from '../../harness/artillery/index.ts';
import { composeCallbackUrl } from '../../harness/callback/index.ts';
import { startEmbeddedReceiver, type EmbeddedReceiverOptions } from '../../harness/embedded/index.ts';
import { StormPlan, tokenValue, TOKEN_KINDS, type StormSettings } from '../../harness/storm/index.ts';
import { callbackUrlFile } from '../vectors/load.ts';

const root = mkdtempSync(join(tmpdir(), 'storm-artillery-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let folders = 0;
const folder = () => join(root, `export-${++folders}`);

const SMALL: StormSettings = { callbacks: 24, ratePerS: 200, duplicates: 2, badTokensPct: 20, seed: 38, tag: 'unit', driver: { backoffMs: 40, timeScale: 0.25, maxAttempts: 3 } };

async function exported(settings: StormSettings = SMALL, options: EmbeddedReceiverOptions = {}) {
  const embedded = await startEmbeddedReceiver(options);
  const dir = folder();
  try {
    const done = await exportArtillery({ target: embedded.target, settings, dir });
    return { embedded, dir, done };
  } catch (error) {
    await embedded.close();
    throw error;
  }
}

/** The exported processor.cjs, loaded as Artillery loads it (CommonJS), with the token in its variable. */
function loadProcessor(dir: string, token: string, logDir = join(dir, 'deliveries')): LoadedProcessor {
  const file = join(dir, ARTILLERY_FILES.processor);
  const require = createRequire(import.meta.url);
  const before = { token: process.env[TOKEN_ENV], logs: process.env[LOG_DIR_ENV] };
  process.env[TOKEN_ENV] = token;
  process.env[LOG_DIR_ENV] = logDir;
  try {
    delete require.cache[file];
    return require(file) as LoadedProcessor;
  } finally {
    for (const [name, value] of [[TOKEN_ENV, before.token], [LOG_DIR_ENV, before.logs]] as const) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
}

/** The payload's rows as Artillery reads them (cast: false: every field a string). */
function payloadRows(dir: string): Array<Record<string, string>> {
  const [header, ...lines] = readFileSync(join(dir, ARTILLERY_FILES.payload), 'utf8').trimEnd().split('\n');
  const fields = header!.split(',');
  return lines.map((line) => Object.fromEntries(line.split(',').map((v, k) => [fields[k]!, v])));
}

describe('the exported processor composes §6 callback URLs with the kit\'s own code', () => {
  it('every callback-url vector, exactly; every token kind as the native driver presents it', async () => {
    const { embedded, dir } = await exported();
    try {
      const processor = loadProcessor(dir, embedded.target.callbackToken!);
      const vectors = callbackUrlFile().tests;
      expect(vectors.length).toBeGreaterThanOrEqual(30);
      for (const v of vectors) expect(processor.composeCallbackUrl(v.callbackUrl, v.params), `tcId ${v.tcId}`).toBe(v.url);
      for (const kind of TOKEN_KINDS) expect(processor.tokenValue(kind, 'Token-abc')).toBe(tokenValue(kind, 'Token-abc'));
    } finally {
      await embedded.close();
    }
  });
  it('refuses to load without the token in its variable, naming the variable and --secret', async () => {
    const { embedded, dir } = await exported();
    await embedded.close();
    expect(() => loadProcessor(dir, '')).toThrow(`${TOKEN_ENV} is not set`);
    expect(() => loadProcessor(dir, '')).toThrow(`run-fargate --secret ${TOKEN_ENV}`);
  });
});

describe('the exported folder: script, payload, processor, storm-plan.json, and never the token', () => {
  it('every planned delivery once in the payload, in the plan\'s send order; the records seeded pending', async () => {
    const { embedded, dir, done } = await exported();
    try {
      expect(readdirSync(dir).sort()).toEqual([ARTILLERY_FILES.payload, ARTILLERY_FILES.processor, ARTILLERY_FILES.script, ARTILLERY_FILES.plan].sort());
      const plan = new StormPlan({ ...SMALL, badTokensPct: SMALL.badTokensPct });
      const rows = payloadRows(dir);
      expect(rows.map((r) => `${r.index}/${r.copy}/${r.token}/${r.when}`)).toEqual([...plan.stream()].map((d) => `${d.index}/${d.copy}/${d.token}/${d.when}`));
      expect(rows.map((r) => r.transaction_id)).toEqual([...plan.stream()].map((d) => plan.idOf(d.index)));
      expect(done.exported).toMatchObject({ deliveries: plan.deliveries, plan: { callbacks: 24, seed: 38, tag: 'unit' }, seeded: { count: 24, first: plan.idOf(0), last: plan.idOf(23) } });
      const script = readFileSync(join(dir, ARTILLERY_FILES.script), 'utf8');
      expect(script).toContain(`arrivalCount: ${plan.deliveries}`);
      expect(script).toContain(`duration: ${done.exported.durationS}`);
      expect(script).toContain('processor: "./processor.cjs"');
      const record = await fetch(`${embedded.receiver.hooksUrl}/transactions/${plan.idOf(5)}`);
      expect(record.status).toBe(200);
      expect(JSON.stringify(await record.json())).toContain('pending');
    } finally {
      await embedded.close();
    }
  });
  it('no file in the folder holds the token (nor its bad forms, all made from it at run time)', async () => {
    const { embedded, dir } = await exported();
    await embedded.close();
    const token = embedded.target.callbackToken!;
    expect(token.length).toBeGreaterThan(8);
    for (const name of readdirSync(dir)) expect(readFileSync(join(dir, name), 'utf8').includes(token), name).toBe(false);
  });
  it('a folder that is not empty is refused, and nothing is seeded', async () => {
    const embedded = await startEmbeddedReceiver();
    const dir = folder();
    mkdirSync(dir);
    writeFileSync(join(dir, 'other.txt'), 'x');
    try {
      await expect(exportArtillery({ target: embedded.target, settings: SMALL, dir })).rejects.toThrow('the folder is not empty');
      expect((await fetch(`${embedded.receiver.hooksUrl}/transactions/${new StormPlan(SMALL).idOf(0)}`)).status).toBe(404);
    } finally {
      await embedded.close();
    }
  });
});

/** Artillery's calls for one payload row, in its order: the flow's function, then the loop of get and whileTrue; a failed request goes to onError and ends the user. */
async function deliver(processor: LoadedProcessor, row: Record<string, string>, events: { emit: (kind: string, name: string, value: number) => void }) {
  const context = { vars: { ...row } as Record<string, unknown> };
  const step = <T>(f: (next: (value: T) => void) => void) => new Promise<T>((resolve) => f(resolve));
  await step((next) => processor.startDelivery(context, events, () => next(undefined)));
  for (let again = true; again;) {
    const req: { url: string; headers?: Record<string, string> } = { url: 'http://placeholder/', headers: {} };
    await step((next) => processor.composeCallback(req, context, events, () => next(undefined)));
    try {
      const res = await fetch(req.url, { headers: req.headers! });
      await res.arrayBuffer();
      await step((next) => processor.recordReply(req, { statusCode: res.status, headers: Object.fromEntries(res.headers) }, context, events, () => next(undefined)));
    } catch (error) {
      await step((next) => processor.recordNoReply(error, req, context, events, () => next(undefined)));
      return;
    }
    again = await step<boolean>((next) => processor.sendAgain(context, next));
  }
}

/** A stand-in for Artillery's engine: every row of the payload, a few users at once, `replays` times over at once. */
async function replay(dir: string, processor: LoadedProcessor, replays: number) {
  const rows = payloadRows(dir);
  const metrics: Record<string, number> = {};
  const events = { emit: (kind: string, name: string, value: number) => { metrics[name] = (metrics[name] ?? 0) + (kind === 'counter' ? value : 1); } };
  await Promise.all(Array.from({ length: replays }, async () => {
    for (let at = 0; at < rows.length; at += 4) await Promise.all(rows.slice(at, at + 4).map((row) => deliver(processor, row, events)));
  }));
  return metrics;
}

describe('export, deliveries by the exported processor\'s hooks, --judge: the native storm\'s cases on the records', () => {
  const verdicts = (results: Array<{ id: string; verdict: string }>) => Object.fromEntries(results.map((r) => [r.id, r.verdict]));

  it('the reference receiver, the plan replayed twice at once (run-fargate --count 2): every case PASS, the replays seen', async () => {
    // A deadline no loaded machine misses: this test is about the judgement's path, storm-faults and artillery.test.ts time replies.
    const { embedded, dir } = await exported({ ...SMALL, callbacks: 30 }, { replyDeadlineMs: 10_000 });
    try {
      const metrics = await replay(dir, loadProcessor(dir, embedded.target.callbackToken!), 2);
      expect(metrics[METRICS.deliveryMs]).toBeGreaterThan(0);
      const judged = await judgeArtillery({ target: embedded.target, dir, settleMs: 50 });
      expect(verdicts(judged.results), JSON.stringify(judged.results.filter((r) => r.verdict !== 'PASS'))).toEqual({
        'storm.exactly-once': 'PASS', 'storm.none-lost': 'PASS', 'storm.bad-token-inert': 'PASS', 'storm.reply-deadline': 'PASS', 'storm.shedding': 'PASS',
      });
      expect(judged.logs!.replays).toBe(2);
      const counts = judged.results[0]!.evidence!.counts!;
      expect(counts.badTokenIds).toBeGreaterThan(0);
      expect(counts.retryAmplification).toBe(4); // 2 copies × 2 replays, no retries
      expect(judged.results[0]!.evidence!.notes!.join(' ')).toContain('the plan replayed 2 times');
    } finally {
      await embedded.close();
    }
  });
  it('recent-ids-dedupe (a cache of 8 ids): storm.exactly-once FAIL with the first ids\' whole histories, from the logs', async () => {
    const { embedded, dir } = await exported({ ...SMALL, callbacks: 30, badTokensPct: 0 }, { faults: ['recent-ids-dedupe'], volume: { recentIds: 8 }, replyDeadlineMs: 10_000 });
    try {
      await replay(dir, loadProcessor(dir, embedded.target.callbackToken!), 1);
      const judged = await judgeArtillery({ target: embedded.target, dir, settleMs: 50 });
      const once = judged.results.find((r) => r.id === 'storm.exactly-once')!;
      expect(once.verdict).toBe('FAIL');
      expect(once.reason).toContain('applied more than once');
      const first = once.evidence!.firstIds!;
      expect(first[0]!.deliveries.length).toBeGreaterThanOrEqual(2);
      expect(verdicts(judged.results)['storm.none-lost']).toBe('PASS');
    } finally {
      await embedded.close();
    }
  });
});

describe('the processor\'s hooks: one attempt logged and measured each, retries as the service makes them', () => {
  const settings: ProcessorSettings = {
    callbackUrl: 'http://127.0.0.1:9/cb?x=1', hasToken: true, tokenEnv: TOKEN_ENV, logDirEnv: LOG_DIR_ENV, runId: 'hooks', replyDeadlineMs: 100, timeoutMs: 200,
    maxAttempts: 3, backoffMs: 40, maxBackoffMs: 1000, timeScale: 0.05, logFormat: LOG_FORMAT, logFields: LOG_FIELDS, metrics: METRICS,
  };
  function hooks() {
    let clock = 1_000_000;
    const logDir = join(root, `hooks-${++folders}`);
    const processor = stormProcessor(settings, {
      composeCallbackUrl, tokenValue, env: { [TOKEN_ENV]: 'Secret-token', [LOG_DIR_ENV]: logDir }, now: () => clock,
      fs: { mkdirSync, openSync, writeSync },
      path: { join }, here: root, host: 'test', pid: 1, threadId: 0,
    });
    const emitted: string[] = [];
    const events = { emit: (kind: string, name: string, value: number) => emitted.push(`${kind} ${name} ${Math.round(value)}`) };
    return { processor, events, emitted, logDir, advance: (ms: number) => (clock += ms) };
  }
  const row = (token: string) => ({ vars: { row: '0', index: '3', copy: '1', token, when: 'late', atMs: '0', transaction_id: 'TX 1', status: 'SUCCESS', message: 'Payment received' } as Record<string, unknown> });
  const noop = () => {};

  it('a 503 with Retry-After: 1 is retried after 1 s × the time scale (50 ms), due then; a 200 in time ends the delivery', async () => {
    const { processor, events, emitted, logDir, advance } = hooks();
    const context = row('valid');
    processor.startDelivery(context, events, noop);
    const req = { url: '/', headers: {} as Record<string, string> };
    processor.composeCallback(req, context, events, noop);
    expect(req.url).toBe(composeCallbackUrl(settings.callbackUrl, { transaction_id: 'TX 1', status: 'SUCCESS', message: 'Payment received' }));
    expect(req.headers['x-callback-token']).toBe('Secret-token');
    advance(30);
    processor.recordReply(req, { statusCode: 503, headers: { 'retry-after': '1' } }, context, events, noop);
    expect(context.vars._ccAgain).toBe(50);
    const again = await new Promise<boolean>((resolve) => processor.sendAgain(context, resolve));
    expect(again).toBe(true);
    expect(context.vars._ccAttempt).toBe(2);
    processor.composeCallback(req, context, events, noop);
    advance(70);
    processor.recordReply(req, { statusCode: 200 }, context, events, noop);
    expect(await new Promise<boolean>((resolve) => processor.sendAgain(context, resolve))).toBe(false);
    expect(emitted).toEqual([
      `histogram ${METRICS.deliveryMs} 30`, `counter ${METRICS.shed} 1`, `counter ${METRICS.retries} 1`,
      `histogram ${METRICS.deliveryMs} 20`,
    ]);
    const plan = new StormPlan({ callbacks: 4, ratePerS: 1, duplicates: 2, badTokensPct: 0, seed: 1, tag: 'hooks' });
    const logs = readDeliveryLogs(logDir, plan)!;
    expect(logs.log.length).toBe(2);
    expect([logs.log.row(0).status, logs.log.row(0).retryAfterS, logs.log.row(1).attempt, logs.log.row(1).status]).toEqual([503, 1, 2, 200]);
  });
  it('no reply (Artillery\'s time-out): late with its elapsed time, counted unanswered, never retried (Artillery ends the user)', () => {
    const { processor, events, emitted, logDir, advance } = hooks();
    const context = row('valid');
    processor.startDelivery(context, events, noop);
    processor.composeCallback({ url: '/', headers: {} }, context, events, noop);
    advance(200);
    processor.recordNoReply(Object.assign(new Error('Timeout awaiting response'), { code: 'ETIMEDOUT' }), {}, context, events, noop);
    expect(emitted).toEqual([`histogram ${METRICS.deliveryMs} 200`, `counter ${METRICS.late} 1`, `counter ${METRICS.noReply} 1`, `counter ${METRICS.unansweredPrefix}3 1`]);
    const logs = readDeliveryLogs(logDir, new StormPlan({ callbacks: 4, ratePerS: 1, duplicates: 2, badTokensPct: 0, seed: 1, tag: 'hooks' }))!;
    expect(logs.log.row(0)).toMatchObject({ failure: 'timeout', status: 0, index: 3, copy: 1 });
  });
  it('a bad token: presented wrongly (or not at all), its 2xx counted, outside the valid deliveries\' times, never retried', () => {
    const { processor, events, emitted } = hooks();
    for (const kind of ['missing', 'one-char-extra'] as const) {
      const context = row(kind);
      processor.startDelivery(context, events, noop);
      const req = { url: '/', headers: { 'x-callback-token': 'left over' } as Record<string, string> };
      processor.composeCallback(req, context, events, noop);
      expect(req.headers['x-callback-token']).toBe(tokenValue(kind, 'Secret-token'));
      processor.recordReply(req, { statusCode: 200 }, context, events, noop);
      expect(context.vars._ccAgain).toBe(-1);
    }
    expect(emitted).toEqual([`counter ${METRICS.bad2xx} 1`, `counter ${METRICS.bad2xx} 1`]);
  });
});

describe('an export stopped while seeding (Ctrl-C) writes nothing', () => {
  it('the signal already given: refused as interrupted, the folder never made', async () => {
    const embedded = await startEmbeddedReceiver();
    const dir = folder();
    const stop = new AbortController();
    stop.abort();
    try {
      await expect(exportArtillery({ target: embedded.target, settings: SMALL, dir, signal: stop.signal })).rejects.toThrow('the export was interrupted while seeding: nothing written');
      expect(existsSync(dir)).toBe(false);
    } finally {
      await embedded.close();
    }
  });
});
