// Secrets of a standalone simulator: from COLLECT_CLIENT_KEY, COLLECT_SECRET_KEY and
// COLLECT_CALLBACK_TOKEN when set, otherwise test values generated at start (never real ones).
import { randomBytes } from 'node:crypto';
import type { SimulatorClient } from './config.ts';

export interface Credentials {
  clients: SimulatorClient[];
  callbackToken: string;
  /** Names of the values that were generated (to be printed once, as test values). */
  generated: Array<'client_key' | 'secret_key' | 'callback_token'>;
}

export function generateCredentials(clientId = 1): { clients: SimulatorClient[]; callbackToken: string } {
  return {
    clients: [{ clientId, clientKey: `test_ck_${hex(8)}`, secretKey: `test_sk_${hex(16)}` }],
    callbackToken: `test_cbt_${hex(12)}`,
  };
}

export function credentialsFromEnv(env: NodeJS.ProcessEnv, clientId = 1): Credentials {
  const fresh = generateCredentials(clientId);
  const client = fresh.clients[0]!;
  const generated: Credentials['generated'] = [];
  const clientKey = env['COLLECT_CLIENT_KEY'] || (generated.push('client_key'), client.clientKey);
  const secretKey = env['COLLECT_SECRET_KEY'] || (generated.push('secret_key'), client.secretKey);
  const callbackToken = env['COLLECT_CALLBACK_TOKEN'] || (generated.push('callback_token'), fresh.callbackToken);
  return { clients: [{ clientId, clientKey, secretKey }], callbackToken, generated };
}

function hex(bytes: number): string {
  return randomBytes(bytes).toString('hex');
}
