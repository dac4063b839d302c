// §6: the checks the callback cases apply to one delivery (harness/cases/service/checks.ts).
import { describe, expect, it } from 'vitest';
import { composeCallbackUrl } from '../../harness/callback/index.ts';
import { compositionProblems, messageEncodingProblems } from '../../harness/cases/service/index.ts';

const params = { transaction_id: 'tx 1', status: 'SUCCESS', message: 'Payment of GHS 1.00 received' };
const target = (url: string) => url.slice(url.indexOf('/cb/'));

describe('§6 URL composition: the supplied URL kept intact, then ? or &', () => {
  it.each([
    'http://h:1/cb/t',
    'http://h:1/cb/t?ref=order-17',
    'http://h:1/cb/t/return.v2;x=1?order=A-1%2FB&note=x=y&q=what?&empty=&flag',
  ])('the canonical composition of %s has no problem', (supplied) => {
    expect(compositionProblems(supplied, target(composeCallbackUrl(supplied, params)))).toEqual([]);
  });
  it('? after an existing query string is named', () => {
    const problems = compositionProblems('http://h/cb/t?ref=1', '/cb/t?ref=1?transaction_id=a&status=SUCCESS&message=x');
    expect(problems.join()).toMatch(/expected "&"/);
  });
  it('a dropped query string is named', () => {
    const problems = compositionProblems('http://h/cb/t?ref=1', '/cb/t?transaction_id=a&status=SUCCESS&message=x');
    expect(problems.join()).toMatch(/dropped or changed/);
  });
  it('& without any query string is named', () => {
    expect(compositionProblems('http://h/cb/t', '/cb/t&transaction_id=a&status=SUCCESS&message=x').join()).toMatch(/expected "\?"/);
  });
  it('missing appended parameters are named', () => {
    expect(compositionProblems('http://h/cb/t', '/cb/t?transaction_id=a').join()).toMatch(/lack status, message/);
  });
});

describe('§6 Parameters: message URL-encoded with spaces as +', () => {
  it.each([
    ['/cb/t?message=Payment+of+GHS+1.00+received', []],
    ['/cb/t?message=Insufficient+funds+%28GHS+1.00%29', []],
    ['/cb/t?message=Payment%20of', ['message writes spaces as %20, not +']],
    ['/cb/t?message=50%+off', ['message has a % not followed by two hex digits']],
    ['/cb/t?status=SUCCESS', ['the callback has no message parameter']],
  ] as const)('%s → %j', (raw, problems) => {
    expect(messageEncodingProblems(raw)).toEqual(problems);
  });
});
