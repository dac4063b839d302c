import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  canonicalPairs, signBody, verifyBody, parseAuthorizationHeader, diagnoseSignature, describeDiagnosis,
  SigningError, ALTERNATIVES, profileOf, readRawJsonObject, MAX_NESTING_DEPTH,
} from '../../harness/signing/index.ts';

const BODY =
  '{"transaction_id":"T1","amount":15.0,"client_id":2,"customer_number":"0244000001",' +
  '"network_code":"MTN","callback_url":"https://x.test/cb?a=1&b=2"}';

describe('§5.1 steps 1–3: pairs sorted A to Z, values as plain text', () => {
  it('sorts keys and writes the number 15.0 as it stands in the body', () => {
    expect(signBody(BODY, 's').message).toBe(
      'amount=15.0&callback_url=https://x.test/cb?a=1&b=2&client_id=2&customer_number=0244000001&network_code=MTN&transaction_id=T1',
    );
  });
  it('keeps leading zeros, decimal strings and literal URLs', () => {
    expect(canonicalPairs('{"b":"0.10","a":"007","u":"https://h/p?q=1 2&x=%41#f"}')).toEqual([
      ['a', '007'], ['b', '0.10'], ['u', 'https://h/p?q=1 2&x=%41#f'],
    ]);
  });
  it('orders keys by code point: upper case before lower case, `N` before `_`', () => {
    expect(canonicalPairs('{"customer_number":"1","customerName":"x","Zeta":"z","amount":"1"}').map((p) => p[0]))
      .toEqual(['Zeta', 'amount', 'customerName', 'customer_number']);
  });
  it('orders astral keys after BMP keys above the surrogates (code points, not UTF-16 units)', () => {
    expect(canonicalPairs('{"\u{1F600}":"1","\uFB01":"2"}').map((p) => p[0])).toEqual(['\uFB01', '\u{1F600}']);
  });
  it('keeps the last of a duplicated key', () => {
    expect(canonicalPairs('{"a":"1","a":"2"}')).toEqual([['a', '2']]);
  });
});

describe('§5.1 steps 4–5 and §5.2: signature and header', () => {
  it('produces lower-case hex HMAC-SHA256 and the HMAC header', () => {
    const stages = signBody('{"a":"1"}', 'key', { clientKey: 'ck' });
    // Known answer: HMAC-SHA256(key="key", "a=1"), as Python's hmac module computes it.
    expect(stages.message).toBe('a=1');
    expect(stages.signature).toBe('b17f9ae9ca05727a9af1d682e302eb7729bf55bf4bef5ba64cebbe8646401b99');
    expect(stages.authorization).toBe(`HMAC ck:${stages.signature}`);
  });
  it('verifies a reordered body with the same signature and refuses a changed one', () => {
    const { signature } = signBody(BODY, 'secret');
    const reordered = JSON.stringify(Object.fromEntries(Object.entries(JSON.parse(BODY)).reverse())).replace('"amount":15', '"amount":15.0');
    expect(verifyBody(reordered, 'secret', signature)).toBe(true);
    expect(verifyBody(BODY.replace('0244000001', '0244000003'), 'secret', signature)).toBe(false);
    expect(verifyBody(BODY, 'secret', signature.toUpperCase())).toBe(false);
    expect(verifyBody(BODY, 'secret', signature.slice(0, 63))).toBe(false);
  });
  it('parses the Authorization header and names a malformed one', () => {
    expect(parseAuthorizationHeader('HMAC ck:abc')).toEqual({ clientKey: 'ck', signature: 'abc' });
    expect(() => parseAuthorizationHeader('Bearer x')).toThrow(SigningError);
    expect(() => parseAuthorizationHeader(undefined)).toThrow(/missing/);
  });
});

describe('raw body reading', () => {
  it.each([
    ['', 'ERR_BODY_NOT_JSON'], ['[1]', 'ERR_BODY_NOT_OBJECT'], ['{"a":1,}', 'ERR_BODY_NOT_JSON'],
    ['{"a":01}', 'ERR_BODY_NOT_JSON'], ['{"a":"\\x"}', 'ERR_BODY_NOT_JSON'], ['{"a":1} x', 'ERR_BODY_NOT_JSON'],
  ])('refuses %j with %s', (body, code) => {
    expect(() => readRawJsonObject(body)).toThrow(expect.objectContaining({ code }));
  });
});

describe('diagnosis of a mismatching signature names the alternative followed', () => {
  it.each(ALTERNATIVES.filter((a) => ['locale-order', 'url-encoded-values', 'float-printer', 'body-order'].includes(a.label)))(
    '$label', (alternative) => {
      const body = '{"customer_number":"1","customerName":"a b/c","amount":15.0}';
      const { signature } = signBody(body, 'secret', { profile: profileOf(alternative) });
      const diagnosis = diagnoseSignature(body, 'secret', signature);
      expect(diagnosis.match).toBe('alternative');
      const fits = diagnosis.match === 'alternative' ? diagnosis.fits.map((f) => f.alternatives.map((a) => a.label).join('+')) : [];
      expect(fits).toContain(alternative.label);
    },
  );
  it('names every alternative that fits and says the evidence is ambiguous (15.0 printed as 15 by JavaScript and by PHP)', () => {
    const body = '{"amount":15.0}';
    const { signature } = signBody(body, 'secret', { profile: profileOf(ALTERNATIVES.find((a) => a.label === 'float-printer')!) });
    const diagnosis = diagnoseSignature(body, 'secret', signature);
    const fits = diagnosis.match === 'alternative' ? diagnosis.fits.map((f) => f.alternatives.map((a) => a.label).join('+')) : [];
    expect(fits).toEqual(expect.arrayContaining(['float-printer', 'php-float-precision', 'php-string']));
    expect(describeDiagnosis(diagnosis)).toMatch(/^the evidence is ambiguous/);
  });
  it('tells a PHP client that signed the float 1.1*3 as 3.3 but sent 3.3000000000000003 exactly that', () => {
    const body = '{"amount":3.3000000000000003,"client_id":2,"note":"x y"}';
    const { signature } = signBody(body, 'secret', { profile: profileOf(ALTERNATIVES.find((a) => a.label === 'php-float-precision')!) });
    const why = describeDiagnosis(diagnoseSignature(body, 'secret', signature));
    expect(why).toContain('`php-float-precision`');
    expect(why).toContain('signed `amount=3.3`, the body has `amount=3.3000000000000003`');
    expect(why).not.toContain('secret is wrong');
  });
  it('says none for a wrong secret, as a likely cause', () => {
    const diagnosis = diagnoseSignature(BODY, 'secret', signBody(BODY, 'other').signature);
    expect(diagnosis).toMatchObject({ match: 'none', note: expect.stringMatching(/^no known canonicalisation reproduces it: likely the secret is wrong/) });
  });
  it('names JSON escapes signed as they stand in the body (a signer that reads the text without a JSON parser), not a wrong secret', () => {
    const body = '{"callback_url":"https://m.example/cb?a\\u003db&x=caf\\u00e9","client_id":2}';
    const asWritten = 'callback_url=https://m.example/cb?a\\u003db&x=caf\\u00e9&client_id=2';
    const diagnosis = diagnoseSignature(body, 'secret', createHmac('sha256', 'secret').update(asWritten).digest('hex'));
    expect(diagnosis).toMatchObject({ match: 'none', note: expect.stringMatching(/^the strings' JSON escapes were signed as they stand in the body \(callback_url=https:\/\/m\.example\/cb\?a\\u003db&x=caf\\u00e9\)/) });
    expect(describeDiagnosis(diagnosis)).not.toContain('secret is wrong');
  });
});

describe('bodies the signer refuses rather than mis-sign', () => {
  it('refuses an unpaired surrogate, which would otherwise collide with U+FFFD', () => {
    expect(() => readRawJsonObject('{"a":"\\ud800"}')).toThrow(expect.objectContaining({ code: 'ERR_BODY_UNPAIRED_SURROGATE' }));
    expect(canonicalPairs('{"a":"\\ud83d\\ude00"}')).toEqual([['a', '\u{1F600}']]);
  });
  it('refuses nesting deeper than MAX_NESTING_DEPTH with a SigningError, not a stack overflow', () => {
    const nested = (depth: number) => `{"a":${'['.repeat(depth - 1)}${']'.repeat(depth - 1)}}`;
    expect(canonicalPairs(nested(MAX_NESTING_DEPTH))).toHaveLength(1);
    expect(() => readRawJsonObject(nested(MAX_NESTING_DEPTH + 1))).toThrow(expect.objectContaining({ code: 'ERR_BODY_TOO_DEEP' }));
    expect(() => readRawJsonObject(nested(100_000))).toThrow(expect.objectContaining({ code: 'ERR_BODY_TOO_DEEP' }));
    expect(verifyBody(nested(100_000), 'secret', 'ab')).toBe(false);
  });
  it('verifyBody answers false, not an exception, for a body that is not JSON', () => {
    expect(verifyBody('not json', 'secret', 'ab')).toBe(false);
  });
});
