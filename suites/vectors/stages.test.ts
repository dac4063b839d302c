// Every stage in the committed vectors equals what harness/signing and harness/callback
// compute now: a change to the signer or the composer that breaks a vector fails here.
import { describe, expect, it } from 'vitest';
import {
  ALTERNATIVES, diagnoseSignature, hmacHex, joinPairs, readRawJsonObject, renderingsOf, signBody, verifyBody,
} from '../../harness/signing/index.ts';
import { composeCallbackUrl, parseCallbackQuery } from '../../harness/callback/index.ts';
import { callbackQueryFile, callbackUrlFile, signatureFile } from './load.ts';

describe('§5.1/§5.2 signature vectors equal harness/signing', () => {
  const file = signatureFile();
  for (const v of file.tests) {
    describe(`vectors.signature.${v.tcId} (${v.result}): ${v.comment}`, () => {
      it('pairs, message, signature and authorization equal signBody', () => {
        const stages = signBody(v.body, v.secret, { clientKey: v.clientKey });
        expect(stages.pairs, 'pairs').toEqual(v.pairs);
        expect(stages.message, 'message').toBe(v.message);
        expect(stages.signature, 'signature').toBe(v.signature);
        expect(stages.authorization, 'authorization').toBe(v.authorization);
      });
      it('alternatives are every labelled rendering that differs, with its signature', () => {
        // An alternative that refuses the body (an ASCII-only encode) has no message to list.
        const expected = [...renderingsOf(readRawJsonObject(v.body))].flatMap(([a, pairs]) => {
          if (pairs === undefined) return [];
          const message = joinPairs(pairs);
          return message === v.message ? [] : [{ label: a.label, message, signature: hmacHex(v.secret, message) }];
        });
        expect(expected.map((e) => e.label)).toEqual(ALTERNATIVES.filter((a) => expected.some((e) => e.label === a.label)).map((a) => a.label));
        expect(v.alternatives).toEqual(expected);
      });
      if (v.result === 'invalid') {
        it('the presented signature is refused', () => {
          expect(v.presentedSignature).toBeDefined();
          expect(v.presentedSignature).not.toBe(v.signature);
          expect(verifyBody(v.body, v.secret, v.presentedSignature!)).toBe(false);
        });
      } else {
        it('the signature verifies over the raw body', () => {
          expect(verifyBody(v.body, v.secret, v.signature)).toBe(true);
        });
        for (const alt of v.alternatives) {
          it(`diagnoseSignature names alternative ${alt.label} among the renderings that fit`, () => {
            const d = diagnoseSignature(v.body, v.secret, alt.signature);
            expect(d.match).toBe('alternative');
            const fits = d.match === 'alternative' ? d.fits.map((f) => f.alternatives.map((a) => a.label).join('+')) : [];
            expect(fits).toContain(alt.label);
          });
        }
      }
    });
  }

  it('NonInjective vectors come in pairs of different bodies with one message', () => {
    const byMessage = new Map<string, Set<string>>();
    for (const v of file.tests.filter((t) => t.flags.includes('NonInjective'))) {
      byMessage.set(v.message, (byMessage.get(v.message) ?? new Set()).add(v.body));
    }
    expect(byMessage.size).toBeGreaterThanOrEqual(2);
    for (const [message, bodies] of byMessage) expect(bodies.size, message).toBeGreaterThanOrEqual(2);
  });
  it('reordered and whitespace-formatted bodies of the six fields share one signature', () => {
    const sixFields = file.tests.filter((t) => (t.flags.includes('ReorderedBody') && t.flags.includes('SpecFields')) || (t.flags.includes('Whitespace') && t.result === 'valid'));
    expect(sixFields.length).toBeGreaterThanOrEqual(2);
    const reference = file.tests.find((t) => t.tcId === 2)!;
    for (const t of sixFields) {
      expect(t.body, `tcId ${t.tcId}`).not.toBe(reference.body);
      expect(t.signature, `tcId ${t.tcId}`).toBe(reference.signature);
    }
  });
  it('acceptable vectors name at least one alternative, except the empty body', () => {
    for (const v of file.tests.filter((t) => t.result === 'acceptable')) {
      if (v.flags.includes('EmptyBody')) continue;
      expect(v.alternatives.length, `tcId ${v.tcId}`).toBeGreaterThan(0);
    }
  });
});

describe('§6 callback-url vectors equal harness/callback', () => {
  for (const v of callbackUrlFile().tests) {
    describe(`vectors.callback-url.${v.tcId} (${v.result}): ${v.comment}`, () => {
      it('url equals composeCallbackUrl', () => {
        expect(composeCallbackUrl(v.callbackUrl, v.params)).toBe(v.url);
      });
      it('requestTarget is the url without scheme, authority and fragment', () => {
        expect(v.requestTarget.includes('#')).toBe(false);
        expect(v.url.split('#')[0]!.endsWith(v.requestTarget.replace(/^\/(?=\?)/, ''))).toBe(true);
      });
      it('the receiver parses the three parameters back from requestTarget', () => {
        const parsed = parseCallbackQuery(v.requestTarget);
        expect({ transaction_id: parsed.transaction_id, status: parsed.status, message: parsed.message }).toEqual(v.params);
      });
      it('alternatives differ from the url and have distinct labels', () => {
        for (const alt of v.alternatives) expect(alt.url, alt.label).not.toBe(v.url);
        expect(new Set(v.alternatives.map((a) => a.label)).size).toBe(v.alternatives.length);
      });
    });
  }
});

describe('§6 callback-query vectors equal harness/callback', () => {
  for (const v of callbackQueryFile().tests) {
    describe(`vectors.callback-query.${v.tcId} (${v.result}): ${v.comment}`, () => {
      it('expected and all equal parseCallbackQuery', () => {
        const parsed = parseCallbackQuery(v.requestTarget);
        expect(parsed.all, 'all').toEqual(v.all);
        expect({ transaction_id: parsed.transaction_id, status: parsed.status, message: parsed.message }).toEqual(v.expected);
      });
      it('alternatives differ from expected', () => {
        for (const alt of v.alternatives) expect(alt.expected, alt.label).not.toEqual(v.expected);
      });
    });
  }
});
