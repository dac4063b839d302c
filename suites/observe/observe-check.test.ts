// `observe-check` (harness/cli/commands/observe-check.ts, harness/observe/check.ts), issue 41:
// after the seed and read it always did, one valid callback for a record it seeds, as the
// service sends it, proves that the receiver sees the records the cases will seed. A refused
// token, a receiver that does not know the seeded record and a receiver not listening are each
// named once, with the key of the target file to look at. In-process: the reference receiver
// with its test hooks, and a front before it (suites/preflight/front.ts) for a receiver that
// keeps its records elsewhere.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { observeCheck } from '../../harness/cli/commands/observe-check.ts';
import { startEmbeddedReceiver } from '../../harness/embedded/index.ts';
import { stderrExcerpt } from '../../harness/line-protocol/index.ts';
import { UsageError } from '../../harness/tool/index.ts';
import { startedForDescribe } from '../support/per-describe.ts';
import { freePort } from '../support/free-port.ts';
import { startFront } from '../preflight/front.ts';

const dir = mkdtempSync(join(tmpdir(), 'cc-observe-check-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let count = 0;

/** Runs observe-check on a target file with these keys; its printed lines, or the UsageError's message. */
async function check(file: Record<string, unknown>, token: string): Promise<{ code: number | 'usage'; out: string; message?: string }> {
  const path = join(dir, `target-${++count}.json`);
  writeFileSync(path, JSON.stringify({ side: 'receiver', callbackToken: { env: 'RCV_TOKEN' }, timing: { replyDeadlineMs: 500 }, ...file }));
  let out = '';
  try {
    const code = await observeCheck(path, { stdout: (t) => { out += t; }, env: { RCV_TOKEN: token }, cwd: dir });
    return { code, out };
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    return { code: 'usage', out, message: error.message };
  }
}

describe('observe-check sends one valid callback for a record it seeds: the receiver sees the records the cases seed', () => {
  const receiver = startedForDescribe(() => startEmbeddedReceiver({ timeScale: 0.02, replyDeadlineMs: 500 }));
  const keys = () => ({ callbackUrl: receiver().target.callbackUrl, hooksUrl: receiver().receiver.hooksUrl });
  it('the receiver\'s own token: the callback is applied, each step printed, exit 0', async () => {
    const ran = await check(keys(), receiver().target.callbackToken!);
    expect(ran.code, ran.message).toBe(0);
    expect(ran.out).toMatch(/^seed "cc-[^"]+" \(amount 10\.00\) for one callback: done \(this record stays, as a case's does\)$/m);
    expect(ran.out).toMatch(/^callback GET http:\/\/127\.0\.0\.1:\d+\/callback\?transaction_id=…&status=SUCCESS&message=… with X-Callback-Token from RCV_TOKEN: answered 200 \{"result":"applied","state":"SUCCESS"\}$/m);
    expect(ran.out).toMatch(/^ok: the receiver applied a valid callback for a record this observe seeded \(state SUCCESS, actions 1\): it sees the records the cases seed$/m);
    expect(ran.out).not.toContain(receiver().target.callbackToken!);
  });
  it('a wrong token: /callbackToken named, with the variable to check, and never the token', async () => {
    const ran = await check(keys(), 'not-the-receivers-token-41');
    expect(ran.code).toBe('usage');
    expect(ran.message).toMatch(/: \/callbackToken: the receiver refused the configured token \(answered 403 \{"error".*\}\): check that RCV_TOKEN holds the receiver's token$/);
    expect(`${ran.out}${ran.message}`).not.toContain('not-the-receivers-token-41');
  });
  it('a receiver that does not know the seeded record (its records elsewhere): /hooksUrl named, the record still pending', async () => {
    const front = await startFront(receiver(), (_req, res) => res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"unknown transaction"}'));
    try {
      const hooks = front.target.observe?.kind === 'hooks' ? front.target.observe.url : '';
      const ran = await check({ callbackUrl: front.target.callbackUrl, hooksUrl: hooks }, receiver().target.callbackToken!);
      expect(ran.code).toBe('usage');
      expect(ran.message).toMatch(/: \/hooksUrl: the receiver answered 404 \{"error":"unknown transaction"\} to a valid callback for the record this check seeded, and the record still reads state pending, actions 0: likely the receiver does not see the records this observe seeds/);
    } finally {
      await front.close();
    }
  });
  it('a receiver not listening: /callbackUrl named once, with the hint; the hooks refused the same way get it too', async () => {
    const port = await freePort();
    const ran = await check({ callbackUrl: `http://127.0.0.1:${port}/callback`, hooksUrl: receiver().receiver.hooksUrl }, receiver().target.callbackToken!);
    expect(ran.code).toBe('usage');
    expect(ran.message).toMatch(new RegExp(`: /callbackUrl: the callback to http://127\\.0\\.0\\.1:${port}/callback got no answer: [^()]*\\(ECONNREFUSED\\) \\(is the receiver listening on 127\\.0\\.0\\.1:${port}\\?\\)$`));
    expect(ran.message!.match(/ECONNREFUSED/g)).toHaveLength(1);
    const hooks = await check({ callbackUrl: receiver().target.callbackUrl, hooksUrl: `http://127.0.0.1:${port}/_conformance` }, receiver().target.callbackToken!);
    expect(hooks.message).toMatch(new RegExp(`\\(ECONNREFUSED\\) \\(is the receiver listening on 127\\.0\\.0\\.1:${port}\\?\\)$`));
    expect(hooks.message!.match(/ECONNREFUSED/g)).toHaveLength(1);
  });
  it('no callbackToken in the target: no callback is sent, and it says why', async () => {
    const path = join(dir, `target-${++count}.json`);
    writeFileSync(path, JSON.stringify({ side: 'receiver', ...keys() }));
    let out = '';
    expect(await observeCheck(path, { stdout: (t) => { out += t; }, env: {}, cwd: dir })).toBe(0);
    expect(out).toMatch(/^no callback sent: the target names no callbackToken; the run's preflight tells a receiver that does not know the seeded records$/m);
  });
});

describe('a command\'s stderr in a message: whole lines, the line naming the error kept when more came after it', () => {
  it('Node\'s missing module: "Cannot find module" kept before the last lines; blank lines, carets and stack frames left out', () => {
    const node = [
      'node:internal/modules/cjs/loader:1228', '  throw err;', '  ^', '', "Error: Cannot find module './observer.js'", 'Require stack:', '- /app/[eval]',
      '    at Module._resolveFilename (node:internal/modules/cjs/loader:1225:15)', '    at Module._load (node:internal/modules/cjs/loader:1051:27)', '{',
      "  code: 'MODULE_NOT_FOUND',", "  requireStack: [ '/app/[eval]' ]", '}', '', 'Node.js v20.20.2',
    ];
    expect(stderrExcerpt(node)).toBe("last stderr: Error: Cannot find module './observer.js' | … | { | code: 'MODULE_NOT_FOUND', | requireStack: [ '/app/[eval]' ] | } | Node.js v20.20.2");
  });
  it('a short stderr is shown whole; none is said so', () => {
    expect(stderrExcerpt(["python3: can't open file '/app/observer.py': [Errno 2] No such file or directory"])).toBe("last stderr: python3: can't open file '/app/observer.py': [Errno 2] No such file or directory");
    expect(stderrExcerpt([])).toBe('no stderr output');
  });
});
