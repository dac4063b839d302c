import { describe, expect, it } from 'vitest';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { renderJunit } from '../../harness/report/index.ts';
import { HOSTILE, sampleReport } from './sample.ts';

type Node = Record<string, unknown>;

function parse(xml: string): { root: Node; suites: Node[] } {
  const parser = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '@_',
    parseAttributeValue: false,
    parseTagValue: false,
    trimValues: false,
    // Numeric character references (&#10;) are standard XML; this parser decodes them only here.
    htmlEntities: true,
    isArray: (name) => ['testsuite', 'testcase', 'property'].includes(name),
  });
  const doc = parser.parse(xml) as { testsuites: Node };
  return { root: doc.testsuites, suites: doc.testsuites['testsuite'] as Node[] };
}

function testcase(suites: Node[], id: string): Node {
  for (const s of suites) {
    for (const c of s['testcase'] as Node[]) if (c['@_name'] === id) return c;
  }
  throw new Error(`no testcase ${id}`);
}

const xml = renderJunit(sampleReport());

describe('junit.xml: well-formed XML 1.0', () => {
  it('passes the XML validator', () => {
    expect(XMLValidator.validate(xml)).toBe(true);
  });
  it('contains no code point XML 1.0 forbids (control characters, lone surrogates)', () => {
    expect(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/.test(xml)).toBe(false);
    expect(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(xml)).toBe(false);
    expect(xml).toContain('control \\u0001 character and a lone \\uD800 surrogate');
  });
  it('keeps non-ASCII text as written', () => {
    expect(xml).toContain('Grüße ✓ 𝄞');
  });
});

describe('junit.xml: counts', () => {
  const { root, suites } = parse(xml);
  it('root counts: 10 tests, 2 failures, 1 error, 2 skipped (SKIP + the waived FAIL)', () => {
    expect([root['@_tests'], root['@_failures'], root['@_errors'], root['@_skipped']]).toEqual(['10', '2', '1', '2']);
  });
  it('one <testsuite> per case group, by side (service, then receiver), groups in order of first appearance, with its own counts', () => {
    expect(suites.map((s) => [s['@_name'], s['@_tests'], s['@_failures'], s['@_errors'], s['@_skipped']])).toEqual([
      ['service.callback', '2', '1', '0', '0'],
      ['service.auth', '1', '0', '1', '0'],
      ['service.sandbox', '2', '0', '0', '1'],
      ['receiver.token', '2', '1', '0', '0'],
      ['receiver.latency', '2', '0', '0', '0'],
      ['receiver.idempotence', '1', '0', '0', '1'],
    ]);
  });
  it('each <testcase> has classname = group, name = id, time in seconds', () => {
    const c = testcase(suites, 'receiver.latency.burst');
    expect([c['@_classname'], c['@_name'], c['@_time']]).toEqual(['receiver.latency', 'receiver.latency.burst', '4.100']);
    expect(testcase(suites, 'receiver.token.wrong')['@_time']).toBe('0.015');
  });
  it('suite time is the sum of its cases in seconds', () => {
    expect(suites.find((s) => s['@_name'] === 'receiver.token')!['@_time']).toBe('0.027');
  });
});

describe('junit.xml: one element per verdict', () => {
  const { suites } = parse(xml);
  it('FAIL → <failure> with the reason as message (escaped text round-trips) and evidence as text', () => {
    const f = testcase(suites, 'receiver.token.wrong')['failure'] as Node;
    expect(f['@_message']).toBe(`answered 200, expected 403; ${HOSTILE}`);
    expect(f['@_type']).toBe('FAIL');
    expect(f['#text']).toMatch(/^FAIL \(MUST, §6 rule 1\): answered 200, expected 403; <script>/);
    expect(f['#text']).toContain('GET http://127.0.0.1:8081/callback?transaction_id=T-1&status=SUCCESS');
    expect(f['#text']).toContain('curl -sS');
    expect(f['#text']).toContain('after:  {"transaction_id":"T-1","state":"SUCCESS","value":"SUCCESS","actions":1}');
  });
  it('ERROR → <error> with the multi-line reason kept in the message attribute', () => {
    const e = testcase(suites, 'service.auth.source-ip')['error'] as Node;
    expect(e['@_message']).toBe('connect ECONNREFUSED 127.0.0.1:9000\nsecond line');
    expect(e['#text']).toContain('no response: ECONNREFUSED');
  });
  it('SKIP → <skipped message=reason>', () => {
    const c = testcase(suites, 'receiver.idempotence.concurrent');
    expect((c['skipped'] as Node)['@_message']).toBe('the target has no test hooks (hooksUrl not set)');
    expect(c['failure']).toBeUndefined();
  });
  it('WARN → passes (no failure/skipped) with the warning in <system-out>', () => {
    const c = testcase(suites, 'receiver.latency.burst');
    expect(c['failure']).toBeUndefined();
    expect(c['skipped']).toBeUndefined();
    expect(c['system-out']).toContain('WARN (SHOULD): p99 2900 ms is close to the 3000 ms deadline');
    expect(c['system-out']).toContain('p50 120 ms, p99 2900 ms, max 2950 ms');
  });
  it('waived FAIL → <skipped message="waived: reason">, no <failure>', () => {
    const c = testcase(suites, 'service.sandbox.leading-zeros');
    expect((c['skipped'] as Node)['@_message']).toBe('waived: vendor ticket 12 <b>');
    expect(c['failure']).toBeUndefined();
    expect(c['system-out']).toContain('FAIL (waived): number 0244000001 rejected as 244000001');
  });
  it('PASS → an empty testcase but for its properties', () => {
    const c = testcase(suites, 'receiver.token.missing');
    expect(c['system-out']).toBeUndefined();
    expect(Object.keys(c).filter((k) => !k.startsWith('@_') && !(k === '#text' && String(c[k]).trim() === ''))).toEqual(['properties']);
  });
  it('PASS with a retry timeline or latency → the measurement in <system-out>', () => {
    expect(testcase(suites, 'service.callback.retries-stop-after-2xx')['system-out']).toBe('timeline:\noffsets (ms):   0, 212\nintervals (ms): 212');
    expect(testcase(suites, 'receiver.latency.single')['system-out']).toBe('latency:\nsamples 1, p50 0.8 ms, p99 0.8 ms, max 0.8 ms');
    expect(testcase(suites, 'service.sandbox.whitelisted')['system-out']).toBe('passes; the waiver is no longer needed (old ticket)');
  });
  it('retry timeline goes into the failure text', () => {
    const f = testcase(suites, 'service.callback.retry-backoff')['failure'] as Node;
    expect(f['#text']).toContain('intervals (ms): 100, 100, 100');
    expect(f['#text']).toContain('+300 ms  GET /cb?transaction_id=T-2&status=SUCCESS&message=paid+in+full  → answered 200');
  });
  it('a case a diagnosis explains names the shared cause first in its text', () => {
    const e = testcase(suites, 'service.auth.source-ip')['error'] as Node;
    expect(e['#text']).toMatch(/^ERROR \(MUST, §5\.4\): connect ECONNREFUSED[\s\S]*\n\nshared cause \(it explains other cases too\): every connection to 127\.0\.0\.1:9000 was refused/);
  });
  it('a burst of alike requests is one request and its distribution, not five blocks', () => {
    const out = testcase(suites, 'receiver.latency.burst')['system-out'] as string;
    expect(out.match(/curl -sS/g)).toHaveLength(1);
    expect(out).toContain('5 requests like this one; 4 of 5 answered 200; 1 of 5 answered 503; 2 of 5 took longer than 2000 ms');
    expect(out).toContain('answer time (ms): min 80, median 900, max 3100');
    expect(out).toContain('in order sent (ms): 120, 2950, 80, 3100, 900');
  });
});
