// An https receiver: the target's "ca" is trusted for callbacks and hooks; without it the
// certificate is refused and the cases ERROR (the harness could not run them), not FAIL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RECEIVER_CASES } from '../../harness/cases/index.ts';
import { startEmbeddedReceiver, type EmbeddedReceiver } from '../../harness/embedded/index.ts';
import { listenerTls } from '../../harness/listener/index.ts';
import { loadTargetFile } from '../../harness/targets/index.ts';
import { runCases } from '../../harness/runner/index.ts';

const ONLY = 'receiver.token.valid,receiver.token.wrong,receiver.latency.single';
let embedded: EmbeddedReceiver;

beforeAll(async () => {
  const tls = await listenerTls();
  embedded = await startEmbeddedReceiver({ timeScale: 0.02, replyDeadlineMs: 300, tls: { key: tls.key, cert: tls.cert, ca: tls.caCert } });
});
afterAll(async () => embedded.close());

describe('target "ca": https receivers', () => {
  it('a target file with "ca": {"file"} runs over https and PASSes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cc-https-'));
    writeFileSync(join(dir, 'ca.pem'), embedded.target.caCert!);
    writeFileSync(join(dir, 'target.json'), JSON.stringify({
      side: 'receiver', callbackUrl: embedded.target.callbackUrl, hooksUrl: embedded.receiver.hooksUrl,
      callbackToken: { env: 'HTTPS_TOKEN' }, timing: { replyDeadlineMs: 300 }, ca: { file: 'ca.pem' },
    }));
    const target = loadTargetFile(join(dir, 'target.json'), { HTTPS_TOKEN: embedded.target.callbackToken });
    if (target.side !== 'receiver') throw new Error('expected a receiver target');
    expect(target.callbackUrl).toMatch(/^https:/);
    const results = await runCases({ cases: RECEIVER_CASES, target, seed: 3, only: ONLY });
    expect(results.map((r) => `${r.id} ${r.verdict} ${r.reason ?? ''}`.trim())).toEqual([
      'receiver.token.wrong PASS', 'receiver.token.valid PASS', 'receiver.latency.single PASS',
    ]);
  });
  it('without the CA the certificate is refused: ERROR naming the TLS problem', async () => {
    const { caCert: _unused, ...untrusting } = embedded.target;
    void _unused;
    const results = await runCases({ cases: RECEIVER_CASES, target: untrusting, seed: 3, only: 'receiver.token.valid' });
    expect(results[0]?.verdict).toBe('ERROR');
    expect(results[0]?.reason).toMatch(/certificate/i);
  });
});
