// `collect-conformance storm`'s flags and its refusals, in this process: exit 2 naming the flag or
// the target file's problem, exit 3 for a receiver that cannot be reached. The storms themselves
// run in cli.test.ts (end-to-end tier).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startEmbeddedReceiver } from '../../harness/embedded/index.ts';
import { parseStormRate, settingsFromFlags, STORM_DEFAULTS } from '../../harness/cli/commands/storm.ts';
import { runHere } from '../support/cli-here.ts';
import { freePort } from '../support/free-port.ts';

const dir = mkdtempSync(join(tmpdir(), 'storm-flags-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, value: unknown) => {
  const path = join(dir, name);
  writeFileSync(path, JSON.stringify(value));
  return path;
};

describe('storm flags: defaults that fit one machine, each bad value named', () => {
  it('the defaults: 6000 callbacks twice at 200/s, 5 % bad tokens, 5 attempts (a storm of about a minute)', () => {
    const s = settingsFromFlags({}, () => 7);
    expect(s).toMatchObject({ callbacks: 6000, ratePerS: 200, duplicates: 2, badTokensPct: 5, seed: 7, driver: { maxAttempts: 5, connections: 256 } });
    expect((STORM_DEFAULTS.callbacks * STORM_DEFAULTS.duplicates) / STORM_DEFAULTS.rate).toBe(60);
  });
  it('a rate as N, N/s or N/min', () => {
    expect([parseStormRate('50'), parseStormRate('50/s'), parseStormRate('600/min')]).toEqual([50, 50, 10]);
  });
  it.each([
    [['--rate', '0'], '--rate must be deliveries per second'],
    [['--rate', 'fast'], '--rate must be deliveries per second'],
    [['--callbacks', '0'], '--callbacks must be a whole number >= 1 (got 0)'],
    [['--callbacks', 'many'], '--callbacks must be a whole number (got "many")'],
    [['--duplicates', '64'], '--duplicates must be a whole number from 1 to 63 (got 64)'],
    [['--bad-tokens', '120'], '--bad-tokens must be a share from 0 to 100 % (got 120)'],
    [['--bad-tokens', 'some'], '--bad-tokens must be a share in % from 0 to 100 (got "some")'],
    [['--max-attempts', '0'], '--max-attempts must be 1 or more'],
  ])('storm %j: exit 2 naming it', async (args, message) => {
    const ran = await runHere(['storm', ...args]);
    expect([ran.code, ran.stderr]).toEqual([2, expect.stringContaining(message)]);
  });
});

describe('storm targets: a receiver whose records can be seen, reachable', () => {
  it('a service target file: exit 2, a storm is sent to a receiver', async () => {
    const service = file('service.json', {
      side: 'service', mode: 'sandbox', baseUrl: 'http://127.0.0.1:9', clientId: 2, clientKey: { env: 'K' }, secretKey: { env: 'S' }, networkCode: 'MTN',
      customerNumbers: { whitelisted: ['0244000001'], notWhitelisted: ['0244999999'] },
    });
    const ran = await runHere(['storm', '--target', service], { K: 'client-key-1234', S: 'secret-key-1234' });
    expect([ran.code, ran.stderr]).toEqual([2, expect.stringContaining('is a service target; a storm is sent to a receiver')]);
  });
  it('a receiver target without hooksUrl or observe: exit 2, the verdicts rest on its records', async () => {
    const blind = file('blind.json', { side: 'receiver', callbackUrl: 'http://127.0.0.1:9/callback' });
    const ran = await runHere(['storm', '--target', blind]);
    expect([ran.code, ran.stderr]).toEqual([2, expect.stringContaining('names neither hooksUrl nor observe')]);
  });
  it('a receiver nobody listens for: exit 3, nothing seeded', async () => {
    const port = await freePort();
    const gone = file('gone.json', { side: 'receiver', callbackUrl: `http://127.0.0.1:${port}/callback`, hooksUrl: `http://127.0.0.1:${port}/_conformance` });
    const ran = await runHere(['storm', '--target', gone, '--report-dir', join(dir, 'reports')]);
    expect([ran.code, ran.stderr]).toEqual([3, expect.stringContaining(`cannot reach http://127.0.0.1:${port}`)]);
  });
});

describe('storm --export artillery DIR and --judge DIR: flags that go together, each misuse named', () => {
  it.each([
    [['--export', 'artillery'], '--export takes an engine and a folder: --export artillery DIR'],
    [['--export', 'k6', 'out'], '--export takes an engine and a folder: --export artillery DIR (got "k6 out"; artillery is the one engine)'],
    [['--export', 'artillery', 'out'], '--export needs --target: the records it seeds must still be there when Artillery runs'],
    [['--judge', 'out'], '--judge needs --target'],
    [['--export', 'artillery', 'out', '--judge', 'out'], '--export and --judge go in two commands'],
    [['--artillery-report', 'r.json'], '--artillery-report goes with --judge DIR'],
    [['--judge', 'out', '--target', 'receiver.json', '--callbacks', '5'], '--callbacks does not go with --judge: the plan is the one exported (storm-plan.json)'],
  ])('storm %j: exit 2 naming it', async (args, message) => {
    const ran = await runHere(['storm', ...args]);
    expect([ran.code, ran.stderr]).toEqual([2, expect.stringContaining(message)]);
  });
  it('storm --help names both, the token\'s variable and run-fargate', async () => {
    const ran = await runHere(['storm', '--help']);
    expect(ran.stdout).toContain('--export <engine...>');
    expect(ran.stdout).toContain('--judge <dir>');
    expect(ran.stdout).toContain('run-fargate --count N\n--secret COLLECT_CALLBACK_TOKEN');
  });
});

describe('storm --export then --judge through the command, against the reference receiver', () => {
  it('export: records seeded, the files and the next commands printed, exit 0; judge before Artillery ran: exit 2; judge on a report: the four files', async () => {
    const embedded = await startEmbeddedReceiver();
    try {
      const target = file('artillery-receiver.json', {
        side: 'receiver', callbackUrl: embedded.target.callbackUrl, callbackToken: { env: 'STORM_FLAGS_TOKEN' }, hooksUrl: embedded.receiver.hooksUrl, timing: { replyDeadlineMs: 1000 },
      });
      const env = { STORM_FLAGS_TOKEN: embedded.target.callbackToken };
      const out = join(dir, 'export');
      const exported = await runHere(['storm', '--target', target, '--export', 'artillery', out, '--callbacks', '12', '--rate', '50', '--seed', '3'], env);
      expect([exported.code, exported.stderr]).toEqual([0, expect.stringContaining('seeding 12 records through hooks')]);
      expect(exported.stdout).toContain('12 callbacks × 2 (24 deliveries, 1 s at 50/s)');
      expect(exported.stdout).toContain(`COLLECT_CALLBACK_TOKEN=… artillery run --output ${join(out, 'report.json')} ${join(out, 'storm.yml')}`);
      expect(exported.stdout).not.toContain(embedded.target.callbackToken);
      const early = await runHere(['storm', '--target', target, '--judge', out, '--report-dir', join(dir, 'judged')], env);
      expect([early.code, early.stderr]).toEqual([2, expect.stringContaining('neither delivery logs')]);
      // Artillery's report of a run in which every delivery was answered 2xx, yet nothing was applied (no delivery reached this receiver): every outcome lost.
      writeFileSync(join(out, 'report.json'), JSON.stringify({ aggregate: { counters: { 'vusers.created': 24, 'http.codes.200': 24 }, summaries: { 'collect.delivery_ms': { count: 24, p50: 3, p99: 9, max: 9 } } } }));
      const judged = await runHere(['storm', '--target', target, '--judge', out, '--report-dir', join(dir, 'judged')], env);
      expect(judged.code).toBe(1);
      expect(judged.stdout).toMatch(/FAIL {2}storm\.none-lost .*answered 2xx at least once and never applied/);
      expect(judged.stdout).toContain('report.json, junit.xml, report.md, index.html');
      const report = JSON.parse(readFileSync(join(dir, 'judged', 'report.json'), 'utf8')) as { seed: number; cases: Array<{ id: string }> };
      expect([report.seed, report.cases.map((c) => c.id)]).toEqual([3, ['storm.exactly-once', 'storm.none-lost', 'storm.bad-token-inert', 'storm.reply-deadline', 'storm.shedding']]);
    } finally {
      await embedded.close();
    }
  });
});
