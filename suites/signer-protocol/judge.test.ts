// Verdict rules for a signer's answer (DESIGN.md "Signers in other languages"), one describe
// per rule, against hand-made answers.
import { describe, expect, it } from 'vitest';
import { judgeSignerAnswer, type SignatureVector } from '../../harness/vectors/index.ts';
import { hmacHex } from '../../harness/signing/index.ts';
import { fixtureSignatureVectors } from './fixture-vectors.ts';

function byTcId(tcId: number): SignatureVector {
  const v = fixtureSignatureVectors().find((t) => t.tcId === tcId);
  if (!v) throw new Error(`no fixture vector ${tcId}`);
  return v;
}
const SIX = () => byTcId(1); // valid
const ORDER = () => byTcId(3); // acceptable, alternative locale-order listed
const TAMPER = () => byTcId(4); // invalid
const FLOAT = () => byTcId(6); // acceptable, float-printer

const signed = (message: string, secret = SIX().secret) => ({ kind: 'signed' as const, message, signature: hmacHex(secret, message) });

describe('valid vector: PASS only when message and signature both match (level MUST)', () => {
  it('passes the suite stages', () => {
    const j = judgeSignerAnswer(SIX(), { kind: 'signed', message: SIX().message, signature: SIX().signature });
    expect(j).toMatchObject({ verdict: 'PASS', level: 'MUST', specRef: '§5.1' });
  });
  it('fails a different message, naming the message stage and the alternative computed from harness/signing', () => {
    const encoded = SIX().message.replace('https://x.test/cb?a=1&b=2', encodeURIComponent('https://x.test/cb?a=1&b=2'));
    const j = judgeSignerAnswer(SIX(), signed(encoded));
    expect(j.verdict).toBe('FAIL');
    expect(j.stage).toBe('message');
    // encodeURIComponent, PHP urlencode() and URLSearchParams write this URL alike: all are named.
    expect(j.alternative).toBeUndefined();
    expect(j.fits).toEqual(expect.arrayContaining([['url-encoded-values'], ['php-urlencode'], ['form-encoded-values']]));
    expect(j.reason).toMatch(/^the evidence is ambiguous/);
    expect(j.reason).toContain('`url-encoded-values` (JavaScript: values percent-encoded with encodeURIComponent');
    expect(j.reason).toContain('`php-urlencode` (PHP: values passed through PHP urlencode()');
    expect(j.reason).toContain('never URL-encoded');
  });
  it('fails a right message with a wrong signature, naming the signature stage', () => {
    const j = judgeSignerAnswer(SIX(), { kind: 'signed', message: SIX().message, signature: hmacHex('other', SIX().message) });
    expect(j).toMatchObject({ verdict: 'FAIL', stage: 'signature' });
    expect(j.reason).toMatch(/^message matches; signature differs/);
  });
  it('names upper-case hex', () => {
    const j = judgeSignerAnswer(SIX(), { kind: 'signed', message: SIX().message, signature: SIX().signature.toUpperCase() });
    expect(j.verdict).toBe('FAIL');
    expect(j.reason).toContain('upper-case hex');
  });
  it('names the right HMAC in base64, on the right message and on its own', () => {
    const base64 = (message: string) => Buffer.from(hmacHex(SIX().secret, message), 'hex').toString('base64');
    const right = judgeSignerAnswer(SIX(), { kind: 'signed', message: SIX().message, signature: base64(SIX().message) });
    expect(right).toMatchObject({ verdict: 'FAIL', stage: 'signature' });
    expect(right.reason).toMatch(/^message matches; the signature is the HMAC-SHA256 over the right message, written in base64, not hex \(§5\.1 step 5\)/);
    const own = judgeSignerAnswer(SIX(), { kind: 'signed', message: 'garbled', signature: base64('garbled') });
    expect(own.reason).toContain('; besides, its signature is the HMAC-SHA256 over its own message, written in base64, not hex');
  });
  it('fails a refusal', () => {
    const j = judgeSignerAnswer(SIX(), { kind: 'refused', error: 'nope' });
    expect(j.verdict).toBe('FAIL');
    expect(j.reason).toContain('"nope"');
  });
  it('says when no alternative reproduces the message, and when the signature is not over the signer\'s own message', () => {
    const j = judgeSignerAnswer(SIX(), { kind: 'signed', message: 'garbled', signature: hmacHex(SIX().secret, 'other') });
    expect(j.reason).toContain('no labelled alternative reproduces it');
    expect(j.reason).toContain('not HMAC-SHA256 of its own message');
    expect(j.alternative).toBeUndefined();
  });
});

describe('invalid vector: PASS when the signature differs from the presented one (level MUST)', () => {
  it('passes the canonical signature of the changed body', () => {
    expect(judgeSignerAnswer(TAMPER(), signed(TAMPER().message))).toMatchObject({ verdict: 'PASS', level: 'MUST' });
  });
  it('fails when the signer produces the presented signature', () => {
    const j = judgeSignerAnswer(TAMPER(), { kind: 'signed', message: 'whatever', signature: TAMPER().presentedSignature! });
    expect(j.verdict).toBe('FAIL');
    expect(j.reason).toContain('must be refused');
  });
  it('fails a refusal to sign the body', () => {
    expect(judgeSignerAnswer(TAMPER(), { kind: 'refused', error: 'x' }).verdict).toBe('FAIL');
  });
});

describe('acceptable vector: PASS on the suite position or a refusal, WARN otherwise (level SHOULD)', () => {
  it('passes the suite position', () => {
    expect(judgeSignerAnswer(ORDER(), signed(ORDER().message))).toMatchObject({ verdict: 'PASS', level: 'SHOULD' });
  });
  it('passes a refusal', () => {
    expect(judgeSignerAnswer(ORDER(), { kind: 'refused', error: 'ambiguous' }).verdict).toBe('PASS');
  });
  it('warns on the listed alternative and names it with the suite position', () => {
    const alt = ORDER().alternatives![0]!;
    const j = judgeSignerAnswer(ORDER(), { kind: 'signed', message: alt.message, signature: alt.signature });
    expect(j.verdict).toBe('WARN');
    // Two keys in body order are also in localeCompare order here: both fit, and the reason says so.
    expect(j.fits).toEqual([['locale-order'], ['body-order']]);
    expect(j.reason).toContain('the evidence is ambiguous');
    expect(j.reason).toContain('`locale-order` (JavaScript: keys sorted with localeCompare');
    expect(j.reason).toContain('The service verifies in code-point order');
  });
  it('names the one alternative when only one fits', () => {
    const vector = { ...ORDER(), body: '{"b":"1","a":"2","B":"3"}', message: 'B=3&a=2&b=1', signature: hmacHex(ORDER().secret, 'B=3&a=2&b=1') };
    const j = judgeSignerAnswer(vector, signed('a=2&b=1&B=3', ORDER().secret));
    expect(j.alternative).toBe('locale-order');
    expect(j.reason).toContain('follows alternative `locale-order` (JavaScript: keys sorted with localeCompare');
  });
  it('recognises an alternative by its signature alone', () => {
    const alt = FLOAT().alternatives![0]!;
    const j = judgeSignerAnswer(FLOAT(), { kind: 'signed', message: 'amount=15.0 (reported wrongly)', signature: alt.signature });
    // JavaScript String(x) and PHP string conversion both print 15: both are named.
    expect(j.fits).toEqual(expect.arrayContaining([['float-printer'], ['php-float-precision'], ['php-string']]));
    expect(j.reason).toContain('the evidence is ambiguous');
  });
  it('warns on a rendering no alternative reproduces', () => {
    const j = judgeSignerAnswer(FLOAT(), signed('amount=fifteen'));
    expect(j.verdict).toBe('WARN');
    expect(j.alternative).toBeUndefined();
  });
});

describe('a signer that could not be driven: ERROR with the failure code', () => {
  it.each(['ERR_SIGNER_START', 'ERR_SIGNER_PROTOCOL', 'ERR_SIGNER_TIMEOUT', 'ERR_SIGNER_CRASHED'] as const)('%s', (code) => {
    const j = judgeSignerAnswer(ORDER(), { kind: 'failed', code, reason: 'because' });
    expect(j.verdict).toBe('ERROR');
    expect(j.reason).toBe(`${code}: because`);
  });
});
