// The line protocol driver (DESIGN.md "Signers in other languages") against fixture signers
// written in plain Node: a correct one, two classic canonicalisation mistakes, and signers that
// crash, hang, print garbage, answer under another id, or cannot start. The signers whose
// verdicts rest on no timing run at once, and with them the signers that cannot start (an exit
// at once is judged against the 5 s start grace, long beside it even on a loaded machine); those
// judged by a measured time after them, alone.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rmSync } from 'node:fs';
import {
  readRawJsonObject, pairsOfMembers, joinPairs, hmacHex, profileOf, findAlternative, SUITE_PROFILE,
} from '../../harness/signing/index.ts';
import { HELLO_LIMIT_MS } from '../../harness/line-protocol/index.ts';
import { loadVectorFile, type SignatureVector } from '../../harness/vectors/index.ts';
import { leastMeasured } from '../support/timing.ts';
import { writeFixtureVectors } from './fixture-vectors.ts';
import { fixtureCommand, runSigner, REAL_VECTORS_PRESENT, type SignerRun } from './helpers.ts';

let dir: string;
beforeAll(() => {
  dir = writeFixtureVectors();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** What a signer following `label` should get on `v`, computed from harness/signing. */
function expectedVerdict(v: SignatureVector, label: string): 'PASS' | 'FAIL' | 'WARN' {
  const members = readRawJsonObject(v.body);
  const message = joinPairs(pairsOfMembers(members, profileOf(findAlternative(label)!)));
  if (v.result === 'invalid') return hmacHex(v.secret, message) === v.presentedSignature ? 'FAIL' : 'PASS';
  if (message === joinPairs(pairsOfMembers(members, SUITE_PROFILE))) return 'PASS';
  return v.result === 'valid' ? 'FAIL' : 'WARN';
}

function checkAgainst(run: SignerRun, tests: SignatureVector[], label: string): void {
  const differing: string[] = [];
  for (const v of tests) {
    const id = `vectors.signature.${v.tcId}`;
    const got = run.byId.get(id);
    const want = expectedVerdict(v, label);
    expect(got?.verdict, `${id} (${v.comment})`).toBe(want);
    if (want !== 'PASS' && v.result !== 'invalid') {
      differing.push(id);
      expect(got?.reason, `${id} names the alternative`).toContain(`\`${label}\``);
    }
  }
  expect(differing.length, `some vectors exercise ${label}`).toBeGreaterThan(0);
}

describe.concurrent('a correct signer passes every vector', () => {
  it('fixture set', async () => {
    const run = await runSigner(fixtureCommand('correct-signer.mjs'), dir);
    expect(run.results).toHaveLength(8);
    expect(run.results.filter((r) => r.verdict !== 'PASS')).toEqual([]);
    expect(run.signer.starts).toBe(1);
  });
  it.runIf(REAL_VECTORS_PRESENT)('published vectors/signature.json', async () => {
    const run = await runSigner(fixtureCommand('correct-signer.mjs'), undefined);
    expect(run.results.length).toBe(loadVectorFile('signature').tests.length);
    expect(run.results.filter((r) => r.verdict !== 'PASS').map((r) => `${r.id}: ${r.reason}`)).toEqual([]);
  });
});

describe.concurrent('answers written in pieces, ended by CRLF, with heavy stderr output, are read whole', () => {
  it('fixture set: every vector PASS on one start', async () => {
    const run = await runSigner(fixtureCommand('chunky-signer.mjs'), dir);
    expect(run.results).toHaveLength(8);
    expect(run.results.filter((r) => r.verdict !== 'PASS').map((r) => `${r.id}: ${r.reason}`)).toEqual([]);
    expect(run.signer.starts).toBe(1);
  });
});

describe.concurrent('a signer sorting keys with localeCompare is named `locale-order` on exactly the vectors whose order differs', () => {
  it('fixture set', async () => {
    const run = await runSigner(fixtureCommand('locale-signer.mjs'), dir);
    checkAgainst(run, loadVectorFile('signature', { dir }).tests, 'locale-order');
    expect(run.byId.get('vectors.signature.2')?.verdict).toBe('FAIL');
    expect(run.byId.get('vectors.signature.3')?.verdict).toBe('WARN');
  });
  it.runIf(REAL_VECTORS_PRESENT)('published vectors/signature.json', async () => {
    const run = await runSigner(fixtureCommand('locale-signer.mjs'), undefined);
    checkAgainst(run, loadVectorFile('signature').tests, 'locale-order');
  });
});

describe.concurrent('a signer URL-encoding values is named `url-encoded-values`', () => {
  it('fixture set', async () => {
    const run = await runSigner(fixtureCommand('encoding-signer.mjs'), dir);
    checkAgainst(run, loadVectorFile('signature', { dir }).tests, 'url-encoded-values');
    expect(run.byId.get('vectors.signature.1')?.verdict).toBe('FAIL');
    expect(run.byId.get('vectors.signature.7')?.verdict).toBe('FAIL');
  });
  it.runIf(REAL_VECTORS_PRESENT)('published vectors/signature.json', async () => {
    const run = await runSigner(fixtureCommand('encoding-signer.mjs'), undefined);
    checkAgainst(run, loadVectorFile('signature').tests, 'url-encoded-values');
  });
});

describe.concurrent('ERR_SIGNER_CRASHED: a signer that exits mid-run is restarted for the rest', () => {
  it('crash after 3 vectors', async () => {
    const run = await runSigner(fixtureCommand('crash-signer.mjs', '3'), dir);
    const verdicts = run.results.map((r) => r.verdict);
    // 3 answers, crash on the 4th, restart: 3 more answers, crash on the 8th.
    expect(verdicts).toEqual(['PASS', 'PASS', 'PASS', 'ERROR', 'PASS', 'PASS', 'PASS', 'ERROR']);
    const crash = run.byId.get('vectors.signature.4')!;
    expect(crash.reason).toMatch(/^ERR_SIGNER_CRASHED: /);
    expect(crash.reason).toContain('exited with code 3');
    expect(crash.reason).toContain('fixture: giving up on vectors.signature.4');
    expect(run.signer.starts).toBe(2);
  });
});

describe.concurrent('ERR_SIGNER_PROTOCOL: a line that is not an answer is ERROR for that vector, and the run goes on', () => {
  it('garbage instead of one answer', async () => {
    const run = await runSigner(fixtureCommand('garbage-signer.mjs', 'vectors.signature.5'), dir);
    const bad = run.byId.get('vectors.signature.5')!;
    expect(bad.verdict).toBe('ERROR');
    expect(bad.reason).toBe('ERR_SIGNER_PROTOCOL: the line is not JSON: "signing vectors.signature.5..."');
    expect(run.results.filter((r) => r.verdict !== 'PASS').map((r) => r.id)).toEqual(['vectors.signature.5']);
  });
  for (const stream of ['stdout', 'stderr']) {
    it(`a line on ${stream} that never ends: killed past 1 MiB, ERROR for that vector only`, async () => {
      const run = await runSigner(fixtureCommand('endless-line-signer.mjs', 'vectors.signature.5', stream), dir);
      const bad = run.byId.get('vectors.signature.5')!;
      expect(bad.verdict).toBe('ERROR');
      expect(bad.reason).toContain(`ERR_SIGNER_PROTOCOL: the signer wrote more than 1048576 bytes on ${stream} without ending the line`);
      expect(run.results.filter((r) => r.verdict !== 'PASS').map((r) => r.id)).toEqual(['vectors.signature.5']);
    });
  }
  it('garbage on every line: three tries, then the rest are not sent', async () => {
    const run = await runSigner(fixtureCommand('garbage-signer.mjs'), dir);
    expect(run.results.map((r) => r.verdict)).toEqual(Array(8).fill('ERROR'));
    expect(run.results.every((r) => r.reason?.startsWith('ERR_SIGNER_PROTOCOL: '))).toBe(true);
    expect(run.signer.starts).toBe(3);
  });
  it('an answer under another id', async () => {
    const run = await runSigner(fixtureCommand('wrong-id-signer.mjs'), dir);
    expect(run.byId.get('vectors.signature.1')?.reason).toBe(
      'ERR_SIGNER_PROTOCOL: answer for id "vectors.signature.1x" while waiting for "vectors.signature.1"',
    );
    expect(run.results.every((r) => r.verdict === 'ERROR')).toBe(true);
  });
});

describe.concurrent('ERR_SIGNER_START: a command that exits at once is tried twice, not once per vector', () => {
  it.each([
    ['a script that exits at once', fixtureCommand('cannot-start-signer.mjs'), 'fixture: missing configuration'],
    ['a command that does not exist', 'collect-conformance-no-such-signer', 'not found'],
  ])('%s', async (_name, command, stderr) => {
    const run = await runSigner(command, dir);
    expect(run.results.map((r) => r.verdict)).toEqual(Array(8).fill('ERROR'));
    expect(run.results[0]?.reason).toMatch(/^ERR_SIGNER_START: the signer exited with code \d+ right after starting/);
    expect(run.results[0]?.reason).toContain(stderr);
    expect(run.results[1]?.reason).toMatch(/^ERR_SIGNER_START: the signer exited/);
    expect(run.results[2]?.reason).toMatch(/^ERR_SIGNER_START: not sent: the signer command cannot be started/);
    expect(run.results[7]?.reason).toMatch(/^ERR_SIGNER_START: not sent: the signer command cannot be started/);
    expect(run.signer.starts).toBe(2);
  });
  it('a signer that dies on the first body only is restarted and signs the rest', async () => {
    const run = await runSigner(fixtureCommand('crash-signer.mjs', 'vectors.signature.1'), dir);
    expect(run.results[0]?.verdict).toBe('ERROR');
    expect(run.results[0]?.reason).toContain('fixture: giving up on vectors.signature.1');
    expect(run.results.slice(1).map((r) => r.verdict)).toEqual(Array(7).fill('PASS'));
    expect(run.signer.starts).toBe(2);
  });
});

describe('end of run: stdin is closed, and a signer that does not exit is killed with its process group', () => {
  it('a lingering child of the signer command is gone after close()', async () => {
    const marker = `sleep 31.${process.pid}`;
    const command = `${fixtureCommand('correct-signer.mjs')}; ${marker}`;
    const started = Date.now();
    const run = await runSigner(command, dir, { closeGraceMs: 200 });
    expect(run.results.every((r) => r.verdict === 'PASS')).toBe(true);
    expect(Date.now() - started).toBeLessThan(5000);
    const { execFileSync } = await import('node:child_process');
    const alive = (() => {
      try {
        return execFileSync('pgrep', ['-f', marker], { encoding: 'utf8' }).trim();
      } catch {
        return ''; // pgrep exits 1 when nothing matches
      }
    })();
    expect(alive).toBe('');
  });
});

describe('ERR_SIGNER_TIMEOUT: a vector with no answer in time is ERROR, the signer is killed and restarted', () => {
  it('hang on vector 2', async () => {
    // The time limit counts from sending, so the restarted signer's start-up falls within the
    // next vector's limit: it is set relative to this machine's present start-up time (measured
    // with the same fixture hanging on no vector), at least 400 ms, so a loaded machine cannot
    // make a slow start look like a hang, while the hang itself (forever) stays unmistakable.
    const calibration = Date.now();
    const warm = await runSigner(fixtureCommand('hang-signer.mjs', 'no-such-vector'), dir, { timeoutMs: 10_000 });
    expect(warm.results.every((r) => r.verdict === 'PASS')).toBe(true);
    const timeoutMs = Math.max(400, 3 * (Date.now() - calibration));
    const started = Date.now();
    const run = await runSigner(fixtureCommand('hang-signer.mjs', 'vectors.signature.2'), dir, { timeoutMs });
    const hung = run.byId.get('vectors.signature.2')!;
    expect(hung.verdict).toBe('ERROR');
    expect(hung.reason).toMatch(new RegExp(`^ERR_SIGNER_TIMEOUT: no answer within ${timeoutMs} ms`));
    expect(run.results.filter((r) => r.verdict !== 'PASS').map((r) => r.id)).toEqual(['vectors.signature.2']);
    expect(run.signer.starts).toBe(2);
    // The verdicts above show one time-out (a second would be a second ERROR); this bounds the
    // run's end: 10 s, or three limits when the calibration made the limit over 3.3 s (at load 22 it
    // did, and the run took 10.3 s; at load 13 the rest of a run took three times its calibration).
    expect(Date.now() - started).toBeLessThan(Math.max(10_000, 3 * timeoutMs));
  });
  it(`a signer that never answers is given up on after 3 time-outs, not one per vector; the hello costs its limit once (${HELLO_LIMIT_MS} ms, the default)`, async () => {
    // The one fixture here that answers nothing at all, the hello included: the proof of the
    // hello's default limit (the fallback to protocol 1), waited out on its first start only.
    const started = performance.now();
    // The two restarts are given 300 ms for their start, not the default 2 s (they never answer).
    const run = await runSigner('sleep 60', dir, { timeoutMs: 300, startAllowanceMs: 300 });
    expect(run.results.map((r) => r.verdict)).toEqual(Array(8).fill('ERROR'));
    expect(run.results.slice(0, 3).every((r) => r.reason?.startsWith('ERR_SIGNER_TIMEOUT: no answer'))).toBe(true);
    expect(run.results.slice(3).every((r) => r.reason?.startsWith('ERR_SIGNER_TIMEOUT: not sent: the signer failed 3 vectors in a row'))).toBe(true);
    expect(run.signer.starts).toBe(3);
    expect(await run.signer.greeting()).toEqual({ protocol: 1, why: `it did not answer the hello within ${HELLO_LIMIT_MS} ms` });
    const tookMs = performance.now() - started;
    expect(tookMs).toBeGreaterThanOrEqual(leastMeasured(HELLO_LIMIT_MS + 3 * 300, 4));
    expect(tookMs).toBeLessThan(5000);
  });
});
