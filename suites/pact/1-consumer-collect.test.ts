// Consumer side of the collect pact: collect-client → collection-service (§4.1, §5, §7).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PactV4, MatchersV3 } from '@pact-foundation/pact';
import {
  PARTICIPANTS, PACT_FILES, COLLECT_PATH, STATUS_PATH, EXAMPLE_CREDENTIALS as C, EXAMPLE_VALUES as V,
  STATES, postSigned, authorizationMatcher, collectBodyMatcher, shippedPactPath, refreshPactFile, comparePactFiles,
  INJECTED, TRANSACTION_STATUS_PATTERN, type CollectBody, type StatusBody,
} from '../../harness/contracts/index.ts';
import { STATUS_POSITION, STATUS_VALUES } from '../../harness/status/index.ts';

const { matchStatus } = MatchersV3;

let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'pact-collect-'));
});
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

function pact(): PactV4 {
  return new PactV4({ consumer: PARTICIPANTS.client, provider: PARTICIPANTS.service, dir, logLevel: 'warn' });
}

const exampleBody: CollectBody = {
  amount: V.amount,
  callback_url: V.callbackUrl,
  client_id: C.clientId,
  customer_number: V.whitelistedNumber,
  network_code: V.networkCode,
  transaction_id: V.transactionId,
};
const credentials = { clientKey: C.clientKey, secretKey: C.secretKey };

describe('collect pact: accepted collect request (§4.1, §5.2)', () => {
  it('a signed request for a whitelisted number is accepted', async () => {
    await pact()
      .addInteraction()
      .given(STATES.whitelisted)
      .uponReceiving('a signed collect request for a whitelisted customer number')
      .withRequest('POST', COLLECT_PATH, (b) => {
        b.headers({ 'Content-Type': 'application/json', Authorization: authorizationMatcher(exampleBody, C.secretKey) });
        b.jsonBody(collectBodyMatcher(exampleBody));
      })
      .willRespondWith(matchStatus(200, MatchersV3.HTTPResponseStatusClass.Success), (b) => {
        b.jsonBody({ success: true });
      })
      .executeTest(async (mock) => {
        const answer = await postSigned(mock.url, COLLECT_PATH, exampleBody, credentials);
        expect(answer.status).toBe(200);
        expect(answer.body).toMatchObject({ success: true });
      });
  });
});

describe('collect pact: rejected collect requests (§5.2, §5.3, §7)', () => {
  const rejection = (exampleCode: string) => ({ success: false, error_code: MatchersV3.string(exampleCode) });

  it('a number outside the sandbox whitelist is rejected with success false', async () => {
    const body: CollectBody = { ...exampleBody, customer_number: V.notWhitelistedNumber, transaction_id: 'PACT-TX-0002' };
    await pact()
      .addInteraction()
      .given(STATES.notWhitelisted)
      .uponReceiving('a signed collect request for a customer number outside the sandbox whitelist')
      .withRequest('POST', COLLECT_PATH, (b) => {
        b.headers({ 'Content-Type': 'application/json', Authorization: authorizationMatcher(body, C.secretKey) });
        b.jsonBody(collectBodyMatcher(body, { exactCustomerNumber: true }));
      })
      .willRespondWith(matchStatus(403, MatchersV3.HTTPResponseStatusClass.ClientError), (b) => {
        // §7 leaves status codes and bodies open: any 4xx, success false, some error_code.
        b.jsonBody(rejection('NUMBER_NOT_WHITELISTED'));
      })
      .executeTest(async (mock) => {
        const answer = await postSigned(mock.url, COLLECT_PATH, body, credentials);
        expect(answer.status).toBe(403);
        expect(answer.body).toMatchObject({ success: false });
      });
  });

  it('a signature that does not match the body is rejected with success false', async () => {
    const body: CollectBody = { ...exampleBody, transaction_id: 'PACT-TX-0003' };
    await pact()
      .addInteraction()
      .given(STATES.badSignature)
      .uponReceiving('a collect request whose signature does not match its body')
      .withRequest('POST', COLLECT_PATH, (b) => {
        b.headers({ 'Content-Type': 'application/json', Authorization: authorizationMatcher(body, C.staleSecretKey) });
        b.jsonBody(collectBodyMatcher(body));
      })
      .willRespondWith(matchStatus(401, MatchersV3.HTTPResponseStatusClass.ClientError), (b) => {
        b.jsonBody(rejection('INVALID_SIGNATURE'));
      })
      .executeTest(async (mock) => {
        // A client holding a stale secret: the header has the right shape, the value is wrong.
        const answer = await postSigned(mock.url, COLLECT_PATH, body, { clientKey: C.clientKey, secretKey: C.staleSecretKey });
        expect(answer.status).toBe(401);
        expect(answer.body).toMatchObject({ success: false });
      });
  });
});

describe('collect pact: transaction status request (§4.2, §6 receiver rule 5)', () => {
  it('follows the suite\'s position (harness/status): the path, and the three status values', () => {
    expect(STATUS_PATH).toBe(STATUS_POSITION.path);
    expect(STATUS_POSITION.method).toBe('POST');
    expect(STATUS_VALUES.every((v) => new RegExp(TRANSACTION_STATUS_PATTERN).test(v))).toBe(true);
    expect(new RegExp(TRANSACTION_STATUS_PATTERN).test('success')).toBe(false);
  });

  it('a signed status request for an accepted transaction answers its state', async () => {
    const body: StatusBody = { client_id: C.clientId, transaction_id: V.transactionId };
    await pact()
      .addInteraction()
      .given(STATES.transactionExists)
      .uponReceiving('a signed transaction status request for an accepted transaction')
      .withRequest('POST', STATUS_PATH, (b) => {
        b.headers({ 'Content-Type': 'application/json', Authorization: authorizationMatcher(body, C.secretKey) });
        b.jsonBody({
          client_id: MatchersV3.integer(body.client_id),
          transaction_id: MatchersV3.fromProviderState(`\${${INJECTED.transactionId}}`, body.transaction_id),
        });
      })
      .willRespondWith(matchStatus(200, MatchersV3.HTTPResponseStatusClass.Success), (b) => {
        b.jsonBody({
          success: true,
          transaction_id: MatchersV3.fromProviderState(`\${${INJECTED.transactionId}}`, body.transaction_id),
          // Names of non-terminal states are not shown (§3): the suite's position is PENDING.
          status: MatchersV3.regex(TRANSACTION_STATUS_PATTERN, 'PENDING'),
        });
      })
      .executeTest(async (mock) => {
        const answer = await postSigned(mock.url, STATUS_PATH, body, credentials);
        expect(answer.status).toBe(200);
        expect(answer.body).toMatchObject({ success: true, transaction_id: V.transactionId });
      });
  });

  it('a signed status request for an id the service never saw is refused with success false (never a status)', async () => {
    const body: StatusBody = { client_id: C.clientId, transaction_id: V.unknownTransactionId };
    await pact()
      .addInteraction()
      .given(STATES.transactionUnknown)
      .uponReceiving('a signed transaction status request for an id no collect used')
      .withRequest('POST', STATUS_PATH, (b) => {
        b.headers({ 'Content-Type': 'application/json', Authorization: authorizationMatcher(body, C.secretKey) });
        b.jsonBody({
          client_id: MatchersV3.integer(body.client_id),
          transaction_id: MatchersV3.fromProviderState(`\${${INJECTED.transactionId}}`, body.transaction_id),
        });
      })
      .willRespondWith(matchStatus(404, MatchersV3.HTTPResponseStatusClass.ClientError), (b) => {
        // The position: 404 {"success": false, "error_code": 404, "error_message"}; any 4xx and
        // any error_code verify (§7 leaves both open).
        b.jsonBody({ success: false });
      })
      .executeTest(async (mock) => {
        const answer = await postSigned(mock.url, STATUS_PATH, body, credentials);
        expect(answer.status).toBe(404);
        expect(answer.body).toMatchObject({ success: false });
      });
  });
});

describe('collect pact: the committed copy in vectors/pacts/ is current', () => {
  it('the generated pact equals the committed one (UPDATE_PACTS=1 refreshes it)', async () => {
    const generated = join(dir, PACT_FILES.service);
    const committed = shippedPactPath('service');
    if (process.env['UPDATE_PACTS'] === '1') await refreshPactFile(generated, committed);
    const comparison = await comparePactFiles(generated, committed);
    expect(comparison.differences, 'stale vectors/pacts: run UPDATE_PACTS=1 npx vitest run --config vitest.pact.config.ts').toEqual([]);
    expect(comparison.current).toBe(true);
  });
});
