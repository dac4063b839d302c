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

describe('Redactor: a secret echoed in another letter case, or one character short, is redacted too', () => {
  const token = 'tok-Secret-12345';
  const r = new Redactor([token]);
  it.each([
    ['upper-cased', token.toUpperCase()],
    ['lower-cased', token.toLowerCase()],
    ['letter case swapped (receiver.token.different-case)', 'TOK-sECRET-12345'],
    ['less its last character (receiver.token.one-char-short)', token.slice(0, -1)],
    ['less its first character', token.slice(1)],
  ])('%s', (_name, shown) => {
    const out = r.text(`403: token ${shown} refused`);
    expect(out).toBe(`403: token ${REDACTED} refused`);
  });
  it('percent-encoded with lower-case hex digits (%2f), less its last character', () => {
    const slashed = 'tok/Secret-12345';
    expect(encodeURIComponent(slashed)).toContain('%2F');
    const shown = encodeURIComponent(slashed.slice(0, -1)).toLowerCase();
    expect(new Redactor([slashed]).text(`echo ${shown} done`)).toBe(`echo ${REDACTED} done`);
  });
  it('text around the secret keeps its own letter case', () => {
    expect(r.text(`Header X-Callback-Token: ${token.toUpperCase()} (Seen)`)).toBe(`Header X-Callback-Token: ${REDACTED} (Seen)`);
  });
  it('property: any letter-case variant of a secret, inside any text, is replaced (fast-check, seed printed)', () => {
    assertProperty(fc.property(
      fc.string({ minLength: 8, maxLength: 30 }), fc.array(fc.boolean(), { minLength: 30, maxLength: 30 }), fc.string({ maxLength: 10 }), fc.string({ maxLength: 10 }),
      (secret, upper, before, after) => {
        const variant = [...secret].map((c, i) => (upper[i] ? c.toUpperCase() : c.toLowerCase())).join('');
        // Only variants of the same length: a few letters change length when their case does (ß → SS).
        fc.pre([...variant].length === [...secret].length);
        return new Redactor([secret]).text(`${before}${variant}${after}`).includes(REDACTED);
      },
    ));
  });
});
