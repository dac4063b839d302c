// The credentials of a client run: the harness plays the service, so it makes its own test
// values (the shapes the reference service generates), never real ones.
import { randomBytes } from 'node:crypto';
import { TARGET_DEFAULTS } from './types.ts';

export function generateClientCredentials(): { clientId: number; clientKey: string; secretKey: string } {
  return {
    clientId: TARGET_DEFAULTS.client.clientId,
    clientKey: `test_ck_${randomBytes(8).toString('hex')}`,
    secretKey: `test_sk_${randomBytes(16).toString('hex')}`,
  };
}
