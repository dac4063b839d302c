// Issue 22 point 8, kept from coming back: text is shortened by Redactor.clip (redacted before
// the cut), or only where what is cut was redacted at its source. A cut with an ellipsis
// (`${text.slice(0, n)}…`) anywhere else in harness/ fails here, naming the file and line.
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const HARNESS = fileURLToPath(new URL('../../harness/', import.meta.url));

/** Files that cut only redacted text, each with the reason. */
const CUTS_REDACTED_TEXT: Readonly<Record<string, string>> = {
  'report/html.ts': 'writes the report, which the report session redacted whole (openReport redactor)',
  'report/markdown.ts': 'writes the report, which the report session redacted whole',
  'report/progress.ts': 'formats results the runner redacted whole, and the run redacts each line again',
  'line-protocol/line.ts': 'quotes answer lines, which the line driver redacts as it reads them',
  'sdk/protocol.ts': 'quotes adapter answer lines, which the line driver redacts as it reads them',
  'vectors/judge.ts': 'quotes a signer\'s error (redacted by the line driver) and vector files\' public test secrets',
  'vectors/summary.ts': 'quotes results the vectors run judged from redacted signer answers',
  'simulator/router.ts': 'the reference service logs the request path it was sent, which carries no secret',
};

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sources(path);
    return e.name.endsWith('.ts') ? [path] : [];
  });
}

/** `${x.slice(0, n)}…`, `x.slice(0, n) + '…'`: a text cut and marked as cut. */
const ELLIPSIS_CUT = /\.slice\(0, [^)]*\)(?:\}|\s*\+\s*['"`])…/;

describe('issue 22 point 8: no text is cut before it is redacted', () => {
  it('every cut marked with … in harness/ is Redactor.clip, or in a file that cuts only redacted text', () => {
    const found = sources(HARNESS).flatMap((file) => readFileSync(file, 'utf8').split('\n')
      .map((line, i) => ({ file: relative(HARNESS, file), line: i + 1, text: line }))
      .filter((l) => ELLIPSIS_CUT.test(l.text) && !(l.file in CUTS_REDACTED_TEXT)));
    expect(found.map((l) => `harness/${l.file}:${l.line}: ${l.text.trim()}`)).toEqual([]);
  });
  it('the pattern finds the cut this issue found (answerText of harness/cases/receiver/kit.ts, before it used clip)', () => {
    expect(ELLIPSIS_CUT.test("return body ? `${answer.status} ${body.length > 120 ? `${body.slice(0, 120)}…` : body}` : String(answer.status);")).toBe(true);
  });
  it('each file listed still cuts (a stale entry would hide a new cut)', () => {
    for (const file of Object.keys(CUTS_REDACTED_TEXT)) expect(ELLIPSIS_CUT.test(readFileSync(join(HARNESS, file), 'utf8')), file).toBe(true);
  });
});
