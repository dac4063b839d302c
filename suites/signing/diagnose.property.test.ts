// The catalogue names a wrong signer whatever the body: a signature made by any labelled
// alternative over any body (where that alternative changes the message) is diagnosed with that
// alternative among the fits, never as "the secret is wrong or the body changed".
import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import {
  ALTERNATIVES, diagnoseSignature, describeDiagnosis, hmacHex, joinPairs, pairsOfMembers, profileOf, readRawJsonObject,
  SigningError, SUITE_PROFILE,
} from '../../harness/signing/index.ts';
import { assertProperty } from '../properties/fc-run.ts';
import { bodyOf, members } from '../properties/arbitraries.ts';

describe('diagnoseSignature names the alternative a signature follows, for any body', () => {
  it('each labelled alternative is among the fits when it changes the message', () => {
    assertProperty(fc.property(members({ minLength: 1, maxLength: 6 }), fc.constantFrom(...ALTERNATIVES), (ms, alternative) => {
      const body = bodyOf(ms);
      const parsed = readRawJsonObject(body);
      let message: string;
      try {
        message = joinPairs(pairsOfMembers(parsed, profileOf(alternative)));
      } catch (error) {
        if (error instanceof SigningError) return; // the alternative refuses this body: nothing to sign
        throw error;
      }
      if (message === joinPairs(pairsOfMembers(parsed, SUITE_PROFILE))) return;
      const diagnosis = diagnoseSignature(body, 'secret', hmacHex('secret', message));
      expect(diagnosis.match).toBe('alternative');
      const fits = diagnosis.match === 'alternative' ? diagnosis.fits.map((f) => f.alternatives.map((a) => a.label).join('+')) : [];
      expect(fits).toContain(alternative.label);
      expect(describeDiagnosis(diagnosis)).toContain(`\`${alternative.label}\``);
    }));
  });
});
