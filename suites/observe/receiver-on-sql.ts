// Issue 23 "Done when", run on each database's server (observe-postgres.test.ts,
// observe-mariadb.test.ts, so the two servers' runs go side by side): each fault switch of the
// reference receiver, keeping its records in PostgreSQL (a Supabase-style payments table) or
// MariaDB (a Laravel-style orders table), is caught through `observe` by exactly the cases that
// catch it through the test hooks (fault-catalog.ts), and a correct receiver on each (both ways
// of applying only while pending) is all PASS. The receiver has no hooks here: the harness reads
// its tables through the example target files a team would copy (examples/observe/), and
// through a command observer too.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { startEmbeddedReceiver } from '../../harness/embedded/index.ts';
import type { ReceiverFault, SqlApplyMode } from '../../harness/receiver/index.ts';
import type { CaseResult } from '../../harness/results/index.ts';
import { parseTarget, type ResolvedReceiverTarget } from '../../harness/targets/index.ts';
import { RECEIVER_FAULT_CATALOG, type ReceiverFaultEntry } from '../self-test/fault-catalog.ts';
import { CONFIRMING_TIMING, expectAllPass, expectFaultCaught, RECEIVER_TIMING } from '../self-test/receiver-fault-check.ts';
import type { DatabaseKind, TestDatabaseServer } from '../support/databases.ts';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SEED = Number(process.env.CC_SEED ?? 4242);
export const EXAMPLE: Record<DatabaseKind, string> = { postgresql: 'supabase-payments', mariadb: 'laravel-orders' };
const PAYMENTS_OBSERVER = join(ROOT, 'suites/observe/fixtures/payments-observer.mjs');

export type Way = 'sql' | 'command';

/**
 * Receiver runs at once in this file: each runs the reference receiver, its database pool and
 * the harness's in this worker's one event loop, so five at once (vitest's default) left a
 * callback unanswered for a second on a loaded 2-core machine; three keep the loop responsive.
 */
const RUNS_AT_ONCE = 3;
let running = 0;
const queued: Array<() => void> = [];

/** Runs `work` once fewer than RUNS_AT_ONCE receiver runs are under way. */
async function inTurn<T>(work: () => Promise<T>): Promise<T> {
  if (running >= RUNS_AT_ONCE) await new Promise<void>((start) => queued.push(start));
  running++;
  try {
    return await work();
  } finally {
    running--;
    queued.shift()?.();
  }
}

interface Observed {
  target: ResolvedReceiverTarget;
  close(): Promise<void>;
}

/**
 * The reference receiver (no hooks) on a fresh database of `server`, and the target a team
 * would write for it: the example's target file (way `sql`), or a command observer (`command`).
 */
async function observedReceiver(
  server: TestDatabaseServer, way: Way, options: { faults?: ReceiverFault[]; mode?: SqlApplyMode; timing?: ReceiverFaultEntry['timing']; confirms?: boolean } = {},
): Promise<Observed> {
  const url = await server.fresh('receiver');
  // Deadlines four times the hooks' (suites/self-test): each callback here waits on a database
  // server, which a machine busy with the end-to-end tier starves; no fault run here is one of
  // reply time.
  const timing = options.timing ?? (options.confirms ? { ...CONFIRMING_TIMING, replyDeadlineMs: 4 * CONFIRMING_TIMING.replyDeadlineMs } : { ...RECEIVER_TIMING, replyDeadlineMs: 4 * RECEIVER_TIMING.replyDeadlineMs });
  const embedded = await startEmbeddedReceiver({
    ...timing, hooks: false, faults: options.faults ?? [], store: { url, mode: options.mode ?? 'conditional-update' }, ...(options.confirms ? { confirms: true } : {}),
  });
  const file = JSON.parse(readFileSync(join(ROOT, 'examples/observe', EXAMPLE[server.kind], 'target.json'), 'utf8')) as Record<string, unknown>;
  file.callbackUrl = embedded.target.callbackUrl;
  file.timing = { replyDeadlineMs: timing.replyDeadlineMs };
  if (way === 'command') {
    const urlFile = join(mkdtempSync(join(tmpdir(), 'cc-observer-')), 'database-url');
    writeFileSync(urlFile, url, { mode: 0o600 });
    file.observe = { command: `node ${PAYMENTS_OBSERVER} ${urlFile}`, states: (file.observe as { states: unknown }).states };
  }
  const parsed = parseTarget(file, { COLLECT_CALLBACK_TOKEN: embedded.target.callbackToken, RECEIVER_DATABASE_URL: url });
  if (parsed.side !== 'receiver') throw new Error('a receiver target was expected');
  // A confirming receiver's target says so: the status endpoint the harness serves for it.
  const target: ResolvedReceiverTarget = embedded.target.confirms ? { ...parsed, confirms: embedded.target.confirms } : parsed;
  return { target, close: () => embedded.close() };
}

/** A FAIL about the record shows how it was read: the statements (or requests), their parameters and rows. */
function expectReadEvidence(results: readonly CaseResult[], way: Way): void {
  for (const r of results.filter((x) => (x.verdict === 'FAIL' || x.verdict === 'WARN') && /the record (reads|changed)/.test(x.reason ?? ''))) {
    const records = r.evidence?.records as { way?: string; after?: { read?: Array<Record<string, unknown>> } } | undefined;
    expect(records?.way, r.id).toMatch(way === 'sql' ? /^sql \((PostgreSQL|MySQL\/MariaDB) at \w+:\/\/app:\*\*\*@127\.0\.0\.1:\d+\// : /^command \(node /);
    const step = records?.after?.read?.[0];
    expect(step, r.id).toMatchObject(way === 'sql' ? { statement: 'read', parameters: { transaction_id: expect.any(String) }, rows: expect.any(Array) } : { request: { op: 'read' } });
  }
}

/**
 * The faults whose cases FAIL on what the record shows (the answers alone would pass them): the
 * ones a reader of records must get right. The others FAIL on answers, whoever reads the records,
 * and suites/self-test runs each of them through the hooks; through a database or a command
 * observer only these are run (and, through the database, the faults of a confirming receiver).
 */
const CAUGHT_BY_THE_RECORD = new Set([
  'act-then-403', 'not-idempotent', 'racy-idempotence', 'status-ignored', 'unknown-status-applied', 'unknown-id-created',
  'inverted-status', 'failed-not-final', 'not-success-as-failed',
]);

/** The reference receiver on `server` (of `kind`), observed each way in `ways`. */
export function receiverOnSqlSuite(kind: DatabaseKind, server: () => TestDatabaseServer, ways: readonly Way[]): void {
  describe(`the reference receiver keeping its records in ${kind}`, () => {
    for (const way of ways) {
      describe(`observed through ${way === 'sql' ? `its database (examples/observe/${EXAMPLE[kind]})` : 'a command of its own (the line protocol)'}`, () => {
        const modes: SqlApplyMode[] = way === 'sql' ? ['conditional-update', 'select-for-update'] : ['conditional-update'];
        for (const mode of modes) {
          it(`a correct receiver (${mode}): every receiver case PASSes, the confirm cases SKIP: it does not confirm (seed ${SEED})`, async () => {
            const observed = await observedReceiver(server(), way, { mode });
            try {
              await expectAllPass(observed.target, SEED);
            } finally {
              await observed.close();
            }
          });
        }
        // The confirm faults are run through the database (a reader of records more is no news to them).
        if (way === 'sql') {
          it(`a correct receiver confirming its outcomes (§6 rule 5): every receiver case PASSes (seed ${SEED})`, async () => {
            const observed = await observedReceiver(server(), way, { confirms: true });
            try {
              await expectAllPass(observed.target, SEED);
            } finally {
              await observed.close();
            }
          });
        }
        const entries = RECEIVER_FAULT_CATALOG.filter((e) => CAUGHT_BY_THE_RECORD.has(e.fault) || (way === 'sql' && e.confirms === true));
        describe.concurrent(`${way === 'sql' ? 'each fault switch caught by the record, and of a confirming receiver,' : 'each fault switch caught by the record'} is caught by the cases that catch it through the hooks`, () => {
          for (const entry of entries) {
            it(`${entry.fault}: ${entry.caseIds.length} case(s) ${entry.expect}`, () => inTurn(async () => {
              const observed = await observedReceiver(server(), way, {
                faults: [entry.fault as ReceiverFault], ...(entry.timing ? { timing: entry.timing } : {}), ...(entry.confirms ? { confirms: true } : {}),
              });
              try {
                expectReadEvidence(await expectFaultCaught(entry, observed.target, SEED, { scope: 'groups' }), way);
              } finally {
                await observed.close();
              }
            }), 60_000);
          }
        });
      });
    }
  });
}
