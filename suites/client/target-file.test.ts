// DESIGN.md "Target files", side client: {"side": "client", "command", "timing": {"answerDeadlineMs"}}.
// The harness plays the service, so the file names no secret: the credentials are generated per
// load, handed to the adapter, and redacted like any secret.
import { describe, expect, it } from 'vitest';
import { isDefaulted, parseTarget, redactTarget, secretsOf, TargetFileError, type ResolvedClientTarget } from '../../harness/targets/index.ts';

describe('client target files load as DESIGN.md shows them', () => {
  it('the documented example resolves: command, answerDeadlineMs, generated credentials (fresh per load)', () => {
    const file = { side: 'client', command: 'python3 my_sdk_adapter.py', timing: { answerDeadlineMs: 10000 } };
    const a = parseTarget(file) as ResolvedClientTarget;
    const b = parseTarget(file) as ResolvedClientTarget;
    expect(a).toMatchObject({ side: 'client', command: 'python3 my_sdk_adapter.py', timing: { answerDeadlineMs: 10000 }, clientId: 2 });
    expect(a.secretKey).toMatch(/^test_sk_[0-9a-f]{32}$/);
    expect(a.clientKey).not.toBe(b.clientKey);
    expect(a.secretKey).not.toBe(b.secretKey);
  });
  it('answerDeadlineMs defaults to 10000, and is known as defaulted', () => {
    const t = parseTarget({ side: 'client', command: 'x' }) as ResolvedClientTarget;
    expect(t.timing.answerDeadlineMs).toBe(10000);
    expect(isDefaulted(t, 'timing.answerDeadlineMs')).toBe(true);
  });
  it('the generated credentials are secrets: listed for the Redactor, hidden in report.target', () => {
    const t = parseTarget({ side: 'client', command: 'x' }) as ResolvedClientTarget;
    expect(secretsOf(t).sort()).toEqual([t.clientKey, t.secretKey].sort());
    const shown = JSON.stringify(redactTarget(t));
    expect(shown).not.toContain(t.secretKey);
    expect(shown).not.toContain(t.clientKey);
    expect(shown).toContain('"command":"x"');
  });
});

describe('ERR_TARGET_INVALID: a bad client target names the field', () => {
  const cases: Array<[string, unknown, RegExp]> = [
    ['no command', { side: 'client' }, /command/],
    ['an empty command', { side: 'client', command: '' }, /\/command/],
    ['a service key on the client side', { side: 'client', command: 'x', baseUrl: 'http://127.0.0.1:1' }, /baseUrl/],
    ['answerDeadlineMs over 600000', { side: 'client', command: 'x', timing: { answerDeadlineMs: 600001 } }, /\/timing\/answerDeadlineMs/],
    ['a receiver timing key', { side: 'client', command: 'x', timing: { replyDeadlineMs: 1000 } }, /replyDeadlineMs/],
  ];
  for (const [name, file, pattern] of cases) {
    it(`${name} → ${pattern}`, () => {
      expect(() => parseTarget(file)).toThrow(TargetFileError);
      expect(() => parseTarget(file)).toThrow(pattern);
    });
  }
});
