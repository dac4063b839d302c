// The README's adapter examples (issue 14 "Done when"): an adapter written in Python around a
// small SDK of its own, and one for a Node SDK, each PASSes every client case when correct and
// is caught when its SDK signs one text and sends another (a fault switched on by environment).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLIENT_CASES } from '../../harness/cases/index.ts';
import { describeNeeding } from '../support/programs.ts';
import { ROOT, runClient, targetFile, verdicts } from './run-client.ts';

const README = readFileSync(join(ROOT, 'README.md'), 'utf8');

const NUMBER_CASES = ['client.collect.number-whole-float', 'client.collect.number-float-noise', 'client.collect.number-exponent', 'client.collect.number-large-integer'];

function expectOnly(run: Awaited<ReturnType<typeof runClient>>, failing: readonly string[]): void {
  expect(verdicts(run), run.stdout).toEqual(Object.fromEntries(CLIENT_CASES.map((c) => [c.id, failing.includes(c.id) ? 'FAIL' : 'PASS'])));
}

describe.concurrent('a Python adapter around its own SDK (examples/sdk-adapters/python, stdlib only)', () => {
  it('correct: every client case PASSes, exit 0 (the README\'s command)', async () => {
    expect(README).toContain('npx collect-conformance run --target examples/sdk-adapters/python/client.json\n');
    const run = await runClient('examples/sdk-adapters/python/client.json');
    expect(run.code, run.stderr).toBe(0);
    expectOnly(run, []);
  });
  it('signs the amount as passed, sends it as two-decimal money (COLLECT_SDK_FAULT=amount-2dp): the number cases FAIL naming both texts, exit 1', async () => {
    const run = await runClient('examples/sdk-adapters/python/client.json', { COLLECT_SDK_FAULT: 'amount-2dp' });
    expect(run.code).toBe(1);
    expectOnly(run, NUMBER_CASES);
    const noise = run.report!.cases.find((c) => c.id === 'client.collect.number-float-noise')!;
    expect(noise.reason).toContain('signed `amount=3.3000000000000003`, the body has `amount=3.30`');
    // The README shows this run and this line as written.
    expect(README).toContain('COLLECT_SDK_FAULT=amount-2dp npx collect-conformance run --target examples/sdk-adapters/python/client.json');
    expect(README).toMatch(new RegExp(`FAIL  client\\.collect\\.number-float-noise  \\d+ ms  ${noise.reason!.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\n`));
  });
});

describe.concurrent('a Node adapter around its own SDK (examples/sdk-adapters/node)', () => {
  it('correct: every client case PASSes, exit 0 (the README\'s command)', async () => {
    expect(README).toContain('npx collect-conformance run --target examples/sdk-adapters/node/client.json\n');
    const run = await runClient('examples/sdk-adapters/node/client.json');
    expect(run.code, run.stderr).toBe(0);
    expectOnly(run, []);
  });
  it('sends whole numbers as 15.0 but signs 15 (COLLECT_SDK_FAULT=float-text): caught, the signed and sent texts named', async () => {
    const run = await runClient('examples/sdk-adapters/node/client.json', { COLLECT_SDK_FAULT: 'float-text' });
    expect(run.code).toBe(1);
    expectOnly(run, ['client.collect.number-whole-float', 'client.collect.number-exponent', 'client.collect.number-large-integer']);
    const whole = run.report!.cases.find((c) => c.id === 'client.collect.number-whole-float')!;
    expect(whole.reason).toContain('signed `amount=15`, the body has `amount=15.0`');
  });
});

describe.concurrent('a correct SDK unlike the reference is never flagged (suites/client/fixtures/unlike_reference_adapter.py)', () => {
  it('own field order, ", " separators, \\/ and \\uXXXX escapes, a charset, number amounts refused, extras dropped, raising on 4xx: PASS or SKIP, exit 0', async () => {
    const run = await runClient(targetFile({ side: 'client', command: 'python3 suites/client/fixtures/unlike_reference_adapter.py' }));
    expect(run.code, run.stdout).toBe(0);
    const skipped = [...NUMBER_CASES, 'client.collect.extra-fields'];
    expect(verdicts(run)).toEqual(Object.fromEntries(CLIENT_CASES.map((c) => [c.id, skipped.includes(c.id) ? 'SKIP' : 'PASS'])));
    for (const c of run.report!.cases.filter((x) => skipped.includes(x.id))) expect(c.reason, c.id).toMatch(/^not exercised: the SDK (refused the call before sending anything|sent no extra field)/);
  });
});

describeNeeding(['php'], 'the PHP SDK bug of issue 14, in real PHP (suites/client/fixtures/php/adapter.php)', () => {
  const php = targetFile({ side: 'client', command: 'php suites/client/fixtures/php/adapter.php', timing: { answerDeadlineMs: 10000 } });
  it('correct (non-strings signed as their JSON text): every client case PASSes', async () => {
    const run = await runClient(php);
    expect(run.code, run.stdout).toBe(0);
    expectOnly(run, []);
  });
  it('"$key=$value" (precision 14) beside json_encode: the number cases FAIL, naming 3.3 against 3.3000000000000003 and 15 against 15.0', async () => {
    const run = await runClient(php, { COLLECT_SDK_FAULT: 'php-string' });
    expect(run.code).toBe(1);
    expectOnly(run, NUMBER_CASES);
    const reason = (id: string) => run.report!.cases.find((c) => c.id === id)!.reason!;
    expect(reason('client.collect.number-float-noise')).toContain('signed `amount=3.3`, the body has `amount=3.3000000000000003`');
    expect(reason('client.collect.number-float-noise')).toContain('`php-float-precision`');
    expect(reason('client.collect.number-whole-float')).toContain('signed `amount=15`, the body has `amount=15.0`');
  });
}, { concurrent: true });
