// What a case needs of a target, and the SKIP reason when the target cannot give it: one table per
// side, every capability met and unmet (the runner SKIPs a case with the first unmet need's reason).
import { describe, expect, it } from 'vitest';
import type { Capability } from '../../harness/cases/index.ts';
import type { ObserveSpec } from '../../harness/observe/index.ts';
import type { ResolvedReceiverTarget, ResolvedServiceTarget, ResolvedTarget } from '../../harness/targets/index.ts';
import { firstUnmet, unmetReason } from '../../harness/runner/index.ts';

const SERVICE_ONLY: readonly Capability[] = ['notWhitelistedSource', 'failingNumber', 'sandbox', 'production', 'statusEndpoint'];
const RECEIVER_ONLY: readonly Capability[] = ['records', 'seed', 'actions', 'confirms'];

const blackBox: ResolvedReceiverTarget = { side: 'receiver', callbackUrl: 'http://127.0.0.1:9/cb', timing: { replyDeadlineMs: 300 } };
const hooks: ObserveSpec = { kind: 'hooks', url: 'http://127.0.0.1:9/hooks' };
const sql = (parts: { seed?: boolean; actions?: boolean }): ObserveSpec => ({
  kind: 'sql', database: 'postgres://127.0.0.1:9/db', read: { text: 'select 1', params: [] },
  ...(parts.seed ? { seed: { text: 'insert 1', params: [] } } : {}), ...(parts.actions ? { actions: { text: 'select 2', params: [] } } : {}),
} as unknown as ObserveSpec);
const confirms = { listener: { host: '127.0.0.1', port: 9, publicUrl: null }, clientId: 1, clientKey: 'k', secretKey: 's' } as unknown as ResolvedReceiverTarget['confirms'];
const service = {
  side: 'service', mode: 'sandbox', baseUrl: 'http://127.0.0.1:9', clientId: 1, clientKey: 'k', secretKey: 's', networkCode: 'MTN',
  customerNumbers: { whitelisted: ['0244000001'], failing: ['0244000002'], notWhitelisted: ['0244999999'] },
  sources: { notWhitelisted: { localAddress: '127.0.0.2' } }, timing: { callbackTimeoutMs: 1000, retryWindowMs: 1000 },
} as unknown as ResolvedServiceTarget;

const met = (target: ResolvedTarget, need: Capability) => expect(unmetReason(target, need), need).toBeUndefined();
const unmet = (target: ResolvedTarget, need: Capability, words: RegExp) => expect(unmetReason(target, need), need).toMatch(words);

describe('receiver capabilities', () => {
  it('a black-box receiver without a token: no records, no seed, no actions, no confirms, no token', () => {
    for (const need of ['records', 'seed', 'actions'] as const) unmet(blackBox, need, /names neither hooksUrl nor observe/);
    unmet(blackBox, 'confirms', /has no "confirms"/);
    unmet(blackBox, 'token', /names no callbackToken/);
  });
  it('hooks give records, seeding and counts; a token and confirms are met when named', () => {
    const target: ResolvedReceiverTarget = { ...blackBox, observe: hooks, callbackToken: 't', confirms };
    for (const need of ['records', 'seed', 'actions', 'confirms', 'token'] as const) met(target, need);
  });
  it('a database without seed or actions statements: records only, and each missing statement named', () => {
    const target: ResolvedReceiverTarget = { ...blackBox, observe: sql({}) };
    met(target, 'records');
    unmet(target, 'seed', /names no seed statement/);
    unmet(target, 'actions', /names no actions statement/);
    met({ ...blackBox, observe: sql({ seed: true }) }, 'seed');
    met({ ...blackBox, observe: sql({ actions: true }) }, 'actions');
  });
  it.each(SERVICE_ONLY)('%s: not a receiver\'s', (need) => {
    expect(unmetReason({ ...blackBox, observe: hooks, callbackToken: 't', confirms }, need)).toMatch(/service side only|exist on the service side/);
  });
});

describe('service capabilities', () => {
  it('a sandbox target with sources, a failing number and a status endpoint meets every service need but production', () => {
    for (const need of ['notWhitelistedSource', 'failingNumber', 'sandbox', 'statusEndpoint'] as const) met(service, need);
    unmet(service, 'production', /runs in sandbox mode: production cases do not apply/);
  });
  it('in production: sandbox unmet, production met', () => {
    met({ ...service, mode: 'production' }, 'production');
    unmet({ ...service, mode: 'production' }, 'sandbox', /runs in production mode: sandbox cases do not apply/);
  });
  it('without sources, failing numbers or a status endpoint: each named', () => {
    const { sources: _sources, ...noSources } = service;
    unmet(noSources as ResolvedServiceTarget, 'notWhitelistedSource', /names no sources\.notWhitelisted/);
    unmet({ ...service, customerNumbers: { ...service.customerNumbers, failing: [] } }, 'failingNumber', /names no customerNumbers\.failing/);
    unmet({ ...service, customerNumbers: { whitelisted: ['0244000001'], notWhitelisted: [] } }, 'failingNumber', /names no customerNumbers\.failing/);
    unmet({ ...service, status: false } as ResolvedServiceTarget, 'statusEndpoint', /"status": false/);
  });
  it('a token is met when the target names one, on either side', () => {
    met({ ...service, callbackToken: 't' } as ResolvedServiceTarget, 'token');
    unmet({ ...service, callbackToken: undefined } as unknown as ResolvedServiceTarget, 'token', /names no callbackToken/);
  });
  it.each(RECEIVER_ONLY)('%s: not a service\'s', (need) => {
    expect(unmetReason(service, need)).toMatch(/receiver side only|receiver's choice/);
  });
});

describe('firstUnmet: the first need not met, in the order the case lists them', () => {
  it('none unmet: undefined; otherwise the first one\'s reason', () => {
    expect(firstUnmet(service, ['sandbox', 'failingNumber'])).toBeUndefined();
    expect(firstUnmet(service, ['sandbox', 'production', 'records'])).toBe(unmetReason(service, 'production'));
    expect(firstUnmet(blackBox, [])).toBeUndefined();
  });
});
