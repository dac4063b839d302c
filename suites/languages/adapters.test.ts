// Issue 39: the adapters in PHP and Ruby. The SDK adapters (examples/sdk-adapters/php, ruby) PASS
// every client case around their correct SDK, also with the PHP SDK's answers returned instead of
// thrown (http_errors off), and are caught on the right cases with a fault switched on; the signer
// adapters (examples/vectors-runners/php/signer-adapter.php, ruby/signer_adapter.rb) pass every
// signature vector through `vectors --signer`, and with a fault get exactly the verdicts the kit's
// own signer with that fault computes. Each answers the protocol-2 handshake in its fixed shape,
// and without a handshake simply answers each line by its op (the kit of today sends none).
import { spawn } from 'node:child_process';
import { expect, it } from 'vitest';
import { CLIENT_CASES } from '../../harness/cases/index.ts';
import { runClient, verdicts, type ClientRun } from '../client/run-client.ts';
import { runSigner } from '../signer-protocol/helpers.ts';
import { describeNeeding } from '../support/programs.ts';
import { expectedVerdicts, FAULTS, ROOT, type Verdict } from './runners.ts';

/** A whole run takes seconds alone; on a shared two-core machine under load, up to a minute or two. */
const RUN_TIMEOUT_MS = 150_000;
/** The signer's time to answer one vector (its start-up included on the first): generous, as the load above. */
const ANSWER_LIMIT_MS = 20_000;

const NUMBER_CASES = ['client.collect.number-whole-float', 'client.collect.number-float-noise', 'client.collect.number-exponent', 'client.collect.number-large-integer'];

function expectOnly(run: ClientRun, failing: readonly string[]): void {
  expect(verdicts(run), run.stdout).toEqual(Object.fromEntries(CLIENT_CASES.map((c) => [c.id, failing.includes(c.id) ? 'FAIL' : 'PASS'])));
}

const reasonOf = (run: ClientRun, id: string) => run.report!.cases.find((c) => c.id === id)!.reason!;

/** The answer lines of a command given `lines` on stdin, each as JSON (a string: that line as it stands), stdin then closed. */
function answers(command: string, lines: readonly (object | string)[]): Promise<unknown[]> {
  return new Promise((resolve, reject) => {
    const child = spawn('sh', ['-c', command], { cwd: ROOT, stdio: ['pipe', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => { out += d.toString(); });
    child.on('error', reject);
    child.on('close', () => resolve(out.split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as unknown)));
    child.stdin.end(lines.map((l) => `${typeof l === 'string' ? l : JSON.stringify(l)}\n`).join(''));
  });
}

const HELLO = { id: 'hello', op: 'hello', protocol: 2 };

function expectHello(answer: unknown, language: 'php' | 'ruby', supports: string[]): void {
  expect(answer).toEqual({
    id: 'hello',
    protocol: 2,
    supports,
    implementation: { language: expect.stringMatching(new RegExp(`^${language} \\d+\\.\\d+$`)), library: expect.any(String), version: expect.stringMatching(/^\d+\.\d+\.\d+$/) },
  });
}

const ADAPTERS = [
  { language: 'php' as const, needs: ['php' as const], sdkAdapter: 'php examples/sdk-adapters/php/adapter.php', signer: 'php examples/vectors-runners/php/signer-adapter.php' },
  { language: 'ruby' as const, needs: ['ruby' as const], sdkAdapter: 'ruby examples/sdk-adapters/ruby/adapter.rb', signer: 'ruby examples/vectors-runners/ruby/signer_adapter.rb' },
];

for (const adapter of ADAPTERS) {
  describeNeeding(adapter.needs, `the ${adapter.language} adapters: the handshake and the signer adapter`, () => {
    it('the SDK adapter answers hello with protocol 2, supports collect and status, and its implementation; an unknown op is an error line with its id', async () => {
      const [hello, unknown] = await answers(adapter.sdkAdapter, [HELLO, { id: 'x-1', op: 'refund' }]);
      expectHello(hello, adapter.language, ['collect', 'status']);
      expect(unknown).toEqual({ id: 'x-1', error: 'unknown op: refund' });
    }, RUN_TIMEOUT_MS);
    it('the signer adapter answers hello with supports [sign], then signs with or without an op', async () => {
      const body = '{"b":1,"a":2.50}';
      const [hello, signed, plain] = await answers(adapter.signer, [HELLO, { id: 's-1', op: 'sign', body, secret: 's' }, { id: 's-2', body, secret: 's' }]);
      expectHello(hello, adapter.language, ['sign']);
      expect(signed).toEqual({ id: 's-1', message: 'a=2.50&b=1', signature: expect.stringMatching(/^[0-9a-f]{64}$/) });
      expect(plain).toEqual({ ...(signed as object), id: 's-2' });
    }, RUN_TIMEOUT_MS);
    it('both adapters (one line loop, examples/line-protocol): a line that is not a JSON object gets an error line with id null, and the next line its answer', async () => {
      const bad = 'bad request line: not a JSON object';
      for (const command of [adapter.sdkAdapter, adapter.signer]) {
        const replies = await answers(command, ['not json', '[1]', { id: 'x-2', op: 'refund' }]);
        expect(replies, command).toEqual([{ id: null, error: bad }, { id: null, error: bad }, { id: 'x-2', error: 'unknown op: refund' }]);
      }
    }, RUN_TIMEOUT_MS);
    it('the signer adapter passes every signature vector through vectors --signer', async () => {
      const run = await runSigner(adapter.signer, undefined, { timeoutMs: ANSWER_LIMIT_MS });
      expect(run.results.filter((r) => r.verdict !== 'PASS').map((r) => `${r.id} ${r.verdict}: ${r.reason}`)).toEqual([]);
      expect(run.results.length).toBe(125);
    }, RUN_TIMEOUT_MS);
    it('the signer adapter with COLLECT_SIGNER_FAULT=body-order: FAIL and WARN exactly where the kit\'s own signer with that fault differs', async () => {
      const run = await runSigner(`COLLECT_SIGNER_FAULT=body-order ${adapter.signer}`, undefined, { timeoutMs: ANSWER_LIMIT_MS });
      const kit: Record<Verdict, string> = { pass: 'PASS', fail: 'FAIL', skip: 'WARN' };
      const expected = [...expectedVerdicts(FAULTS[0])].filter(([id]) => id.startsWith('vectors.signature.')).map(([id, v]) => [id, kit[v]]);
      expect(Object.fromEntries(run.results.map((r) => [r.id, r.verdict]))).toEqual(Object.fromEntries(expected));
      expect(run.results.find((r) => r.verdict === 'FAIL')?.reason).toContain('`body-order`');
    }, RUN_TIMEOUT_MS);
  }, { concurrent: true });
}

describeNeeding(['php'], 'the PHP SDK adapter (examples/sdk-adapters/php): run --target client.json', () => {
  const target = 'examples/sdk-adapters/php/client.json';
  it('correct, 4xx thrown as CollectClientException (http_errors on): every client case PASSes, status included', async () => {
    const run = await runClient(target);
    expect(run.code, run.stdout).toBe(0);
    expectOnly(run, []);
  }, RUN_TIMEOUT_MS);
  it('correct, answers returned (COLLECT_SDK_HTTP_ERRORS=false): every client case PASSes', async () => {
    const run = await runClient(target, { COLLECT_SDK_HTTP_ERRORS: 'false' });
    expect(run.code, run.stdout).toBe(0);
    expectOnly(run, []);
  }, RUN_TIMEOUT_MS);
  it('COLLECT_SDK_FAULT=php-string ("$key=$value" beside json_encode): exactly the number cases FAIL, naming the text signed and the text sent', async () => {
    const run = await runClient(target, { COLLECT_SDK_FAULT: 'php-string' });
    expect(run.code).toBe(1);
    expectOnly(run, NUMBER_CASES);
    expect(reasonOf(run, 'client.collect.number-float-noise')).toContain('signed `amount=3.3`, the body has `amount=3.3000000000000003`');
    expect(reasonOf(run, 'client.collect.number-whole-float')).toContain('signed `amount=15`, the body has `amount=15.0`');
  }, RUN_TIMEOUT_MS);
  it('COLLECT_SDK_BODY=form (form_params): every case that reads the JSON body or its signature FAILs, named as a form body; the answers are still read right', async () => {
    const run = await runClient(target, { COLLECT_SDK_BODY: 'form' });
    expect(run.code).toBe(1);
    const failing = [
      'client.collect.content-type', 'client.collect.signature', 'client.collect.amount-string', 'client.collect.customer-number-zeros',
      'client.collect.client-id-integer', 'client.collect.callback-url-literal', 'client.collect.field-order', ...NUMBER_CASES,
      'client.collect.extra-fields', 'client.status.headers', 'client.status.body', 'client.status.signature',
    ];
    expectOnly(run, failing);
    expect(reasonOf(run, 'client.collect.content-type')).toContain('application/x-www-form-urlencoded');
  }, RUN_TIMEOUT_MS);
}, { concurrent: true });

describeNeeding(['ruby'], 'the Ruby SDK adapter (examples/sdk-adapters/ruby): run --target client.json', () => {
  const target = 'examples/sdk-adapters/ruby/client.json';
  it('correct: every client case PASSes, status included', async () => {
    const run = await runClient(target);
    expect(run.code, run.stdout).toBe(0);
    expectOnly(run, []);
  }, RUN_TIMEOUT_MS);
  it('COLLECT_SDK_FAULT=form-encoded (the message built by URI.encode_www_form): every case that judges the collect signature FAILs, naming form-encoded-values', async () => {
    const run = await runClient(target, { COLLECT_SDK_FAULT: 'form-encoded' });
    expect(run.code).toBe(1);
    // Every collect carries a callback URL (its ':' and '/' are form-encoded); the status query
    // signs only an id like cc-… and an integer, which form-encoding leaves as they are.
    expectOnly(run, ['client.collect.signature', 'client.collect.callback-url-literal', 'client.collect.field-order', ...NUMBER_CASES, 'client.collect.extra-fields']);
    expect(reasonOf(run, 'client.collect.signature')).toContain('`form-encoded-values`');
  }, RUN_TIMEOUT_MS);
}, { concurrent: true });
