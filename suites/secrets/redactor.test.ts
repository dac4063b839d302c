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

/**
 * One character of a JSON string as some encoder writes it: itself where JSON allows, its
 * short escape (`\/`, `\"`, `\n`…), or `\uXXXX` in lower- or upper-case hex (a UTF-16 pair
 * above U+FFFF).
 */
function jsonCharAs(ch: string, how: number): string {
  const short: Record<string, string> = { '"': '\\"', '\\': '\\\\', '/': '\\/', '\b': '\\b', '\f': '\\f', '\n': '\\n', '\r': '\\r', '\t': '\\t' };
  const units = [...Array(ch.length).keys()].map((i) => ch.charCodeAt(i).toString(16).padStart(4, '0'));
  const u = (upper: boolean) => units.map((x) => `\\u${upper ? x.toUpperCase() : x}`).join('');
  const literalAllowed = ch !== '"' && ch !== '\\' && ch.codePointAt(0)! >= 0x20;
  const choices = [...(literalAllowed ? [ch] : []), ...(short[ch] ? [short[ch]] : []), u(false), u(true)];
  return choices[how % choices.length]!;
}

/** PHP's json_encode() of a string with its default flags: `/` as `\/`, every non-ASCII character as `\uxxxx`. */
function phpJsonEncode(text: string): string {
  return JSON.stringify(text).replace(/\//g, '\\/').replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

describe('issue 22 point 9: a secret echoed inside JSON escapes is redacted like its other encodings', () => {
  const token = 'tok/Secret+é/2024=🔑"x\\y';
  const r = new Redactor([token]);
  it.each([
    ['PHP json_encode (\\/ and \\u00e9)', phpJsonEncode(token)],
    ['JSON.stringify (\\" and \\\\)', JSON.stringify(token)],
    ['every character as \\u in upper-case hex', JSON.stringify(token).slice(1, -1).replace(/./gsu, (c) => jsonCharAs(c, 3))],
    ['JSON inside a JSON string (the escapes escaped again)', JSON.stringify(phpJsonEncode(token))],
    ['base64 of the token, with PHP\'s \\/', phpJsonEncode(Buffer.from(token).toString('base64'))],
  ])('%s', (_name, shown) => {
    const out = r.text(`{"debug":{"x-callback-token":${shown}}}`);
    expect(out).toContain(REDACTED);
    expect(out).not.toContain('Secret');
    expect(out).not.toContain('U2VjcmV0'); // "Secret" in base64
  });
  it('the JSON stays JSON: the escaped secret is replaced whole, inside its string', () => {
    const out = r.text(`{"headers":{"x-callback-token":${phpJsonEncode(token)}},"path":"\\/callback"}`);
    expect(JSON.parse(out)).toEqual({ headers: { 'x-callback-token': `"${REDACTED}"`.slice(1, -1) }, path: '/callback' });
  });
  it('text with other escapes nearby is left alone', () => {
    expect(r.text('{"path":"\\/payments\\/callback","note":"caf\\u00e9"}')).toBe('{"path":"\\/payments\\/callback","note":"caf\\u00e9"}');
  });
  it('property: any secret, each character written as a JSON encoder may (the same character the same way), inside a JSON document or a JSON string of one, is gone once decoded and the JSON stays JSON (fast-check, seed printed)', () => {
    assertProperty(fc.property(
      fc.string({ minLength: 8, maxLength: 40, unit: fc.oneof(fc.constantFrom('/', '"', '\\', '\n', '\t', '\u0001', 'é', '🔑', '+', '='), fc.string({ minLength: 1, maxLength: 1, unit: 'binary' })) }),
      fc.array(fc.nat(), { minLength: 40, maxLength: 40 }),
      fc.boolean(),
      (secret, hows, twice) => {
        // An encoder writes the same character the same way each time; characters differ.
        const way = new Map<string, number>();
        const escaped = [...secret].map((c, i) => jsonCharAs(c, way.get(c) ?? way.set(c, hows[i]!).get(c)!)).join('');
        const document = `{"echo":"${escaped}","after":"\\/done"}`;
        const text = twice ? JSON.stringify(document) : document;
        const out = new Redactor([secret]).text(text);
        const decoded = JSON.parse(twice ? JSON.parse(out) as string : out) as { echo: string; after: string };
        return decoded.echo === REDACTED && decoded.after === '/done';
      },
    ));
  });
});

describe('issue 22 point 8: Redactor.clip redacts before it cuts', () => {
  const token = 'a'.repeat(20) + 'Z'.repeat(44);
  const r = new Redactor([token]);
  it('a cut through the secret leaves none of it (cut first, 61 of its 64 characters would show)', () => {
    const body = `{"headers":{"x-callback-token":"${token}"}}`;
    const cut = r.clip(body, 100);
    expect(cut).toBe(`{"headers":{"x-callback-token":"${REDACTED}"}}`);
    const shorter = r.clip(body, 40);
    expect(shorter).not.toMatch(/aaaa|ZZZZ/);
    expect(shorter.endsWith('…')).toBe(true);
  });
  it('never splits a [REDACTED] mark or a character outside the BMP', () => {
    const text = `ab ${token} cd`;
    for (let max = 0; max < 20; max++) {
      const cut = r.clip(text, max, '');
      expect(`ab ${REDACTED} cd`.startsWith(cut), `${max}: ${cut}`).toBe(true);
      const open = cut.lastIndexOf('[');
      expect(open === -1 || cut.slice(open).startsWith(REDACTED), `${max}: ${cut}`).toBe(true);
    }
    expect(r.clip('x🔑y', 2, '')).toBe('x');
  });
  it('text that fits is returned redacted, without a mark', () => {
    expect(r.clip(`t ${token}`, 1000)).toBe(`t ${REDACTED}`);
  });
});

describe('Redactor.cutText: text already cut at a limit (a recorded request body) shows no start of a secret', () => {
  const secret = 'sk_live_4f9a2c7e1b8d3a6f';
  const redactor = new Redactor([secret]);
  it('a body cut inside the secret: the secret\'s first characters are redacted, the rest kept', () => {
    for (const keep of [4, 9, secret.length - 1]) {
      const cut = `{"amount":"10.00","note":"${secret.slice(0, keep)}`;
      expect(redactor.cutText(cut), String(keep)).toBe('{"amount":"10.00","note":"[REDACTED]');
    }
  });
  it('a tail of three characters, or text that begins no secret, is left as it is; a whole secret is redacted as always', () => {
    expect(redactor.cutText('{"note":"sk_')).toBe('{"note":"sk_');
    expect(redactor.cutText('{"note":"hello')).toBe('{"note":"hello');
    expect(redactor.cutText(`a ${secret} b sk_live_4f`)).toBe('a [REDACTED] b [REDACTED]');
  });
});
