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
  it('each problem in its words: the separator expected and why, the supplied URL not kept', () => {
    expect(compositionProblems('http://h/cb/t?ref=1', '/cb/t?ref=1?transaction_id=a&status=SUCCESS&message=x'))
      .toEqual(['after the supplied URL comes "?", expected "&" (the URL already has a query string)']);
    expect(compositionProblems('http://h/cb/t', '/cb/t&transaction_id=a&status=SUCCESS&message=x'))
      .toEqual(['after the supplied URL comes "&", expected "?" (the URL has no query string)']);
    expect(compositionProblems('http://h/cb/t', '/cb/t')).toEqual(['after the supplied URL comes "", expected "?" (the URL has no query string)']);
    expect(compositionProblems('http://h/cb/t?ref=1', '/cb/t?transaction_id=a&status=SUCCESS&message=x'))
      .toEqual(['the request target does not start with the supplied URL (/cb/t?ref=1)', 'the query string of the supplied URL was dropped or changed']);
    // Another path altogether: the query is not what was lost.
    expect(compositionProblems('http://h/cb/t?ref=1', '/cb/u?ref=1&transaction_id=a&status=SUCCESS&message=x'))
      .toEqual(['the request target does not start with the supplied URL (/cb/t?ref=1)']);
    expect(compositionProblems('http://h/cb/t', '/cb/u?transaction_id=a&status=SUCCESS&message=x'))
      .toEqual(['the request target does not start with the supplied URL (/cb/t)']);
    expect(compositionProblems('http://h/cb/t', '/cb/t?status=SUCCESS&message=x')).toEqual(['the appended parameters lack transaction_id']);
  });
  it('compared from /cb/ on, whatever the host the service was given; a URL without /cb/ is compared whole', () => {
    expect(compositionProblems('https://public.example/cb/t', '/cb/t?transaction_id=a&status=SUCCESS&message=x')).toEqual([]);
    expect(compositionProblems('/hook', '/hook?transaction_id=a&status=SUCCESS&message=x')).toEqual([]);
  });
});

describe('§6 Parameters: message URL-encoded with spaces as +', () => {
  it.each([
    ['/cb/t?message=Payment+of+GHS+1.00+received', []],
    ['/cb/t?message=Insufficient+funds+%28GHS+1.00%29', []],
    ['/cb/t?message=Payment%20of', ['message writes spaces as %20, not +']],
    ['/cb/t?message=50%+off', ['message has a % not followed by two hex digits']],
    ['/cb/t?status=SUCCESS', ['the callback has no message parameter']],
    ['/cb/t?messages=a+b', ['the callback has no message parameter']],
    ['/cb/t?message', []],
    ['/cb/t?message=a b', ['message contains a literal space']],
    ['/cb/t?message=a%2fb%2Fc', []],
    ['/cb/t?message=a%2gb', ['message has a % not followed by two hex digits']],
    // The last message parameter is the one judged.
    ['/cb/t?message=a+b&message=a%20b', ['message writes spaces as %20, not +']],
    ['/cb/t?message=a%20b&message=a+b', []],
    ['/cb/t?message=a b%20c%', ['message contains a literal space', 'message writes spaces as %20, not +', 'message has a % not followed by two hex digits']],
  ] as const)('%s → %j', (raw, problems) => {
    expect(messageEncodingProblems(raw)).toEqual(problems);
  });
});
