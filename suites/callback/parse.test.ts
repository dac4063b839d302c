// §6 on the receiver's side, the edges the vectors do not show: what parseCallbackQuery reads
// from a request target with no query, and which names it reads out (the three of §6 only).
import { describe, expect, it } from 'vitest';
import { formDecode, parseCallbackQuery, queryOf } from '../../harness/callback/index.ts';

describe('§6: a request target without a query carries no parameters', () => {
  it('a bare path, and a path whose only `?` is inside the fragment, parse to nothing', () => {
    expect(queryOf('/cb')).toBe('');
    expect(parseCallbackQuery('/cb')).toEqual({ all: [] });
    expect(parseCallbackQuery('https://m.test/cb#x?status=SUCCESS')).toEqual({ all: [] });
  });
});

describe('§6 Parameters: transaction_id, status and message are read out, any other name only listed', () => {
  it('a parameter named `all` or `ref` stays in `all` and adds no field', () => {
    expect(parseCallbackQuery('/cb?all=1&ref=2&status=SUCCESS')).toEqual({ all: [['all', '1'], ['ref', '2'], ['status', 'SUCCESS']], status: 'SUCCESS' });
  });
});

describe('form decoding: `+` is a space, `%XX` a UTF-8 byte, a bad `%` stays', () => {
  it('decodes multi-byte UTF-8 across %XX and keeps a `%` without two hex digits', () => {
    expect(formDecode('caf%C3%A9+ok')).toBe('café ok');
    expect(formDecode('100%+sure%4')).toBe('100% sure%4');
    expect(formDecode('%zz%')).toBe('%zz%');
  });
});
