// Which case needs a target can meet, and why not when it cannot (the SKIP reason).
import { abilitiesOf } from '../observe/index.ts';
import type { ResolvedTarget } from '../targets/index.ts';
import type { Capability } from '../cases/index.ts';

/** Undefined when the target has the capability, else the reason it has not. */
export function unmetReason(target: ResolvedTarget, need: Capability): string | undefined {
  switch (need) {
    case 'records':
      if (target.side !== 'receiver') return 'records are observed on the receiver side only';
      return target.observe ? undefined : 'the target file names neither hooksUrl nor observe: the harness cannot see the receiver\'s records';
    case 'seed':
      if (target.side !== 'receiver') return 'records are observed on the receiver side only';
      if (!target.observe) return 'the target file names neither hooksUrl nor observe: the harness cannot see the receiver\'s records';
      return abilitiesOf(target.observe).seed ? undefined : 'the target\'s observe names no seed statement: the harness cannot make the pending record this case needs';
    case 'actions':
      if (target.side !== 'receiver') return 'records are observed on the receiver side only';
      if (!target.observe) return 'the target file names neither hooksUrl nor observe: the harness cannot see the receiver\'s records';
      return abilitiesOf(target.observe).actions
        ? undefined
        : 'the target\'s observe names no actions statement: this case\'s verdict rests on the count of outcomes applied (a duplicate applied twice leaves the state as it was)';
    case 'confirms':
      if (target.side !== 'receiver') return 'confirming outcomes is a receiver\'s choice (§6 rule 5)';
      return target.confirms
        ? undefined
        : 'the target file has no "confirms": the receiver does not confirm outcomes with the status endpoint (§6 rule 5 says it may)';
    case 'token':
      return target.callbackToken
        ? undefined
        : 'the target file names no callbackToken: the token check cannot be tested';
    case 'notWhitelistedSource':
      if (target.side !== 'service') return 'sources exist on the service side only';
      return target.sources?.notWhitelisted
        ? undefined
        : 'the target file names no sources.notWhitelisted: the harness cannot send from a non-whitelisted address';
    case 'failingNumber':
      if (target.side !== 'service') return 'customer numbers exist on the service side only';
      return target.customerNumbers.failing?.length
        ? undefined
        : 'the target file names no customerNumbers.failing: no transaction can be made to end FAILED';
    case 'sandbox':
      if (target.side !== 'service') return 'modes exist on the service side only';
      return target.mode === 'sandbox' ? undefined : 'the target runs in production mode: sandbox cases do not apply';
    case 'statusEndpoint':
      if (target.side !== 'service') return 'the status endpoint is queried on the service side only';
      return target.status === false
        ? 'the target file says "status": false: the service has no transaction status endpoint the harness can query (§4.2)'
        : undefined;
    case 'production':
      if (target.side !== 'service') return 'modes exist on the service side only';
      return target.mode === 'production' ? undefined : 'the target runs in sandbox mode: production cases do not apply';
  }
}

export function firstUnmet(target: ResolvedTarget, needs: readonly Capability[]): string | undefined {
  for (const need of needs) {
    const reason = unmetReason(target, need);
    if (reason) return reason;
  }
  return undefined;
}
