// The labelled ways real code composes and parses a callback query (harness/callback/alternatives.ts),
// looked up by label as the vector and receiver diagnoses name them.
import { describe, expect, it } from 'vitest';
import { COMPOSE_ALTERNATIVES, composeAlternative, PARSE_ALTERNATIVES, parseAlternative } from '../../harness/callback/index.ts';

describe('alternatives by label', () => {
  it('each label finds its own alternative', () => {
    for (const a of COMPOSE_ALTERNATIVES) expect(composeAlternative(a.label)).toBe(a);
    for (const a of PARSE_ALTERNATIVES) expect(parseAlternative(a.label)).toBe(a);
  });
  it('a label no alternative has is refused, naming it', () => {
    expect(() => composeAlternative('no-such-way')).toThrow('no compose alternative labelled "no-such-way"');
    expect(() => parseAlternative('no-such-way')).toThrow('no parse alternative labelled "no-such-way"');
  });
});

describe('first-occurrence: a repeated name keeps its first value', () => {
  it('the first transaction_id of two, and no message where the query has none', () => {
    const parsed = parseAlternative('first-occurrence').parse('/cb?transaction_id=a%2B1&status=SUCCESS&transaction_id=b');
    expect([parsed.transaction_id, parsed.status, parsed.message]).toEqual(['a+1', 'SUCCESS', undefined]);
  });
});
