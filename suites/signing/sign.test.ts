// §5.1 steps 4–5 and §5.2 (harness/signing/sign.ts): the stages of signing, verification that
// treats an unreadable body as a failed signature (and nothing else), and the Authorization
// header `HMAC {client_key}:{hmac_signature}` read exactly, scheme word and all.
import { describe, expect, it } from 'vitest';
import { parseAuthorizationHeader, signBody, verifyBody, SigningError } from '../../harness/signing/index.ts';

// HMAC-SHA256(key="key", "a=1"), lower-case hex (the known answer of canonical-signer.test.ts).
const A1 = 'b17f9ae9ca05727a9af1d682e302eb7729bf55bf4bef5ba64cebbe8646401b99';

describe('signBody: every stage, and the header only when a client key is given', () => {
  it('has no authorization without a client key', () => {
    expect(signBody('{"a":"1"}', 'key')).toStrictEqual({ pairs: [['a', '1']], message: 'a=1', signature: A1 });
  });
  it('has the header with a client key', () => {
    expect(signBody('{"a":"1"}', 'key', { clientKey: 'ck' }).authorization).toBe(`HMAC ck:${A1}`);
  });
});

describe('verifyBody: an unreadable body is a failed signature; a programming error is not hidden', () => {
  it('is false for a body that is not JSON', () => {
    expect(verifyBody('{"a":', 'key', A1)).toBe(false);
  });
  it('throws what is not a SigningError (a caller passing no text at all)', () => {
    expect(() => verifyBody(undefined as unknown as string, 'key', A1)).toThrow(TypeError);
  });
});

describe('§5.2 parseAuthorizationHeader: exactly `HMAC {client_key}:{signature}`', () => {
  const malformed = (header: string | undefined) => {
    try {
      parseAuthorizationHeader(header);
    } catch (error) {
      expect(error).toBeInstanceOf(SigningError);
      return [(error as SigningError).code, (error as SigningError).message];
    }
    throw new Error(`accepted ${header}`);
  };
  it('calls an empty header missing, like an absent one', () => {
    expect(malformed('')).toEqual(['ERR_AUTHORIZATION_MALFORMED', 'Authorization header is missing']);
    expect(malformed(undefined)).toEqual(['ERR_AUTHORIZATION_MALFORMED', 'Authorization header is missing']);
  });
  it('refuses text before the scheme word', () => {
    expect(malformed(`xHMAC ck:${A1}`)).toEqual(['ERR_AUTHORIZATION_MALFORMED', 'Authorization header is not "HMAC {client_key}:{signature}"']);
  });
  it('refuses text after the signature', () => {
    expect(malformed(`HMAC ck:${A1} extra`)).toEqual(['ERR_AUTHORIZATION_MALFORMED', 'Authorization header is not "HMAC {client_key}:{signature}"']);
  });
  it('reads the client key and the signature', () => {
    expect(parseAuthorizationHeader(`HMAC ck:${A1}`)).toEqual({ clientKey: 'ck', signature: A1 });
  });
});
