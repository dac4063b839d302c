// The adapter examples (issue 14 "Done when"): an adapter written in Python around a small SDK of
// its own, and one for a Node SDK, each PASSes every client case when correct and is caught when
// its SDK signs one text and sends another (a fault switched on by environment); a correct SDK
// unlike the reference is never flagged; and the PHP SDK bug, in real PHP.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLIENT_CASES } from '../../harness/cases/index.ts';
import { parsePage } from '../docs/markdown.ts';
import { describeNeeding } from '../support/programs.ts';
import { ROOT, runClient, targetFile, verdicts } from './run-client.ts';

const NUMBER_CASES = ['client.collect.number-whole-float', 'client.collect.number-float-noise', 'client.collect.number-exponent', 'client.collect.number-large-integer'];

/** The status cases (§4.2): SKIP for an SDK without a status call. */
const STATUS_CASES = CLIENT_CASES.filter((c) => c.id.startsWith('client.status.')).map((c) => c.id);

function expectOnly(run: Awaited<ReturnType<typeof runClient>>, failing: readonly string[], skipped: readonly string[] = []): void {
  expect(verdicts(run), run.stdout).toEqual(Object.fromEntries(CLIENT_CASES.map((c) => [c.id, failing.includes(c.id) ? 'FAIL' : skipped.includes(c.id) ? 'SKIP' : 'PASS'])));
}

// The example adapters' runs are the docs' own: docs/sdk.md shows each command with what it
// prints, and suites/docs/commands.test.ts runs them as written and checks that output. Here,
// that the page shows what this proof needs: each example all PASS, and with its fault on
// exactly the number cases FAIL, naming the text signed and the text sent.
describe('the adapter examples are run by docs/sdk.md (suites/docs/commands.test.ts)', () => {
  const page = parsePage(readFileSync(join(ROOT, 'docs/sdk.md'), 'utf8'));
  const shown = (command: string) => {
    const block = page.commands.find((b) => b.text.split('\n')[0]!.replace(/\s+#.*$/, '') === command);
    expect(block, `docs/sdk.md has a block running ${command}`).toBeDefined();
    expect(block!.marker, `${command} is run, not marked`).toBeUndefined();
    expect(block!.output, `docs/sdk.md shows what ${command} prints`).toBeDefined();
    const text = block!.output!.text;
    return { text, fails: [...text.matchAll(/^FAIL {2}(\S+) /gm)].map((m) => m[1]) };
  };
  const cases = CLIENT_CASES.length;
  it.each([
    ['python', 'npx collect-conformance run --target examples/sdk-adapters/python/client.json'],
    ['node', 'npx collect-conformance run --target examples/sdk-adapters/node/client.json'],
  ])('%s, correct: every client case PASSes', (_, command) => {
    expect(shown(command).text).toContain(`${cases} cases: ${cases} PASS, 0 FAIL, 0 WARN, 0 SKIP, 0 ERROR`);
  });
  it('python, signing the amount as passed and sending two-decimal money (amount-2dp): the number cases FAIL naming both texts', () => {
    const { text, fails } = shown('COLLECT_SDK_FAULT=amount-2dp npx collect-conformance run --target examples/sdk-adapters/python/client.json');
    expect(fails).toEqual(NUMBER_CASES);
    expect(text).toContain(`${cases} cases: ${cases - NUMBER_CASES.length} PASS, ${NUMBER_CASES.length} FAIL, 0 WARN, 0 SKIP, 0 ERROR`);
    expect(text).toContain('signed `amount=3.3000000000000003`, the body has `amount=3.30`');
  });
  it('node, sending whole numbers as 15.0 but signing 15 (float-text): caught, the signed and sent texts named', () => {
    const { text, fails } = shown('COLLECT_SDK_FAULT=float-text npx collect-conformance run --target examples/sdk-adapters/node/client.json');
    const caught = ['client.collect.number-whole-float', 'client.collect.number-exponent', 'client.collect.number-large-integer'];
    expect(fails).toEqual(caught);
    expect(text).toContain(`${cases} cases: ${cases - caught.length} PASS, ${caught.length} FAIL, 0 WARN, 0 SKIP, 0 ERROR`);
    expect(text).toContain('signed `amount=15`, the body has `amount=15.0`');
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
  it('correct (non-strings signed as their JSON text): every client case PASSes; a protocol-1 adapter, so the status cases SKIP naming the upgrade', async () => {
    const run = await runClient(php);
    expect(run.code, run.stdout).toBe(0);
    expectOnly(run, [], STATUS_CASES);
    for (const c of run.report!.cases.filter((x) => STATUS_CASES.includes(x.id))) {
      expect(c.reason, c.id).toMatch(/^not exercised: the adapter speaks protocol 1 \(it exited with code 255 on the hello\), so it is never sent "op": "status".*"supports": \["collect", "status"\]/);
    }
  });
  it('"$key=$value" (precision 14) beside json_encode: the number cases FAIL, naming 3.3 against 3.3000000000000003 and 15 against 15.0', async () => {
    const run = await runClient(php, { COLLECT_SDK_FAULT: 'php-string' });
    expect(run.code).toBe(1);
    expectOnly(run, NUMBER_CASES, STATUS_CASES);
    const reason = (id: string) => run.report!.cases.find((c) => c.id === id)!.reason!;
    expect(reason('client.collect.number-float-noise')).toContain('signed `amount=3.3`, the body has `amount=3.3000000000000003`');
    expect(reason('client.collect.number-float-noise')).toContain('`php-float-precision`');
    expect(reason('client.collect.number-whole-float')).toContain('signed `amount=15`, the body has `amount=15.0`');
  });
}, { concurrent: true });
