// service.sandbox: the Numbers whitelist of sandbox mode (§5.3, §2.3) and customer numbers
// kept as text (§2.1: "Digits are kept as text, including leading zeros").
import { CaseError } from '../model.ts';
import { describeAnswer } from './session.ts';
import { expectAccepted, expectRejected, readAs, serviceCase, type ServiceCase } from './define.ts';

export const SANDBOX_CASES: readonly ServiceCase[] = [
  serviceCase({
    id: 'service.sandbox.not-whitelisted-rejected',
    title: 'in sandbox mode a non-whitelisted number is rejected',
    specRef: '§5.3, §7',
    level: 'MUST',
    needs: ['sandbox'],
    negative: 'refusal',
    async check(s) {
      const number = s.target.customerNumbers.notWhitelisted[0];
      if (number === undefined) return s.skip('the target file lists no customerNumbers.notWhitelisted');
      const fields = s.fields({ customer_number: number });
      const what = `a correctly signed request for the non-whitelisted number ${number}`;
      const answer = await s.sendAnswered({ fields }, { label: what });
      return expectRejected(s, answer, fields.tag, what);
    },
  }),
  serviceCase({
    id: 'service.sandbox.whitelisted-accepted',
    title: 'in sandbox mode a whitelisted number is accepted',
    specRef: '§5.3',
    level: 'MUST',
    needs: ['sandbox'],
    async check(s) {
      const number = s.successNumber();
      // fields() sends the success number.
      const answer = await s.sendAnswered({ fields: s.fields() }, { label: `a correctly signed collect for the whitelisted number ${number}` });
      return expectAccepted(s, answer, `a correctly signed request for the whitelisted number ${number}`);
    },
  }),
  serviceCase({
    id: 'service.sandbox.leading-zeros-kept',
    title: 'customer numbers keep their leading zeros in the whitelist',
    specRef: '§2.1, §5.3',
    // SHOULD: §2.1 keeps the digits as text and §5.3 rejects numbers not whitelisted, but no
    // sentence says how the whitelist compares numbers: a service that normalises phone numbers
    // (trunk prefix 0, E.164) and so accepts the zero-stripped twin breaks none. The half that
    // is a MUST, a whitelisted number accepted as written, is this case's control.
    level: 'SHOULD',
    needs: ['sandbox'],
    async check(s) {
      const { whitelisted, failing = [] } = s.target.customerNumbers;
      const known = new Set([...whitelisted, ...failing]);
      // The digits without the leading zeros (at least one digit kept).
      const withoutZeros = (n: string) => n.replace(/^0+(?=\d)/, '');
      // A number without a leading zero is its own twin, known: never chosen.
      const number = whitelisted.find((n) => !known.has(withoutZeros(n)));
      if (number === undefined) return s.skip('no whitelisted customer number starts with 0 (without a whitelisted twin minus the zeros)');
      const stripped = withoutZeros(number);
      // Control: the number as written must be accepted, or the rejection below proves nothing …
      const kept = await s.sendAnswered({ fields: s.fields({ customer_number: number }) }, { label: `whitelisted ${number}` });
      if (kept.judgement !== 'accepted') {
        throw new CaseError(`control failed: the whitelisted number ${number}, sent as written, was not accepted (${describeAnswer(kept)}${readAs(kept)}), so a rejection of ${stripped} would prove nothing; a leading zero lost on the way in is one likely cause (compare service.sandbox.whitelisted-accepted)`, s.evidence());
      }
      // … and the same digits without the zeros are another number, not whitelisted.
      const fields = s.fields({ customer_number: stripped });
      const what = `a request for ${stripped} (the whitelisted ${number} without its leading zeros)`;
      const answer = await s.sendAnswered({ fields }, { label: what });
      const outcome = await expectRejected(s, answer, fields.tag, what, { obligation: 'should' });
      // Only a stripped number processed says something of the whitelist; a 2xx the harness could
      // not read as a rejection (stated rejections-unread) is its own cause.
      return outcome.causes?.includes('processed')
        ? { ...outcome, reason: `${outcome.reason}. Likely causes: the whitelist compares numbers as integers (dropping leading zeros), or it is not enforced at all (compare service.sandbox.not-whitelisted-rejected)` }
        : outcome;
    },
  }),
];
