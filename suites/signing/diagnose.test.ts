// Why a signature does not match (harness/signing/diagnose.ts): the suite's position first, then
// upper-case hex, then every labelled alternative alone, then two or three at a time, each
// explanation named; an encoding may join any combination; a bounded number of renderings per
// question; the strings' JSON escapes signed as written; and the sentences a log line or an
// error message prints for each diagnosis. Every expectation is the exact answer.
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  diagnoseSignature, describeDiagnosis, describeExplanation, explainPresented, explainRefusal, findAlternative,
  hmacHex, joinPairs, pairsOfMembers, profileOfAll, readRawJsonObject, renderingsOf, signatureOf, signedVersusSent,
  type Alternative, type Explanation, type RawMember, type SignatureDiagnosis,
} from '../../harness/signing/index.ts';

const alternative = (label: string): Alternative => {
  const found = findAlternative(label);
  if (!found) throw new Error(`no alternative ${label}`);
  return found;
};
/** The message a signer following these alternatives signs for this body. */
const messageOf = (body: string, ...labels: string[]) => joinPairs(pairsOfMembers(readRawJsonObject(body), profileOfAll(labels.map(alternative))));
/** The explanations, each as its labels joined by `+`. */
const labels = (explanations: Explanation[]) => explanations.map((e) => e.alternatives.map((a) => a.label).join('+'));
const explain = (body: string, presented: { message?: string; signature?: string }, exclude?: string[]) =>
  labels(explainPresented(readRawJsonObject(body), 's', presented, exclude && new Set(exclude)));

// HMAC-SHA256(key="key", "a=1").
const A1 = 'b17f9ae9ca05727a9af1d682e302eb7729bf55bf4bef5ba64cebbe8646401b99';
const NO_KNOWN =
  'no known canonicalisation reproduces it: likely the secret is wrong, or the text signed differs from the body in a way no labelled alternative covers (the body changed after signing, another character encoding)';
const SERVICE = 'the service signs keys in code-point order with every value as its text stands in the body';

describe('diagnoseSignature: the suite\'s position, then upper-case hex', () => {
  it('says canonical for the right signature', () => {
    expect(diagnoseSignature('{"a":"1"}', 'key', A1)).toStrictEqual({ match: 'canonical' });
  });
  it('says case for the right signature in upper-case hex', () => {
    expect(diagnoseSignature('{"a":"1"}', 'key', A1.toUpperCase())).toStrictEqual({
      match: 'case', note: 'the signature is right but written in upper-case hex; §5.1 hex is lower-case',
    });
  });
  it('does not call a wrong upper-case signature a case slip', () => {
    expect(diagnoseSignature('{"a":"1"}', 'key', `A${A1.slice(1).toUpperCase()}`)).toStrictEqual({ match: 'none', note: NO_KNOWN });
  });
  it('names the alternative a signature follows, with the service\'s pairs', () => {
    const d = diagnoseSignature('{"a":1.50,"b":true}', 'key', hmacHex('key', 'a=1.50&b=1'));
    expect(d.match).toBe('alternative');
    const { fits, canonicalPairs } = d as Extract<SignatureDiagnosis, { match: 'alternative' }>;
    expect(labels(fits)).toEqual(['bool-numeric']);
    expect(canonicalPairs).toEqual([['a', '1.50'], ['b', 'true']]);
  });
});

describe('diagnoseSignature: the right HMAC in another form, named as such', () => {
  // HMAC-SHA256(key="key", "a=1") as its bytes; and the same message's HMAC under other hashes.
  const bytes = Buffer.from(A1, 'hex');
  const hmacOf = (hash: string) => createHmac(hash, 'key').update('a=1').digest('hex');
  const noteOf = (presented: string) => diagnoseSignature('{"a":"1"}', 'key', presented);
  it.each([
    ['base64', bytes.toString('base64'), 'it is the HMAC-SHA256 over the right message, written in base64, not hex (§5.1 step 5)'],
    ['base64 unpadded', bytes.toString('base64').replace(/=+$/, ''), 'it is the HMAC-SHA256 over the right message, written in base64, not hex (§5.1 step 5)'],
    ['base64 padded twice', `${bytes.toString('base64')}=`, 'it is the HMAC-SHA256 over the right message, written in base64, not hex (§5.1 step 5)'],
    ['base64url', bytes.toString('base64url'), 'it is the HMAC-SHA256 over the right message, written in base64url, not hex (§5.1 step 5)'],
    ['sha256= prefix', `sha256=${A1}`, 'it is the HMAC-SHA256 over the right message, in hex after a prefix `sha256=` (§5.2: the hex alone after the client key\'s colon)'],
    ['HMAC-SHA256: prefix, upper-case hex', `HMAC-SHA256:${A1.toUpperCase()}`, 'it is the HMAC-SHA256 over the right message, in hex after a prefix `HMAC-SHA256:` (§5.2: the hex alone after the client key\'s colon)'],
    ['HMAC-SHA512', hmacOf('sha512'), 'it is the HMAC-SHA512 over the right message, not HMAC-SHA256 (§5.1 step 4)'],
    ['HMAC-SHA384', hmacOf('sha384'), 'it is the HMAC-SHA384 over the right message, not HMAC-SHA256 (§5.1 step 4)'],
    ['HMAC-SHA1', hmacOf('sha1'), 'it is the HMAC-SHA1 over the right message, not HMAC-SHA256 (§5.1 step 4)'],
  ])('%s', (_, presented, note) => {
    expect(noteOf(presented)).toStrictEqual({ match: 'none', note });
  });
  it('says nothing of a form when the HMAC in it is over another message, or keyed otherwise', () => {
    const other = createHmac('sha256', 'key').update('a=2').digest();
    for (const presented of [other.toString('base64'), `sha256=${other.toString('hex')}`, createHmac('sha512', 'other').update('a=1').digest('hex'), `${A1}=`]) {
      expect(noteOf(presented), presented).toStrictEqual({ match: 'none', note: NO_KNOWN });
    }
  });
  it('says nothing of a form that is not exactly one: an = inside the base64, a prefix not a token, a line break after the hex', () => {
    const unpadded = bytes.toString('base64').replace(/=+$/, '');
    for (const presented of [`${unpadded.slice(0, 20)}=${unpadded.slice(20)}`, `.sha256=${A1}`, `sha256=${A1}\n`]) {
      expect(noteOf(presented), presented).toStrictEqual({ match: 'none', note: NO_KNOWN });
    }
  });
});

describe('explainPresented: a presented message or signature, every smallest set of alternatives that gives it', () => {
  it('finds a pair of alternatives from the message alone', () => {
    const body = '{"a":1.50,"b":true,"n":null}';
    expect(explain(body, { message: messageOf(body, 'php-float-precision', 'null-omitted') }))
      .toEqual(['float-printer+null-omitted', 'php-float-precision+null-omitted', 'null-omitted+java-string-valueof']);
  });
  it('finds nothing (and computes no HMAC) when only a message is presented and nothing gives it', () => {
    expect(explain('{"a":1.50,"b":true,"n":null}', { message: 'nothing' })).toEqual([]);
  });
  it('finds three alternatives at once, when no two give the message', () => {
    const body = '{"c":"x","b":"","__proto__":"p","a":"1","a":"2"}';
    const message = messageOf(body, 'body-order', 'first-duplicate', 'js-proto-dropped');
    expect(message).toBe('c=x&b=&a=1');
    expect(explain(body, { message })).toEqual(['body-order+js-proto-dropped+first-duplicate']);
    expect(explain(body, { signature: hmacHex('s', message) })).toEqual(['body-order+js-proto-dropped+first-duplicate']);
  });
  it('stops at three: four alternatives together are not an explanation', () => {
    const body = '{"c":"x","b":"","__proto__":"p","a":"1","a":"2"}';
    const message = messageOf(body, 'body-order', 'first-duplicate', 'js-proto-dropped', 'empty-dropped');
    expect(message).toBe('c=x&a=1');
    expect(explain(body, { message })).toEqual([]);
  });
  it('only combines alternatives that change different points of the profile', () => {
    // php-string with ruby-to-s on top would be booleans as 1 with Ruby's floats; that is
    // bool-numeric with ruby-to-s (or ruby34-to-s), not two whole-language conversions at once.
    const body = '{"a":1e15,"b":true,"n":null}';
    expect(messageOf(body, 'php-string', 'ruby-to-s')).toBe('a=1.0e+15&b=1&n=');
    expect(explain(body, { message: 'a=1.0e+15&b=1&n=' })).toEqual(['bool-numeric+ruby-to-s', 'bool-numeric+ruby34-to-s']);
  });
  it('lets an encoding join a combination though it changes nothing on this body alone', () => {
    // PHP's float conversion writes 1.0E+20; urlencode() of that is 1.0E%2B20.
    const body = '{"a":1e20,"b":true}';
    expect(messageOf(body, 'php-urlencode')).toBe('a=1e20&b=true');
    expect(explain(body, { message: 'a=1.0E%2B20&b=true' }))
      .toEqual(['php-float-precision+url-encoded-values', 'php-float-precision+form-encoded-values', 'php-float-precision+php-urlencode']);
  });
  it('does not name an alternative that changes nothing on this body (an encoding aside)', () => {
    // null-omitted changes nothing here (the last `a` is kept, and it is not null): the empty
    // message of first-duplicate with null-omitted is not explained.
    expect(messageOf('{"a":null,"a":"x"}', 'first-duplicate', 'null-omitted')).toBe('');
    expect(explain('{"a":null,"a":"x"}', { message: '' })).toEqual([]);
  });
  it('looks past the labels it is told to exclude', () => {
    const body = '{"a":1.50,"b":true,"n":null}';
    expect(explain(body, { message: 'a=1.5&b=true' }, ['float-printer']))
      .toEqual(['php-float-precision+null-omitted', 'null-omitted+java-string-valueof']);
  });
  it('does not explain the service\'s own message, even by two alternatives that undo each other', () => {
    // first-duplicate signs `x y`; encodeURIComponent turns it into the last value, `x%20y`.
    const body = '{"a":"x y","a":"x%20y"}';
    expect(messageOf(body, 'first-duplicate', 'url-encoded-values')).toBe(messageOf(body));
    expect(explain(body, { message: 'a=x%20y' })).toEqual([]);
    expect(explain(body, { signature: hmacHex('s', 'a=x%20y') })).toEqual([]);
  });
});

describe('explainPresented: at most 600 renderings of combinations per question', () => {
  // This body has 21 alternatives that change it: 162 disjoint pairs, then triples. The 600th
  // rendering is php-urlencode+null-python+bool-numeric, the 601st php-urlencode+null-python+bool-python;
  // form-encoded-values gives the same messages and comes earlier.
  const body = '{"b":true,"a":1.50,"n":null,"c":"x y","d":"","e":"1.0"}';
  it('still tries the 600th', () => {
    const message = messageOf(body, 'php-urlencode', 'null-python', 'bool-numeric');
    expect(message).toBe('a=1.50&b=1&c=x+y&d=&e=1.0&n=None');
    expect(explain(body, { message })).toEqual(['form-encoded-values+null-python+bool-numeric', 'php-urlencode+null-python+bool-numeric']);
  });
  it('does not try the 601st', () => {
    const message = messageOf(body, 'php-urlencode', 'null-python', 'bool-python');
    expect(message).toBe('a=1.50&b=True&c=x+y&d=&e=1.0&n=None');
    expect(explain(body, { message })).toEqual(['form-encoded-values+null-python+bool-python']);
  });
});

describe('refusals: an alternative that refuses the body is a refusal, any other error is a bug', () => {
  it('lists python-ascii-only for a non-ASCII body', () => {
    expect(explainRefusal(readRawJsonObject('{"a":"é"}')).map((a) => a.label)).toEqual(['python-ascii-only']);
  });
  it('lets an error that is not a SigningError through', () => {
    // Members no reader makes: an object whose text is not JSON (nested-compact-json parses it).
    const members: RawMember[] = [{ key: 'o', value: { kind: 'object', raw: '{', members: [] } }];
    expect(() => renderingsOf(members)).toThrow(SyntaxError);
  });
});

describe('the strings\' JSON escapes signed as they stand in the body', () => {
  const body = '{"a":"\\u00e9","b":"plain","n":1,"o":["\\n"]}';
  it('is named, with only the strings that hold an escape', () => {
    expect(diagnoseSignature(body, 's', hmacHex('s', 'a=\\u00e9&b=plain&n=1&o=["\\n"]'))).toStrictEqual({
      match: 'none',
      note: 'the strings\' JSON escapes were signed as they stand in the body (a=\\u00e9), not as the characters they stand for: §5.1 signs each value\'s text, a string\'s characters once its JSON is read',
    });
  });
  it('is not named when the signature is not that either', () => {
    expect(diagnoseSignature(body, 's', hmacHex('s', 'nothing'))).toStrictEqual({ match: 'none', note: NO_KNOWN });
  });
  it('quotes at most 120 characters of the escaped strings', () => {
    const value = '\\u00e9'.repeat(10) + '\\/'.repeat(200);
    expect(diagnoseSignature(`{"long":"${value}"}`, 's', hmacHex('s', `long=${value}`))).toStrictEqual({
      match: 'none',
      note: `the strings' JSON escapes were signed as they stand in the body (long=${'\\u00e9'.repeat(10)}${'\\/'.repeat(27)}\\), not as the characters they stand for: §5.1 signs each value's text, a string's characters once its JSON is read`,
    });
  });
});

describe('signedVersusSent: the first pair that differs', () => {
  it('says the same pairs were signed', () => {
    expect(signedVersusSent([['a', '1'], ['b', '2']], [['a', '1'], ['b', '2']])).toBe('signed the same pairs');
  });
  it('names a value the signer wrote differently, past equal pairs', () => {
    expect(signedVersusSent([['a', '1'], ['b', '2.0']], [['a', '1'], ['b', '2']])).toBe('signed `b=2`, the body has `b=2.0`');
  });
  it('names a pair signed where the service signs another, even with the same value', () => {
    expect(signedVersusSent([['a', '1']], [['b', '1']])).toBe('signed `b=1` where the service signs `a=1`');
  });
  it('names a pair left out at the end', () => {
    expect(signedVersusSent([['a', '1'], ['b', '2']], [['a', '1']])).toBe('left `b=2` out');
  });
  it('names a pair the service does not sign', () => {
    expect(signedVersusSent([['a', '1']], [['a', '1'], ['b', '2']])).toBe('signed `b=2`, which the service does not');
  });
});

describe('describeDiagnosis: one sentence per diagnosis', () => {
  const float = alternative('php-float-precision');
  const printer = alternative('float-printer');
  const sent = [['amount', '15.0']] as const;
  const fit = (a: Alternative, value: string): Explanation => ({ alternatives: [a], pairs: [['amount', value]], message: `amount=${value}` });

  it('says the signature matches', () => {
    expect(describeDiagnosis({ match: 'canonical' })).toBe('the signature matches');
  });
  it('prints the note of a case or none diagnosis', () => {
    expect(describeDiagnosis({ match: 'none', note: 'n' })).toBe('n');
  });
  it('names the one alternative that fits and the first pair it changes', () => {
    expect(describeDiagnosis({ match: 'alternative', fits: [fit(float, '15')], canonicalPairs: [...sent] })).toBe(
      `your signature matches the message of ${describeExplanation({ alternatives: [float] })}: signed \`amount=15\`, the body has \`amount=15.0\`; ${SERVICE}`,
    );
  });
  it('says once what several fits that change the same pair changed', () => {
    expect(describeDiagnosis({ match: 'alternative', fits: [fit(float, '15'), fit(printer, '15')], canonicalPairs: [...sent] })).toBe(
      `the evidence is ambiguous: your signature matches the message of each of 2 alternatives: ${describeExplanation({ alternatives: [float] })}; or ${describeExplanation({ alternatives: [printer] })}: each signed \`amount=15\`, the body has \`amount=15.0\`; ${SERVICE}`,
    );
  });
  it('says for each fit what it changed when they differ', () => {
    expect(describeDiagnosis({ match: 'alternative', fits: [fit(float, '15'), fit(printer, '15.00')], canonicalPairs: [...sent] })).toBe(
      `the evidence is ambiguous: your signature matches the message of each of 2 alternatives: ${describeExplanation({ alternatives: [float] })}, which signed \`amount=15\`, the body has \`amount=15.0\`; or ${describeExplanation({ alternatives: [printer] })}, which signed \`amount=15.00\`, the body has \`amount=15.0\`; ${SERVICE}`,
    );
  });
});

describe('signatureOf: the HMAC of an explanation\'s message', () => {
  it('is lower-case hex HMAC-SHA256', () => {
    expect(signatureOf('key', { message: 'a=1' })).toBe(A1);
  });
});
