// A small vector set built with the canonical signer, for testing the driver independently
// of the published vectors/ files (which another part of the kit generates).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  signBody, readRawJsonObject, pairsOfMembers, joinPairs, hmacHex, profileOf, findAlternative,
} from '../../harness/signing/index.ts';
import { composeCallbackUrl, parseCallbackQuery } from '../../harness/callback/index.ts';
import type { SignatureVector, VectorResult } from '../../harness/vectors/index.ts';

const SECRET = 'fixture-secret-key';

function alternative(body: string, label: string) {
  const alt = findAlternative(label);
  if (!alt) throw new Error(`no alternative ${label}`);
  const message = joinPairs(pairsOfMembers(readRawJsonObject(body), profileOf(alt)));
  return { label, message, signature: hmacHex(SECRET, message) };
}

function vector(tcId: number, comment: string, body: string, result: VectorResult, extra: Partial<SignatureVector> = {}): SignatureVector {
  const stages = signBody(body, SECRET, { clientKey: 'fixture-client' });
  return {
    tcId, comment, flags: ['Fixture'], specRef: '§5.1', secret: SECRET, clientKey: 'fixture-client', body,
    pairs: stages.pairs.map(([k, v]) => [k, v]), message: stages.message, signature: stages.signature,
    authorization: stages.authorization!, result, ...extra,
  };
}

const SIX = '{"transaction_id":"T1","amount":15.0,"client_id":2,"customer_number":"0244000001","network_code":"MTN","callback_url":"https://x.test/cb?a=1&b=2"}';

/** Built on each call, not while the module loads (mutation testing reruns every test for code run at load). */
export const fixtureSignatureVectors = (): SignatureVector[] => [
  vector(1, 'six spec fields, keys sorted', SIX, 'valid'),
  vector(2, 'upper case sorts before lower case', '{"amount":"1","Zeta":"z"}', 'valid'),
  vector(3, 'N sorts before _ by code point', '{"customer_number":"1","customerName":"Ama"}', 'acceptable', {
    alternatives: [alternative('{"customer_number":"1","customerName":"Ama"}', 'locale-order')],
  }),
  vector(4, 'changed value must not verify', '{"amount":"10.00","b":"2"}', 'invalid', {
    presentedSignature: signBody('{"amount":"1.00","b":"2"}', SECRET).signature,
  }),
  vector(5, 'two plain pairs', '{"a":"1","b":"2"}', 'valid'),
  vector(6, 'JSON number 15.0 kept as written', '{"amount":15.0}', 'acceptable', {
    alternatives: [alternative('{"amount":15.0}', 'float-printer')],
  }),
  vector(7, 'space and non-ASCII kept literal', '{"name":"Kofi Añán"}', 'valid'),
  vector(8, 'one pair', '{"x":"y"}', 'valid'),
];

/** Writes signature.json (and small callback files) into a fresh temp folder; returns it. */
export function writeFixtureVectors(tests: SignatureVector[] = fixtureSignatureVectors()): string {
  const dir = mkdtempSync(join(tmpdir(), 'cc-vectors-'));
  const header = (algorithm: string, specRef: string, n: number) => ({
    algorithm, schema: 'fixture', version: '0.0.0-fixture', specRef, numberOfTests: n, header: ['test fixture'],
    notes: { Fixture: { bugType: 'FIXTURE', description: 'test fixture', effect: 'none' } },
  });
  writeFileSync(join(dir, 'signature.json'), JSON.stringify({ ...header('HMAC-SHA256', '§5.1', tests.length), tests }));
  const params = { transaction_id: 'T 1&2', status: 'SUCCESS', message: 'Paid 10+ cedis' };
  const urls = ['https://r.test/cb', 'https://r.test/cb?x=1'].map((callbackUrl, i) => ({
    tcId: i + 1, comment: 'fixture', flags: ['Fixture'], specRef: '§6', callbackUrl, params,
    url: composeCallbackUrl(callbackUrl, params), result: 'valid',
  }));
  writeFileSync(join(dir, 'callback-url.json'), JSON.stringify({ ...header('callback-url', '§6', urls.length), tests: urls }));
  const target = '/cb?x=1&transaction_id=T1&status=FAILED&message=No+funds%21';
  const parsed = parseCallbackQuery(target);
  const queries = [{
    tcId: 1, comment: 'fixture', flags: ['Fixture'], specRef: '§6', requestTarget: target,
    expected: { transaction_id: parsed.transaction_id, status: parsed.status, message: parsed.message },
    all: parsed.all, result: 'valid',
  }];
  writeFileSync(join(dir, 'callback-query.json'), JSON.stringify({ ...header('callback-query', '§6', 1), tests: queries }));
  return dir;
}
