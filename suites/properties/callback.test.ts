// §6 as properties: composing a callback URL and parsing it back gives the same parameters,
// for any existing query string and any transaction_id / message text (fast-check).
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { composeCallbackUrl, parseCallbackQuery, formEncode } from '../../harness/callback/index.ts';
import { assertProperty } from './fc-run.ts';

const anyText = fc.string({ unit: 'binary', maxLength: 24 });
const params = fc.record({
  transaction_id: anyText,
  status: fc.oneof(fc.constantFrom('SUCCESS', 'FAILED'), anyText),
  message: fc.oneof(anyText, fc.string({ unit: fc.constantFrom(' ', '+', '%', '&', '=', '?', '#', 'é', '😀', 'a', '2', '0'), maxLength: 16 })),
});

/** Existing parameters of the merchant's URL, form-encoded as a browser or SDK would write them. */
const existingParams = fc.array(fc.tuple(anyText, anyText), { maxLength: 4 });

const QUERY_UNITS = ['a', 'b', '1', '=', '&', '%', '+', '%2', '%41', ' ', 'é', ';', '/', ':'];
/** Query text as merchants write it by hand: anything but `#` (which starts the fragment) and `?`. */
const rawQuery = fc.string({ unit: fc.constantFrom(...QUERY_UNITS), maxLength: 16 });
/** The same with `?`, legal inside a query (RFC 3986 §3.4), e.g. `?next=/done?` . */
const rawQueryWithQuestionMarks = fc.string({ unit: fc.constantFrom(...QUERY_UNITS, '?'), maxLength: 16 });

const base = fc.constantFrom('https://m.test/cb', 'https://m.test/pay/callback.php', 'https://m.test:8443/a/b/');
const fragment = fc.option(fc.string({ unit: fc.constantFrom('x', '/', '?', '&', '=', '#'), maxLength: 6 }).map((f) => `#${f}`), { nil: '' });

describe('§6 URL composition: compose then parse gives back the parameters', () => {
  it('URL without a query, or with form-encoded existing parameters, and any fragment', () => {
    const arb = fc.record({ base, existing: fc.option(existingParams, { nil: undefined }), fragment, params });
    assertProperty(fc.property(arb, ({ base: b, existing, fragment: f, params: p }) => {
      const query = existing === undefined ? '' : `?${existing.map(([n, v]) => `${formEncode(n)}=${formEncode(v)}`).join('&')}`;
      const url = composeCallbackUrl(`${b}${query}${f}`, p);
      expect(url.startsWith(`${b}${query}`)).toBe(true); // the supplied URL is kept intact
      expect(url.endsWith(f)).toBe(true);
      const parsed = parseCallbackQuery(url);
      expect({ transaction_id: parsed.transaction_id, status: parsed.status, message: parsed.message }).toEqual(p);
      expect(parsed.all).toEqual([...(existing ?? []), ['transaction_id', p.transaction_id], ['status', p.status], ['message', p.message]]);
    }));
  });
  it('any hand-written existing query string: its own parameters come first, unchanged', () => {
    const arb = fc.record({ base, query: rawQuery, fragment, params });
    assertProperty(fc.property(arb, ({ base: b, query: q, fragment: f, params: p }) => {
      const supplied = `${b}?${q}${f}`;
      const before = parseCallbackQuery(supplied).all;
      const url = composeCallbackUrl(supplied, p);
      expect(url.startsWith(`${b}?${q}`)).toBe(true);
      const parsed = parseCallbackQuery(url);
      expect(parsed.all).toEqual([...before, ['transaction_id', p.transaction_id], ['status', p.status], ['message', p.message]]);
      expect(parsed.transaction_id).toBe(p.transaction_id);
      expect(parsed.message).toBe(p.message);
    }));
  });
  // Once a known fault: `?next=/done?` was taken for a bare trailing `?` and no `&` was added.
  it('an existing query ending in `?` keeps its own parameters apart', () => {
    const arb = fc.record({ base, query: rawQueryWithQuestionMarks, params });
    assertProperty(fc.property(arb, ({ base: b, query: q, params: p }) => {
      const supplied = `${b}?${q}`;
      const parsed = parseCallbackQuery(composeCallbackUrl(supplied, p));
      expect(parsed.all).toEqual([...parseCallbackQuery(supplied).all, ['transaction_id', p.transaction_id], ['status', p.status], ['message', p.message]]);
    }));
  });
});
