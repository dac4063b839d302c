// Bad input never gets a 5xx and never breaks the rules: random methods, paths, query strings
// (well-formed and not), token headers (absent, repeated, near misses) and bodies, sent byte
// for byte over a raw socket. Seed printed; replay with FC_SEED=<n>.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeCallbackQuery } from '../../harness/callback/index.ts';
import { startReceiver, type RunningReceiver } from '../../harness/receiver/index.ts';
import { TIME_SCALE, TOKEN, rawRequest, recordOf, seed } from './helpers.ts';

const SEED = process.env.FC_SEED ? Number(process.env.FC_SEED) : Math.floor(Math.random() * 2 ** 31);
const RUNS = 200;
const GUARD_ID = 'guard/1 +%';

let r: RunningReceiver;
beforeAll(async () => {
  r = await startReceiver({ callbackToken: TOKEN, timeScale: TIME_SCALE, workMs: 100, log: () => {} });
  await seed(r, GUARD_ID);
});
afterAll(() => r.close());

const queryChars = fc.constantFrom(
  'a', 'Z', '0', '=', '&', '%', '+', '?', '#', '/', ';', ',', '.', '~', '%2', '%ZZ', '%E2%82', '%C3%A9', '%00', '%0A',
  'é', '😀', ' ', '\t', '"', '<', '\\', '^', '`', '{', '|',
  'transaction_id=', 'status=', 'message=', 'SUCCESS', 'FAILED', GUARD_ID,
);
const rawQuery = fc.string({ unit: queryChars, maxLength: 40 });
const wellFormedQuery = fc
  .record({
    transaction_id: fc.oneof({ weight: 2, arbitrary: fc.constant(GUARD_ID) }, fc.string({ maxLength: 12 })),
    status: fc.oneof({ weight: 2, arbitrary: fc.constantFrom('SUCCESS', 'FAILED') }, fc.constantFrom('PENDING', 'success', ''), fc.string({ maxLength: 8 })),
    message: fc.string({ maxLength: 20 }),
  })
  .map((params) => encodeCallbackQuery(params));

// Weighted towards requests that get past the parser and the token check, so the handlers'
// own decisions are exercised, not only Node's 400 for a malformed request line.
const method = fc.oneof(
  { weight: 4, arbitrary: fc.constant('GET') },
  fc.constantFrom('POST', 'PUT', 'DELETE', 'HEAD', 'OPTIONS', 'PATCH'),
  fc.string({ unit: fc.constantFrom('A', 'B', 'X', '-', '!'), minLength: 1, maxLength: 7 }),
);
const path = fc.oneof(
  { weight: 3, arbitrary: fc.constant('/callback') },
  fc.constantFrom('/callback', '/callback', '/callback/', '/CALLBACK', '/_conformance/transactions', '/_conformance/transactions/',
    '/_conformance/transactions/guard%2F1%20%2B%25', '/_conformance/transactions/%E2%82', '/_conformance', '/', '*', '//callback'),
  fc.string({ unit: queryChars, maxLength: 20 }).map((s) => `/${s}`),
);
const tokenValue = fc.oneof(
  fc.constant(TOKEN), fc.constant(`${TOKEN}x`), fc.constant(TOKEN.slice(0, -1)), fc.constant(TOKEN.toUpperCase()), fc.constant(''),
  fc.string({ maxLength: 20 }).filter((s) => !/[\r\n\0]/.test(s)),
);
const tokenHeaderLines = fc.oneof({ weight: 2, arbitrary: fc.constant([TOKEN]) }, fc.array(tokenValue, { maxLength: 3 })).map((values) => values.map((v) => `X-Callback-Token: ${v}`));
const otherHeaderLines = fc.array(
  fc.tuple(fc.constantFrom('X-Forwarded-For', 'Accept', 'Content-Type', 'X-Other', 'User-Agent'), fc.string({ maxLength: 20 }).filter((s) => !/[\r\n\0]/.test(s)))
    .map(([name, value]) => `${name}: ${value}`),
  { maxLength: 3 },
);
const body = fc.oneof(
  fc.constant(''),
  fc.json({ maxDepth: 2 }),
  fc.record({ transaction_id: fc.string({ maxLength: 10 }), amount: fc.oneof(fc.string({ maxLength: 6 }), fc.integer()) }).map((v) => JSON.stringify(v)),
  fc.string({ maxLength: 50 }),
);

const request = fc.record({
  method, path, query: fc.option(fc.oneof(rawQuery, { weight: 2, arbitrary: wellFormedQuery }), { nil: undefined }),
  tokens: tokenHeaderLines, others: otherHeaderLines, body,
});

const GUARD_QUERY = encodeCallbackQuery({ transaction_id: GUARD_ID, status: 'SUCCESS', message: 'ok' });
const plain = { tokens: [`X-Callback-Token: ${TOKEN}`], others: [], body: '' };
/** Always run first, so that each kind of answer is seen whatever the seed. */
const EXAMPLES: Array<[RandomRequest]> = [
  [{ ...plain, method: 'GET', path: '/callback', query: GUARD_QUERY }],
  [{ ...plain, method: 'GET', path: '/callback', query: GUARD_QUERY, tokens: [] }],
  [{ ...plain, method: 'GET', path: '/callback', query: 'transaction_id=nobody&status=SUCCESS' }],
  [{ ...plain, method: 'POST', path: '/callback', query: GUARD_QUERY }],
];

interface RandomRequest {
  method: string;
  path: string;
  query: string | undefined;
  tokens: string[];
  others: string[];
  body: string;
}

function wire(req: RandomRequest): Buffer {
  const target = req.query === undefined ? req.path : `${req.path}?${req.query}`;
  const bodyBytes = Buffer.from(req.body, 'utf8');
  const head = [
    `${req.method} ${target} HTTP/1.1`, 'Host: 127.0.0.1', 'Connection: close', ...req.tokens, ...req.others,
    `Content-Length: ${bodyBytes.length}`, '', '',
  ].join('\r\n');
  return Buffer.concat([Buffer.from(head, 'utf8'), bodyBytes]);
}

describe('bad input: never a 5xx, never a second action', () => {
  it(`answers every random request with a status below 500 (${RUNS} runs, seed ${SEED})`, async () => {
    console.log(`fast-check seed ${SEED} (replay with FC_SEED=${SEED})`);
    const seen = new Set<number>();
    await fc.assert(
      fc.asyncProperty(request, async (req) => {
        const answer = await rawRequest(r.url, wire(req));
        seen.add(answer.status);
        expect(answer.status, `${req.method} ${req.path}?${req.query ?? ''}`).toBeGreaterThanOrEqual(200);
        expect(answer.status, `${req.method} ${req.path}?${req.query ?? ''}`).toBeLessThan(500);
      }),
      { seed: SEED, numRuns: RUNS, examples: EXAMPLES },
    );
    // The generator reaches the handlers, not only Node's parser (which answers 400 itself).
    for (const status of [200, 403, 404, 405]) expect([...seen], `status ${status} seen`).toContain(status);
    // Whatever arrived, the guard record was acted on at most once and holds a terminal state.
    const view = await recordOf(r, GUARD_ID);
    expect(view.status).toBe(200);
    expect(view.actions).toBeLessThanOrEqual(1);
    expect(['pending', 'SUCCESS', 'FAILED']).toContain(view.state);
  });
});
