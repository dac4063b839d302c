// A storm observed through the receiver's own PostgreSQL database (examples/observe/supabase-payments's
// target file: seed and read statements, the status words mapped): the reference receiver on
// its SQL store PASSes every storm case, and with recent-ids-dedupe its database shows the
// outcomes applied twice (two payment events). End-to-end tier: a throwaway PostgreSQL server.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startEmbeddedReceiver } from '../../harness/embedded/index.ts';
import type { ReceiverFault } from '../../harness/receiver/index.ts';
import { runStorm, STORM_CASES } from '../../harness/storm/index.ts';
import { parseTarget } from '../../harness/targets/index.ts';
import { ROOT } from '../docs/rehearse.ts';
import { useDatabaseServer } from '../support/databases.ts';
import { describeNeeding } from '../support/programs.ts';

describeNeeding(['postgresql'], 'a storm observed through PostgreSQL', () => {
  const server = useDatabaseServer('postgresql');

  async function stormOn(faults: ReceiverFault[]) {
    const url = await server().fresh('storm');
    const embedded = await startEmbeddedReceiver({ replyDeadlineMs: 3000, hooks: false, faults, store: { url, mode: 'conditional-update' }, volume: { recentIds: 20 } });
    try {
      const file = JSON.parse(readFileSync(join(ROOT, 'examples/observe/supabase-payments/target.json'), 'utf8')) as Record<string, unknown>;
      file.callbackUrl = embedded.target.callbackUrl;
      const target = parseTarget(file, { COLLECT_CALLBACK_TOKEN: embedded.target.callbackToken, RECEIVER_DATABASE_URL: url });
      if (target.side !== 'receiver') throw new Error('a receiver target was expected');
      const run = await runStorm({ target, settings: { callbacks: 120, ratePerS: 40, duplicates: 2, badTokensPct: 10, seed: 9, tag: 'pg', settleMs: 500 } });
      return Object.fromEntries(run.results.map((r) => [r.id, r]));
    } finally {
      await embedded.close();
    }
  }

  it('the correct receiver: every storm case PASSes, its records read through the read and actions statements', async () => {
    const results = await stormOn([]);
    const explain = Object.values(results).filter((r) => r.verdict !== 'PASS').map((r) => `${r.id}: ${r.reason}`).join('\n');
    expect(Object.fromEntries(Object.values(results).map((r) => [r.id, r.verdict])), explain).toEqual(Object.fromEntries(STORM_CASES.map((c) => [c.id, 'PASS'])));
  }, 120_000);
  it('recent-ids-dedupe: storm.exactly-once FAILs, the database counting two payment events for an outcome', async () => {
    const results = await stormOn(['recent-ids-dedupe']);
    expect(results['storm.exactly-once']!.verdict).toBe('FAIL');
    const first = results['storm.exactly-once']!.evidence!.firstIds![0]!;
    expect(first.record).toMatch(/^(SUCCESS|FAILED), actions 2$/);
  }, 120_000);
});
