import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { assertProperty } from '../properties/fc-run.ts';
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

describe('Redactor: a secret echoed back in a cheap encoding is redacted too', () => {
  const token = 'tok-Secret-12345';
  const r = new Redactor([token]);
  const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');
  it.each([
    ['base64', b64(token)],
    ['base64 without padding', b64(token).replace(/=+$/, '')],
    ['base64url', Buffer.from(token).toString('base64url')],
    ['hex', Buffer.from(token).toString('hex')],
    ['HEX', Buffer.from(token).toString('hex').toUpperCase()],
    ['percent-encoded', encodeURIComponent(`${token} x`).slice(0, -4)],
    ['form-encoded', encodeURIComponent('a b').replace(/%20/g, '+')],
  ])('%s', (_name, shown) => {
    if (shown === 'a+b') return expect(new Redactor(['secret a b']).text('echo secret+a+b')).toBe(`echo ${REDACTED}`);
    expect(r.text(`echo ${shown} done`)).toBe(`echo ${REDACTED} done`);
  });
  it('base64 of the token inside a longer base64 text (Basic user:token), at each byte alignment', () => {
    for (const prefix of ['u:', 'us:', 'usr:']) {
      const out = r.text(`Authorization: Basic ${b64(`${prefix}${token}!`)}`);
      expect(out).toContain(REDACTED);
      expect(Buffer.from(out.split(' ').at(-1)!, 'base64').toString('latin1')).not.toContain('Secret-123');
    }
  });
  it('property: the token inside any base64 text is replaced (fast-check, seed printed)', () => {
    assertProperty(fc.property(
      fc.string({ minLength: 8, maxLength: 40 }), fc.uint8Array({ maxLength: 5 }), fc.uint8Array({ maxLength: 5 }),
      (secret, before, after) => {
        const text = Buffer.concat([Buffer.from(before), Buffer.from(secret, 'utf8'), Buffer.from(after)]).toString('base64');
        return new Redactor([secret]).text(text).includes(REDACTED);
      },
    ));
  });
});
