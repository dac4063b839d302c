import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MARKDOWN_BUDGET, renderMarkdown } from '../../harness/report/index.ts';
import type { RunReport } from '../../harness/results/index.ts';
import { sampleReport } from './sample.ts';
import { runHereWithoutKitEnv } from '../support/cli-here.ts';

const md = renderMarkdown(sampleReport());
const lines = md.split('\n');

/** Splits a table row on unescaped pipes, the way GFM does. */
function cells(row: string): string[] {
  return row.replace(/^\|/, '').replace(/\|$/, '').split(/(?<!\\)\|/).map((c) => c.trim());
}

function section(text: string, heading: string): string {
  const start = text.indexOf(`\n${heading}\n`);
  expect(start, heading).toBeGreaterThan(0);
  const end = text.indexOf('\n## ', start + heading.length + 1);
  return text.slice(start, end < 0 ? undefined : end);
}

describe('report.md: the verdict, the shared causes and the failures first, the target last', () => {
  it('opens with the title, the verdict in one line and the summary table', () => {
    expect(lines.slice(0, 7)).toEqual([
      '# collect-conformance conformance report',
      '',
      '**FAILED: 3 of 10 cases failed (2 FAIL, 1 ERROR); 1 failure waived; 1 WARN, 1 SKIP**',
      '',
      '| PASS | FAIL | WARN | SKIP | ERROR | total |',
      '| ---: | ---: | ---: | ---: | ---: | ---: |',
      '| 4 | 3 | 1 | 1 | 1 | 10 |',
    ]);
  });
  it('then the sections in this order, the target at the end', () => {
    const headings = lines.filter((l) => l.startsWith('## '));
    expect(headings).toEqual([
      '## Shared causes', '## Failures and warnings (5)', '## Cases by side and group', '## Evidence of the failures',
      '## Every case', '## Measurements of passing cases', '## Target (secrets redacted)',
    ]);
    expect(md.indexOf('"callbackUrl"')).toBeGreaterThan(md.indexOf('## Target'));
    expect(md).toContain('The whole report, every case with its evidence: `index.html` (open it in a browser) and `report.json`, beside this file.');
  });
  it('names each shared cause once, with the cases it explains', () => {
    expect(section(md, '## Shared causes')).toContain(
      '1. every connection to 127.0.0.1:9000 was refused: the service is likely not running there \\& \\<script\\>alert("x")\\</script\\> \\& "quoted" \'single\' \\]\\]\\> done (explains 2 cases: `service.auth.source-ip`, `service.callback.retry-backoff`)',
    );
  });
  it('lists the failures FAIL, ERROR, WARN, one line each, waivers and shared causes marked', () => {
    expect(section(md, '## Failures and warnings (5)').split('\n').filter((l) => l.startsWith('- '))).toEqual([
      '- **FAIL** `receiver.token.wrong`: answered 200, expected 403; \\<script\\>alert("x")\\</script\\> \\& "quoted" \'single\' \\]\\]\\> done',
      '- **FAIL** `service.callback.retry-backoff` (shared cause 1): intervals do not grow: 100, 100, 100 ms',
      '- **FAIL** `service.sandbox.leading-zeros` (waived): number 0244000001 rejected as 244000001',
      '- **ERROR** `service.auth.source-ip` (shared cause 1): connect ECONNREFUSED 127.0.0.1:9000 second line',
      '- **WARN** `receiver.latency.burst`: p99 2900 ms is close to the 3000 ms deadline',
    ]);
  });
  it('counts the cases by side (service, then receiver) and case group', () => {
    expect(section(md, '## Cases by side and group').split('\n').filter((l) => l.startsWith('- '))).toEqual([
      '- **service**: `service.callback` 1 PASS, 1 FAIL; `service.auth` 1 ERROR; `service.sandbox` 1 PASS, 1 FAIL',
      '- **receiver**: `receiver.token` 1 PASS, 1 FAIL; `receiver.latency` 1 PASS, 1 WARN; `receiver.idempotence` 1 SKIP',
    ]);
  });
  it('a vectors report has no seed line (vectors runs draw nothing at random)', () => {
    expect(md).toContain(' · seed 42 (repeat with `--seed 42`)');
    expect(renderMarkdown({ ...sampleReport(), kind: 'vectors', seed: 0 })).not.toMatch(/seed/i);
  });
});

describe('report.md: every case in a table per case group', () => {
  const every = section(md, '## Every case');
  it('one table per case group, by side', () => {
    expect(every.split('\n').filter((l) => l.startsWith('### '))).toEqual([
      '### `service.callback`', '### `service.auth`', '### `service.sandbox`',
      '### `receiver.token`', '### `receiver.latency`', '### `receiver.idempotence`',
    ]);
  });
  it('contains every case id in a table row', () => {
    for (const c of sampleReport().cases) {
      expect(lines.some((l) => l.startsWith(`| \`${c.id}\` |`)), c.id).toBe(true);
    }
  });
  it('marks the waived failure in its row', () => {
    const row = lines.find((l) => l.startsWith('| `service.sandbox.leading-zeros` |'))!;
    expect(cells(row)[2]).toBe('FAIL (waived)');
  });
  it('a `|` in a title stays inside its cell (six cells per row)', () => {
    const row = lines.find((l) => l.startsWith('| `receiver.token.wrong` |'))!;
    expect(cells(row)).toHaveLength(6);
    expect(cells(row)[3]).toBe('a wrong token \\| gets 403 and no action');
  });
  it('no table row contains a raw line break or any HTML', () => {
    for (const l of lines.filter((x) => x.startsWith('| `'))) {
      expect(cells(l)).toHaveLength(6);
      expect(l).not.toMatch(/<(?!br>)/);
    }
  });
});

describe('report.md: plain text, escaped as Markdown, never as HTML entities', () => {
  it('no HTML entity and no <br> anywhere outside fenced blocks', () => {
    const prose = md.replace(/(`{3,})[^\n]*\n[\s\S]*?\n\1/g, '');
    expect(prose).not.toMatch(/&(amp|lt|gt|quot|#\d+);/);
    expect(prose).not.toContain('<br>');
  });
  it('a title with & and <…> reads as written once rendered: backslash escapes', () => {
    const report = sampleReport();
    report.cases[1]!.title = 'token & <b>bold</b> *not* _em_ [link](x)';
    const text = renderMarkdown(report);
    expect(text).toContain('token \\& \\<b\\>bold\\</b\\> \\*not\\* \\_em\\_ \\[link\\](x)');
  });
});

describe('report.md: names quoted as `code` stay code', () => {
  it('a code span in a reason is kept; markup around it is escaped; an unpaired backtick is escaped', () => {
    const report = sampleReport();
    report.cases[1]!.reason = 'follows `locale-order` & <b> *x* `unpaired';
    report.cases[1]!.title = 'a `a|b` title';
    const text = renderMarkdown(report);
    expect(text).toContain('- **FAIL** `receiver.token.wrong`: follows `locale-order` \\& \\<b\\> \\*x\\* \\`unpaired');
    const row = text.split('\n').find((l) => l.startsWith('| `receiver.token.wrong` |'))!;
    expect(cells(row)).toHaveLength(6);
    expect(cells(row)[3]).toBe('a `a\\|b` title');
  });
});

describe('report.md: Measurements of passing cases', () => {
  it('lists the retry schedule and latency of passing cases that measured them', () => {
    expect(section(md, '## Measurements of passing cases').split('\n').filter((l) => l.startsWith('- '))).toEqual([
      '- `service.callback.retries-stop-after-2xx`: deliveries at +0, +212 ms; intervals 212 ms',
      '- `receiver.latency.single`: latency samples 1, p50 0.8 ms, p99 0.8 ms, max 0.8 ms',
    ]);
  });
});

describe('report.md: evidence of the failures', () => {
  const findings = section(md, '## Evidence of the failures');
  it('has evidence for each FAIL, ERROR and WARN case, none for PASS or SKIP', () => {
    for (const c of sampleReport().cases) {
      const heading = `### ${c.verdict}: \`${c.id}\``;
      if (['FAIL', 'ERROR', 'WARN'].includes(c.verdict)) expect(findings, c.id).toContain(heading);
      else expect(findings).not.toContain(c.id);
    }
  });
  it('names the shared cause of a case it explains', () => {
    expect(findings).toContain('### ERROR: `service.auth.source-ip`\n\na signed request from a non-whitelisted source is rejected (MUST, §5.4, 30 ms)\n\nExplained by shared cause 1');
  });
  it('control characters and lone surrogates are shown as \\uXXXX, never written raw', () => {
    expect(findings).toContain('control \\u0001 character and a lone \\uD800 surrogate');
  });
  it('shows requests, curl lines (sh), responses, record readings in fenced blocks', () => {
    expect(findings).toContain("```sh\ncurl -sS -H \"X-Callback-Token: $COLLECT_CALLBACK_TOKEN\"");
    expect(findings).toContain('→ 200 in 3.2 ms');
    expect(findings).toContain('before: {"transaction_id":"T-1","state":"pending","value":"pending","actions":0}');
  });
  it('a body containing ``` gets a longer fence', () => {
    expect(findings).toContain('````text\nGET http://127.0.0.1:8081/callback');
  });
  it('shows deliveries, the retry timeline and latency stats', () => {
    expect(findings).toContain('+100 ms  GET /cb?transaction_id=T-2&status=SUCCESS&message=paid+in+full  → answered 500  (http)');
    expect(findings).toContain('offsets (ms):   0, 100, 200, 300\nintervals (ms): 100, 100, 100');
    expect(findings).toContain('samples 50, p50 120 ms, p99 2900 ms, max 2950 ms');
  });
  it('a burst is one request and the distribution of the others, with the target\'s deadline', () => {
    expect(findings.match(/burst callback \d of 5/g)).toEqual(['burst callback 1 of 5', 'burst callback 1 of 5']);
    expect(findings).toContain('5 requests like this one; 4 of 5 answered 200; 1 of 5 answered 503; 2 of 5 took longer than 2000 ms\nanswer time (ms): min 80, median 900, max 3100\nin order sent (ms): 120, 2950, 80, 3100, 900');
  });
  it('an expired waiver on a failure is shown as not applied, in the row and the finding', () => {
    const report = sampleReport();
    const c = report.cases.find((x) => x.id === 'service.sandbox.leading-zeros')!;
    c.waiver = { reason: 'old', expires: '2020-01-01', applied: false };
    const text = renderMarkdown(report);
    expect(text).toContain('| `service.sandbox.leading-zeros` | MUST | FAIL |');
    expect(text).toContain('> Waiver on file, not applied: old (expires 2020-01-01)');
  });
  it('shows the waiver of a waived failure', () => {
    expect(findings).toContain('> Waived: vendor ticket 12 \\<b\\> (expires 2027-01-31)');
  });
});

describe('report.md fits a pull-request comment (≤ 60,000 characters)', () => {
  const SIGNER = fileURLToPath(new URL('fixtures/wrong-everywhere-signer.mjs', import.meta.url));

  it('a signer wrong on every vector: summary, failures and the pointer fit, detail is cut with a note, the target ends it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'md-budget-'));
    try {
      // The report is what is tested: the command's code in this process (cli-here.ts); the signer is a child, as always.
      const run = await runHereWithoutKitEnv(['vectors', '--signer', `"${process.execPath}" "${SIGNER}"`, '--report-dir', dir]);
      expect(run.code, run.stderr).toBe(1);
      const text = readFileSync(join(dir, 'report.md'), 'utf8');
      const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as RunReport;
      const failed = report.cases.filter((c) => c.verdict !== 'PASS');
      expect(failed.length).toBeGreaterThan(50);
      // Without the budget the same report would not fit: the budget is what keeps it short.
      expect(renderMarkdown(report, Number.POSITIVE_INFINITY).length).toBeGreaterThan(65_536);
      expect(text.length).toBeLessThanOrEqual(MARKDOWN_BUDGET);
      expect(text.startsWith('# collect-conformance vectors report\n\n**FAILED: ')).toBe(true);
      expect(text).not.toMatch(/seed/i);
      const list = section(text, `## Failures and warnings (${failed.length})`);
      for (const c of failed) expect(list, c.id).toContain(`\`${c.id}\``);
      expect(text).toMatch(/_The evidence of \d+ more failures is left out to keep this file under 60000 characters: see index\.html or report\.json\._/);
      expect(text.indexOf('`index.html` (open it in a browser) and `report.json`')).toBeLessThan(text.indexOf('## Target (secrets redacted)'));
      expect(text.trimEnd().endsWith('```')).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
  it('holds for any budget: the file never exceeds it', () => {
    for (const budget of [3_000, 8_000, 20_000]) expect(renderMarkdown(sampleReport(), budget).length, String(budget)).toBeLessThanOrEqual(budget);
  });
});

describe('issue 22 point 7: report.md names the causes before the preflight, and holds 60,000 bytes whole', () => {
  it('the shared causes come before the preflight and its evidence', () => {
    const report = sampleReport();
    const failed = report.cases.find((c) => c.verdict === 'FAIL')!;
    report.preflights = [{ ...failed, id: 'preflight.receiver', title: 'a valid callback is accepted and applied' }];
    const text = renderMarkdown(report);
    const causes = text.indexOf('\n## Shared causes\n');
    const preflight = text.indexOf('\n## Preflight (the positive control of each side)\n');
    expect(causes).toBeGreaterThan(0);
    expect(preflight).toBeGreaterThan(causes);
    expect(text.indexOf('### FAIL: `preflight.receiver`')).toBeGreaterThan(causes);
  });

  it('a whole receiver run (33 cases or more) against a receiver that answers every callback 500 with a non-ASCII error page: at most 60,000 UTF-8 bytes', async () => {
    // Every callback gets the same 4 KB error page in Cyrillic, Chinese and emoji (2 to 4 bytes a character).
    const page = `<h1>Внутренняя ошибка сервера — 内部服务器错误 — 🔥</h1>\n${Array.from({ length: 60 }, (_, i) => `  в модуле «платежи» строка ${i} → обработчик …\n`).join('')}`;
    const records = new Set<string>();
    const server = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://x');
      let body = '';
      req.on('data', (c: Buffer) => { body += c.toString(); });
      req.on('end', () => {
        if (req.method === 'POST' && url.pathname === '/_hooks/transactions') {
          records.add((JSON.parse(body) as { transaction_id: string }).transaction_id);
          return res.writeHead(201).end('{}');
        }
        if (url.pathname.startsWith('/_hooks/transactions/')) {
          const id = decodeURIComponent(url.pathname.slice('/_hooks/transactions/'.length));
          return records.has(id) ? res.writeHead(200).end(JSON.stringify({ transaction_id: id, state: 'pending', actions: 0 })) : res.writeHead(404).end('{}');
        }
        res.writeHead(500, { 'content-type': 'text/html; charset=utf-8' }).end(page);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const dir = mkdtempSync(join(tmpdir(), 'md-bytes-'));
    try {
      const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      // A deadline of 1,500 ms makes each request's limit 3 s: at 500 ms (a 1 s limit) this run,
      // its server and its rendering in one process at load 24 saw the first seeding hook time out,
      // and every case then ERROR without the error page the budget is tested on.
      writeFileSync(join(dir, 'target.json'), JSON.stringify({
        side: 'receiver', callbackUrl: `${origin}/payments/callback`, hooksUrl: `${origin}/_hooks`,
        callbackToken: { env: 'MD_TOKEN' }, timing: { replyDeadlineMs: 1500 },
      }));
      const ran = await runHereWithoutKitEnv(['run', '--target', join(dir, 'target.json'), '--report-dir', join(dir, 'out')], { MD_TOKEN: 'md-token-0123456789' });
      expect(ran.code, ran.stderr).toBe(1);
      const text = readFileSync(join(dir, 'out', 'report.md'), 'utf8');
      const report = JSON.parse(readFileSync(join(dir, 'out', 'report.json'), 'utf8')) as RunReport;
      expect(report.cases.length).toBeGreaterThanOrEqual(33);
      // The budget was what cut it: the same report without one is far longer.
      const verdicts = report.cases.map((c) => `${c.id} ${c.verdict}: ${(c.reason ?? '').slice(0, 160)}`).join('\n');
      expect(renderMarkdown(report, Number.POSITIVE_INFINITY).length, verdicts).toBeGreaterThan(MARKDOWN_BUDGET);
      expect(Buffer.byteLength(text, 'utf8')).toBeLessThanOrEqual(MARKDOWN_BUDGET);
      expect(text.length).toBeLessThanOrEqual(MARKDOWN_BUDGET);
      expect(text.indexOf('\n## Shared causes\n')).toBeLessThan(text.indexOf('\n## Preflight'));
      expect(text.trimEnd().endsWith('```')).toBe(true);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
  it('holds for any budget in bytes, whatever the text', () => {
    const report = sampleReport();
    for (const c of report.cases) if (c.reason) c.reason = `${c.reason} ${'Ошибка — 错误 🔥 '.repeat(200)}`;
    for (const budget of [3_000, 8_000, 20_000]) expect(Buffer.byteLength(renderMarkdown(report, budget)), String(budget)).toBeLessThanOrEqual(budget);
  });
});
