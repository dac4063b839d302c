// Not a test: measures a full run (every case of a side) against a hung target, for the
// record (`node bin/run-ts.js suites/hostile/measure-full.ts`). The suite's own runs use subsets.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startHostile, type Behaviour } from './hostile-server.ts';

const dir = mkdtempSync(join(tmpdir(), 'cc-hostile-full-'));
const CLI = new URL('./fixtures/measured-cli.mjs', import.meta.url).pathname;
const env = { ...process.env, H_CLIENT_KEY: 'ck-hostile-0001', H_SECRET_KEY: 'sk-hostile-0002', H_TOKEN: 'tok-hostile-0003' };
const behaviour = (process.argv[2] ?? 'hang') as Behaviour;

for (const side of ['receiver', 'service'] as const) {
  const server = await startHostile(behaviour);
  const target = side === 'receiver'
    ? { side, callbackUrl: `${server.url}/cb`, hooksUrl: `${server.url}/h`, callbackToken: { env: 'H_TOKEN' }, timing: { replyDeadlineMs: 1000 } }
    : {
        side, baseUrl: server.url, mode: 'sandbox', clientId: 2, clientKey: { env: 'H_CLIENT_KEY' }, secretKey: { env: 'H_SECRET_KEY' },
        callbackToken: { env: 'H_TOKEN' }, networkCode: 'MTN', customerNumbers: { whitelisted: ['0244000001'] },
        sources: { notWhitelisted: { localAddress: '127.0.0.2' } }, timing: { callbackTimeoutMs: 1000, retryWindowMs: 1000 },
      };
  const file = join(dir, `${side}.json`);
  writeFileSync(file, JSON.stringify(target));
  const measure = join(dir, `${side}.measure.json`);
  const started = Date.now();
  const code = await new Promise<number | null>((resolve) => {
    const child = spawn(process.execPath, [CLI, 'run', '--target', file, '--report-dir', join(dir, side)], { env: { ...env, CC_MEASURE_FILE: measure }, stdio: 'ignore' });
    child.on('close', resolve);
  });
  const { maxRssKiB } = JSON.parse(readFileSync(measure, 'utf8')) as { maxRssKiB: number };
  const report = JSON.parse(readFileSync(join(dir, side, 'report.json'), 'utf8')) as { summary: Record<string, number> };
  console.log(`${side} ${behaviour}: exit ${code}, ${Date.now() - started} ms, peak ${Math.round(maxRssKiB / 1024)} MiB, ${JSON.stringify(report.summary)}`);
  await server.close();
}
