// Provider states. Every state hands the request a fresh transaction id (providers refuse reused
// ids, and a receiver's hooks do not re-seed one), injected through `fromProviderState`.
import { fetch } from 'undici';
import { randomBytes } from 'node:crypto';
import { COLLECT_PATH, EXAMPLE_VALUES, INJECTED, PACT_CALLBACK_PATH, STATES } from './examples.ts';
import { joinUrl, postSigned, sendCallback } from './clients.ts';
import { ContractError } from './errors.ts';
import type { ServiceRunFlags } from './filters.ts';
import type { ReceiverVerifyOptions, ServiceVerifyOptions } from './options.ts';

export type StateParams = Record<string, unknown>;
/** What a state returns: values injected into the request (`${transactionId}`, `${id}`…). */
export type StateResult = Record<string, string>;
export type StateSetup = (params: StateParams) => Promise<StateResult>;

/** Fresh ids: `<example id>-<run tag>-<n>`, unique within a run and across runs. */
export function freshIds(runTag: string = randomBytes(4).toString('hex')): (base: string) => string {
  let n = 0;
  return (base) => `${base}-${runTag}-${++n}`;
}

export function serviceStates(options: ServiceVerifyOptions, flags: ServiceRunFlags, fresh: (base: string) => string): Record<string, StateSetup> {
  const callbackUrl = options.callbackUrl ?? EXAMPLE_VALUES.callbackUrl;
  const inject = (signWithWrongSecret: boolean) => async (): Promise<StateResult> => {
    flags.signWithWrongSecret = signWithWrongSecret;
    return { [INJECTED.transactionId]: fresh(EXAMPLE_VALUES.transactionId), [INJECTED.callbackUrl]: callbackUrl };
  };
  return {
    [STATES.whitelisted]: inject(false),
    [STATES.notWhitelisted]: inject(false),
    [STATES.badSignature]: inject(true),
    [STATES.transactionExists]: async () => {
      flags.signWithWrongSecret = false;
      const transactionId = fresh(EXAMPLE_VALUES.transactionId);
      const answer = await postSigned(options.baseUrl, COLLECT_PATH, {
        amount: EXAMPLE_VALUES.amount,
        callback_url: callbackUrl,
        client_id: options.credentials.clientId,
        customer_number: options.customerNumbers?.whitelisted ?? EXAMPLE_VALUES.whitelistedNumber,
        network_code: EXAMPLE_VALUES.networkCode,
        transaction_id: transactionId,
      }, options.credentials);
      const refused = (answer.body as { success?: unknown } | null)?.success === false;
      if (answer.status < 200 || answer.status > 299 || refused) {
        throw new ContractError('ERR_PACT_STATE', `state "${STATES.transactionExists}": the provider refused the collect request (HTTP ${answer.status})`);
      }
      return { [INJECTED.transactionId]: transactionId };
    },
    // A fresh id no collect used (§4.2 position: answered 404, never a status).
    [STATES.transactionUnknown]: async () => {
      flags.signWithWrongSecret = false;
      return { [INJECTED.transactionId]: fresh(EXAMPLE_VALUES.unknownTransactionId) };
    },
  };
}

export function receiverStates(options: ReceiverVerifyOptions, fresh: (base: string) => string): Record<string, StateSetup> {
  const callbackUrl = joinUrl(options.baseUrl, options.callbackPath ?? PACT_CALLBACK_PATH);
  const seed = async (id: string): Promise<void> => {
    if (!options.hooksUrl) return; // black-box receiver: it must accept an unknown id with 2xx
    const response = await fetch(joinUrl(options.hooksUrl, '/transactions'), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ transaction_id: id, amount: '10.00' }),
    });
    await response.text();
    if (response.status < 200 || response.status > 299) {
      throw new ContractError('ERR_PACT_STATE', `hooks: POST /transactions for ${JSON.stringify(id)} answered HTTP ${response.status}`);
    }
  };
  const idOf = (params: StateParams): string => fresh(typeof params['id'] === 'string' ? params['id'] : EXAMPLE_VALUES.transactionId);
  return {
    [STATES.pending]: async (params) => {
      const id = idOf(params);
      await seed(id);
      return { [INJECTED.id]: id };
    },
    [STATES.alreadySuccess]: async (params) => {
      const id = idOf(params);
      await seed(id);
      const first = await sendCallback({
        callbackUrl,
        params: { transaction_id: id, status: 'SUCCESS', message: EXAMPLE_VALUES.successMessage },
        token: options.callbackToken,
      });
      if (first.status < 200 || first.status > 299) {
        throw new ContractError('ERR_PACT_STATE', `state "${STATES.alreadySuccess}": the first SUCCESS callback answered HTTP ${first.status}`);
      }
      if (options.hooksUrl) await expectState(options.hooksUrl, id, 'SUCCESS');
      return { [INJECTED.id]: id };
    },
  };
}

async function expectState(hooksUrl: string, id: string, state: string): Promise<void> {
  const response = await fetch(joinUrl(hooksUrl, `/transactions/${encodeURIComponent(id)}`));
  const body = (await response.json().catch(() => null)) as { state?: unknown } | null;
  if (response.status !== 200 || body?.state !== state) {
    throw new ContractError('ERR_PACT_STATE', `hooks: ${JSON.stringify(id)} is ${String(body?.state ?? `HTTP ${response.status}`)}, expected ${state}`);
  }
}
