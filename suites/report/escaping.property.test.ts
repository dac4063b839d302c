// Properties of the escapers over arbitrary text (any code point, lone surrogates included):
// whatever a target answers, the reports stay well-formed and show the text, not markup.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { renderHtml, renderJunit, renderMarkdown } from '../../harness/report/index.ts';
import type { RunReport } from '../../harness/results/index.ts';
import { sampleReport } from './sample.ts';

const seed = process.env['FC_SEED'] === undefined ? Date.now() % 2 ** 31 : Number(process.env['FC_SEED']);
const numRuns = 300;

function check<T>(name: string, arb: fc.Arbitrary<T>, predicate: (value: T) => void): void {
  try {
    fc.assert(fc.property(arb, predicate), { seed, numRuns });
  } catch (error) {
    // The seed is in fast-check's message too; said once more so a CI log shows how to replay.
    console.error(`${name}: replay with FC_SEED=${seed}`);
    throw error;
  }
}

const text = fc.string({ unit: 'binary', maxLength: 60 });

function withReason(reason: string): RunReport {
  const report = sampleReport();
  report.cases[1]!.reason = reason;
  report.cases[1]!.title = reason || 'x';
  return report;
}

/** Unprintable code points, and the bidi controls that reorder what a reader sees (Trojan Source). */
const UNPRINTABLE = /[^\t\n\r\u0020-\u007E\u00A0-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]|[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/gu;
const BIDI = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/u;

describe('junit.xml escaping: any reason', () => {
  const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@_', htmlEntities: true, parseAttributeValue: false, trimValues: false });
  it('stays well-formed XML and its failure message reads back as the reason (unprintable code points written as \\uXXXX)', () => {
    check('junit', text, (reason) => {
      const xml = renderJunit(withReason(reason));
      expect(XMLValidator.validate(xml)).toBe(true);
      const doc = parser.parse(xml) as { testsuites: { testsuite: Array<{ '@_name': string; testcase: Array<Record<string, { '@_message'?: string }>> }> } };
      const failure = doc.testsuites.testsuite.find((s) => s['@_name'] === 'receiver.token')!.testcase[1]!['failure']!;
      const expected = reason.replace(UNPRINTABLE, (ch) => `\\u${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`);
      expect(failure['@_message']).toBe(expected === '' ? 'FAIL' : expected);
    });
  });
});

describe('index.html escaping: any reason', () => {
  it('never lets a `<` of the reason through as markup', () => {
    check('html', fc.tuple(text, fc.constantFrom('<script>', '</pre><img src=x>', '<svg onload=x>', '"><b>', "' onmouseover='x")), ([noise, tag]) => {
      const html = renderHtml(withReason(`${noise}${tag}`));
      expect(html).not.toContain(tag);
    });
  });
});

describe('report.md escaping: any reason', () => {
  it('keeps every case row at six cells', () => {
    check('markdown', text, (reason) => {
      const md = renderMarkdown(withReason(reason));
      const rows = md.split('\n').filter((l) => l.startsWith('| `'));
      expect(rows).toHaveLength(10);
      for (const row of rows) expect(row.replace(/^\||\|$/g, '').split(/(?<!\\)\|/)).toHaveLength(6);
    });
  });
});

describe('no report a person reads holds a bidi control: report.md, index.html, junit.xml (Trojan Source)', () => {
  it('a reason with overrides, embeddings, isolates or marks shows them as \\uXXXX', () => {
    const bidi = fc.constantFrom('\u202E', '\u202D', '\u202A', '\u2066', '\u2067', '\u2068', '\u2069', '\u200E', '\u200F', '\u061C');
    check('bidi', fc.tuple(text, bidi, text), ([before, control, after]) => {
      const report = withReason(`${before}${control}PASS${after}`);
      for (const rendered of [renderMarkdown(report), renderHtml(report), renderJunit(report)]) expect(BIDI.test(rendered)).toBe(false);
      expect(renderMarkdown(report)).toContain(`\\u${control.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}PASS`);
    });
  });
});
