import { describe, expect, it } from 'vitest';
import { Redactor, REDACTED } from '../../harness/secrets/index.ts';

describe('Redactor: no secret leaves the process, whatever it holds', () => {
  const secret = 'tok"en\\with-quote';
  const redactor = new Redactor([secret, undefined, 'abc']);

  it('replaces a secret in text, also percent-encoded', () => {
    expect(redactor.text(`x ${secret} y ${encodeURIComponent(secret)}`)).toBe(`x ${REDACTED} y ${REDACTED}`);
  });
  it('replaces a secret holding " and \\ inside nested values and keys (JSON would escape them)', () => {
    const out = redactor.value({ headers: { [secret]: [secret, 1, null] }, note: `is ${secret}` });
    expect(JSON.stringify(out)).not.toContain('tok');
    expect(out).toEqual({ headers: { [REDACTED]: [REDACTED, 1, null] }, note: `is ${REDACTED}` });
  });
  it('leaves values alone when it knows no secret, and ignores secrets shorter than 4 characters', () => {
    const value = { a: 'abc' };
    expect(new Redactor([]).value(value)).toBe(value);
    expect(redactor.text('abc')).toBe('abc');
  });
  it('replaces the longer of two overlapping secrets whole', () => {
    expect(new Redactor(['secret', 'secret-key']).text('secret-key')).toBe(REDACTED);
  });
});
