// Consumer side of the callback pact: collection-service → callback-receiver (§4.3, §6). The
// service is the consumer here: the reverse-direction pact Pact users write for webhooks.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PactV4, MatchersV3 } from '@pact-foundation/pact';
import {
  PARTICIPANTS, PACT_FILES, PACT_CALLBACK_PATH, EXAMPLE_CREDENTIALS as C, EXAMPLE_VALUES as V, STATES, INJECTED,
  CALLBACK_STATUS_PATTERN, sendCallback, shippedPactPath, refreshPactFile, comparePactFiles,
} from '../../harness/contracts/index.ts';
import type { CallbackParams } from '../../harness/callback/index.ts';

const { matchStatus, regex, string, fromProviderState } = MatchersV3;
const SUCCESS_2XX = MatchersV3.HTTPResponseStatusClass.Success;

let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'pact-callback-'));
});
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

function pact(): PactV4 {
  return new PactV4({ consumer: PARTICIPANTS.service, provider: PARTICIPANTS.receiver, dir, logLevel: 'warn' });
}

/** The query of §6 with exact parameter names; the id comes from the provider state. */
function callbackQuery(params: CallbackParams) {
  return {
    transaction_id: fromProviderState(`\${${INJECTED.id}}`, params.transaction_id),
    status: regex(CALLBACK_STATUS_PATTERN, params.status),
    message: string(params.message),
  };
}

/** The service's side: the callback_url as the client supplied it, then composed per §6. */
async function deliver(mockUrl: string, params: CallbackParams, token: string) {
  return sendCallback({ callbackUrl: `${mockUrl}${PACT_CALLBACK_PATH}`, params, token });
}

/** One callback interaction: the provider state, the request the service sends, the answer it expects. */
interface CallbackInteraction {
  state: string;
  description: string;
  params: CallbackParams;
  token: string;
  answer: 200 | 403;
}

async function expectInteraction({ state, description, params, token, answer }: CallbackInteraction): Promise<void> {
  await pact()
    .addInteraction()
    .given(state, { id: params.transaction_id })
    .uponReceiving(description)
    .withRequest('GET', PACT_CALLBACK_PATH, (b) => {
      b.query(callbackQuery(params));
      b.headers({ 'X-Callback-Token': token });
    })
    .willRespondWith(answer === 200 ? matchStatus(200, SUCCESS_2XX) : 403)
    .executeTest(async (mock) => {
      expect((await deliver(mock.url, params, token)).status).toBe(answer);
    });
}

describe('callback pact: outcome callbacks to a pending transaction (§4.3, §6 receiver rules 2–3)', () => {
  const cases: Array<{ title: string; params: CallbackParams }> = [
    { title: 'a SUCCESS callback', params: { transaction_id: V.transactionId, status: 'SUCCESS', message: V.successMessage } },
    { title: 'a FAILED callback', params: { transaction_id: 'PACT-TX-0002', status: 'FAILED', message: V.failedMessage } },
  ];
  for (const { title, params } of cases) {
    it(`${title} with the configured token gets 2xx`, () => expectInteraction({
      state: STATES.pending, description: `${title} with the configured token for a pending transaction`,
      params, token: C.callbackToken, answer: 200,
    }));
  }
});

describe('callback pact: a duplicate callback (§6 "at least once", receiver rule 2)', () => {
  it('a repeated SUCCESS callback for a SUCCESS transaction still gets 2xx', () => expectInteraction({
    state: STATES.alreadySuccess, description: 'a duplicate SUCCESS callback for a transaction already SUCCESS',
    params: { transaction_id: 'PACT-TX-0003', status: 'SUCCESS', message: V.successMessage }, token: C.callbackToken, answer: 200,
  }));
});

describe('callback pact: a wrong token (§6 receiver rule 1, §7)', () => {
  it('a callback with a wrong X-Callback-Token gets 403', () => expectInteraction({
    state: STATES.pending, description: 'a SUCCESS callback with a wrong token for a pending transaction',
    params: { transaction_id: 'PACT-TX-0004', status: 'SUCCESS', message: V.successMessage }, token: C.wrongCallbackToken, answer: 403,
  }));
});

describe('callback pact: the committed copy in vectors/pacts/ is current', () => {
  it('the generated pact equals the committed one (UPDATE_PACTS=1 refreshes it)', async () => {
    const generated = join(dir, PACT_FILES.receiver);
    const committed = shippedPactPath('receiver');
    if (process.env['UPDATE_PACTS'] === '1') await refreshPactFile(generated, committed);
    const comparison = await comparePactFiles(generated, committed);
    expect(comparison.differences, 'stale vectors/pacts: run UPDATE_PACTS=1 npx vitest run --config vitest.pact.config.ts').toEqual([]);
    expect(comparison.current).toBe(true);
  });
});
