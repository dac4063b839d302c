// Target files as a careless or hostile user writes them (issue 10): whatever the JSON, loading
// either resolves or refuses with ERR_TARGET_INVALID naming a field, and never echoes a secret.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseTarget, TargetFileError } from '../../harness/targets/index.ts';
import { assertProperty } from '../properties/fc-run.ts';

const env = { CK: 'ck-prop-value-1', SK: 'sk-prop-value-2', TK: 'tok-prop-value-3' };
const service = {
  side: 'service', baseUrl: 'http://127.0.0.1:9000', mode: 'sandbox', clientId: 2,
  clientKey: { env: 'CK' }, secretKey: { env: 'SK' }, callbackToken: { env: 'TK' }, networkCode: 'MTN',
  customerNumbers: { whitelisted: ['0244000001'] }, sources: { notWhitelisted: { localAddress: '127.0.0.2' } },
  listener: { host: '127.0.0.1', port: 0, publicUrl: null }, timing: { callbackTimeoutMs: 1000, retryWindowMs: 2000 },
};
const receiver = { side: 'receiver', callbackUrl: 'http://127.0.0.1:8081/cb', callbackToken: { env: 'TK' }, timing: { replyDeadlineMs: 3000 } };
const confirming = {
  ...receiver, confirms: { listener: { host: '127.0.0.1', port: 8082 }, clientId: 2, clientKey: { env: 'CK' }, secretKey: { env: 'SK' } },
  status: { method: 'POST', path: '/api/v1.0/transaction_status/', pointer: '/status' },
};

/** A value a user might put anywhere: numbers of every size, URLs with credentials, secrets, nesting. */
const anyValue = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }),
  fc.constantFrom(1e15, -1, 0, 2 ** 31, Number.MAX_SAFE_INTEGER, 'http://u:p@x.test', `https://x.test/${env.SK}`, env.TK, { env: 'TK' }, { env: 'UNSET_VAR' }),
);

/** Sets `value` at a random path of `base` (existing keys, and new ones). */
const mutated = (base: Record<string, unknown>) => fc.tuple(
  fc.array(fc.oneof(fc.constantFrom(...Object.keys(base), 'timing', 'replyDeadlineMs', 'callbackTimeoutMs', 'proxy', 'publicUrl', 'listener', 'sources', 'notWhitelisted', 'confirms', 'clientKey', 'secretKey', 'port', 'pointer'), fc.string({ maxLength: 6 })), { minLength: 1, maxLength: 3 }),
  anyValue,
).map(([path, value]) => {
  const copy = structuredClone(base) as Record<string, unknown>;
  let at: Record<string, unknown> = copy;
  for (const key of path.slice(0, -1)) {
    if (typeof at[key] !== 'object' || at[key] === null || Array.isArray(at[key])) at[key] = {};
    at = at[key] as Record<string, unknown>;
  }
  at[path.at(-1)!] = value;
  return copy;
});

function outcome(file: unknown): 'ok' | TargetFileError {
  try {
    parseTarget(file, env);
    return 'ok';
  } catch (error) {
    if (error instanceof TargetFileError) return error;
    throw error;
  }
}

describe('target files: any mutation resolves or is refused by a field, no secret echoed (fast-check, seed printed)', () => {
  for (const [name, base] of [['service', service], ['receiver', receiver], ['confirming receiver', confirming]] as const) {
    it(`${name}: never another error, always a pointer, never a secret in the message`, () => {
      assertProperty(fc.property(mutated(base), (file) => {
        const result = outcome(file);
        if (result === 'ok') return true;
        expect(result.code).toBe('ERR_TARGET_INVALID');
        expect(result.problems.length).toBeGreaterThan(0);
        for (const secret of Object.values(env)) expect(result.message).not.toContain(secret);
        return true;
      }));
    });
  }
  it('a timing value above its bound is always refused by its own field', () => {
    assertProperty(fc.property(fc.integer({ min: 60_001, max: Number.MAX_SAFE_INTEGER }), (ms) => {
      const result = outcome({ ...receiver, timing: { replyDeadlineMs: ms } });
      return result !== 'ok' && result.pointer === '/timing/replyDeadlineMs';
    }));
  });
});
