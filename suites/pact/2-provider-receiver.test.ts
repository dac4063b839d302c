// Provider verification of the callback pact (collection-service → callback-receiver) against
// the reference receiver. States are set through the receiver's test hooks (DESIGN.md), the way
// any receiver with hooks is verified by `collect-conformance pact verify --side receiver`.
import { describe, expect, it } from 'vitest';
import { startReceiver, type ReceiverConfig } from '../../harness/receiver/index.ts';
import { verifyProvider, type VerificationOutcome } from '../../harness/contracts/index.ts';

async function verifyReceiver(config: Partial<ReceiverConfig>): Promise<VerificationOutcome> {
  // The receiver keeps its own generated token: the request filter puts it in place of the
  // pact's placeholder, as it does for a user's receiver.
  const receiver = await startReceiver({ workMs: 5, timeScale: 0.01, log: () => {}, ...config });
  try {
    return await verifyProvider({
      side: 'receiver',
      baseUrl: receiver.url,
      hooksUrl: receiver.hooksUrl,
      callbackToken: receiver.config.callbackToken,
      callbackPath: receiver.config.callbackPath,
    });
  } finally {
    await receiver.close();
  }
}

describe('callback pact: the reference receiver satisfies every interaction (§4.3, §6)', () => {
  it('verification passes with states seeded through the hooks', async () => {
    const outcome = await verifyReceiver({});
    expect(outcome.stateErrors).toEqual([]);
    expect(outcome.failures).toEqual([]);
    expect(outcome.ok).toBe(true);
  });

  it('verification passes on a callback path other than the pact\'s /callback', async () => {
    const outcome = await verifyReceiver({ callbackPath: '/payments/callback' });
    expect(outcome.failures).toEqual([]);
    expect(outcome.ok).toBe(true);
  });
});

describe('callback pact: verification bites (§6 receiver rule 1)', () => {
  it('a receiver without the token check fails the wrong-token interaction, and only it', async () => {
    const outcome = await verifyReceiver({ faults: ['no-token-check'] });
    expect(outcome.ok).toBe(false);
    expect(outcome.failures).toHaveLength(1);
    expect(outcome.failures[0]).toMatch(/wrong token/);
  });
});
