/// <reference lib="dom" />
// index.html as a person sees it, in a real browser (Debian's headless Chromium, driven by
// playwright-core, which downloads nothing): three failing runs (a faulty receiver, a faulty
// service, a signer that sorts keys by locale), each checked at 1280×800 for what matters
// first: the verdict and the failures without scrolling, the filter hiding passing cases and
// empty groups, evidence opening below its row without squeezing the columns, no sideways
// scrolling. Set REPORT_SCREENSHOTS=<dir> to keep a picture of each page.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { RECEIVER_CASES, SERVICE_CASES, type ConformanceCase } from '../../harness/cases/index.ts';
import { startEmbeddedReceiver, startEmbeddedService } from '../../harness/embedded/index.ts';
import { openReport } from '../../harness/report/index.ts';
import type { CaseResult, Diagnosis } from '../../harness/results/index.ts';
import { redactTarget } from '../../harness/targets/index.ts';
import { BIN } from '../support/cli-process.ts';
import { describeNeeding } from '../support/programs.ts';
import { runCases } from '../../harness/runner/index.ts';

const CHROMIUM = '/usr/bin/chromium';
const LOCALE_SIGNER = fileURLToPath(new URL('../signer-protocol/fixtures/locale-signer.mjs', import.meta.url));
const VIEWPORT = { width: 1280, height: 800 };
const SHOTS = process.env['REPORT_SCREENSHOTS'];

let root: string;
let browser: Browser;

/** Runs the cases against one embedded target and writes the four report files; returns index.html's path. */
async function writeRun(name: string, target: Parameters<typeof runCases>[0]['target'], cases: readonly ConformanceCase[], diagnoses: (results: CaseResult[]) => Diagnosis[] = () => []): Promise<string> {
  const dir = join(root, name);
  const session = await openReport({
    dir,
    header: { tool: { name: 'collect-conformance', version: 'test' }, kind: 'run', target: redactTarget(target), startedAt: new Date().toISOString(), seed: 7 },
  });
  const results = await runCases({ cases: [...cases], target, seed: 7 });
  for (const result of results) await session.add(result);
  await session.setDiagnoses(diagnoses(results));
  await session.finish();
  return join(dir, 'index.html');
}

const pages: Record<'receiver' | 'service' | 'vectors', string> = { receiver: '', service: '', vectors: '' };

async function open(name: keyof typeof pages): Promise<Page> {
  const page = await browser.newPage({ viewport: VIEWPORT });
  // Self-contained: nothing but the file itself is requested.
  const requested: string[] = [];
  page.on('request', (r) => requested.push(r.url()));
  await page.goto(pathToFileURL(pages[name]).href);
  expect(requested).toEqual([pathToFileURL(pages[name]).href]);
  if (SHOTS) await page.screenshot({ path: join(SHOTS, `${name}.png`) });
  return page;
}

async function noSidewaysScroll(page: Page): Promise<void> {
  const { scrollWidth, clientWidth } = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, clientWidth: document.documentElement.clientWidth }));
  expect(scrollWidth, 'page wider than the window').toBeLessThanOrEqual(clientWidth);
}

/** The element is inside the window as it first opens (no scrolling). */
async function inFirstScreen(page: Page, selector: string): Promise<void> {
  const box = await page.locator(selector).first().boundingBox();
  expect(box, selector).not.toBeNull();
  expect(box!.y + box!.height, `${selector} below the first screen`).toBeLessThanOrEqual(VIEWPORT.height);
  expect(box!.x + box!.width, `${selector} beyond the right edge`).toBeLessThanOrEqual(VIEWPORT.width);
}

// Chromium is Debian's (playwright-core downloads none): skipped and named at the end when missing, required under CI=true.
describeNeeding(['chromium'], 'the HTML report in Chromium', () => {
  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'report-browser-'));
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      // No sandbox as root in a container; no connections of its own (the machine has no network).
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'],
    });

    // The three runs at once: they share nothing.
    await Promise.all([
      (async () => {
        // A receiver that checks no token and does its work before answering: token cases FAIL
        // with hook evidence, latency cases FAIL with a burst of alike requests.
        const receiver = await startEmbeddedReceiver({ faults: ['no-token-check', 'slow-reply'], replyDeadlineMs: 60 });
        try {
          pages.receiver = await writeRun('receiver', receiver.target, RECEIVER_CASES, (results) => {
            // Made here, as the diagnoses helper would name it, to see the page with a shared cause on it.
            const cases = results.filter((c) => c.id.startsWith('receiver.token.') && c.verdict === 'FAIL').map((c) => c.id);
            return [{ id: 'receiver.token-not-checked', summary: 'every callback with a wrong or missing X-Callback-Token was applied: the receiver likely does not check the token (§6 rule 1)', cases }];
          });
        } finally {
          await receiver.close();
        }
      })(),
      (async () => {
        // A service that retries at a constant interval and sends a stale token: a retry chart,
        // and the callback cases that fail.
        const service = await startEmbeddedService({ faults: ['constant-retry', 'wrong-token'] });
        try {
          pages.service = await writeRun('service', service.target, SERVICE_CASES.filter((c) => c.id.startsWith('service.callback.') || c.id.startsWith('service.sandbox.')));
        } finally {
          await service.close();
        }
      })(),
      (async () => {
        // A signer that sorts keys by locale: FAILs and WARNs among passing vectors.
        const dir = join(root, 'vectors');
        const run = spawn(process.execPath, [BIN, 'vectors', '--signer', `"${process.execPath}" "${LOCALE_SIGNER}"`, '--report-dir', dir], { stdio: 'ignore' });
        const [code] = (await once(run, 'close')) as [number | null];
        expect(code).toBe(1);
        pages.vectors = join(dir, 'index.html');
      })(),
    ]);
    if (SHOTS) mkdirSync(SHOTS, { recursive: true });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  for (const name of ['receiver', 'service', 'vectors'] as const) {
    describe(`index.html of a failing ${name} run, in Chromium at 1280×800`, () => {
      it('shows the verdict and the first failures without scrolling', async () => {
        const page = await open(name);
        try {
          await inFirstScreen(page, '#summary');
          expect(await page.locator('#summary').innerText()).toMatch(/^FAILED: \d+ of \d+ cases failed/);
          const rows = page.locator('#failures tr');
          expect(await rows.count()).toBeGreaterThan(0);
          // The first five (or all, when fewer) failures are on the first screen.
          const shown = Math.min(5, await rows.count());
          for (let i = 0; i < shown; i++) {
            const box = await rows.nth(i).boundingBox();
            expect(box!.y + box!.height, `failure ${i + 1} below the first screen`).toBeLessThanOrEqual(VIEWPORT.height);
          }
          if (name === 'receiver') await inFirstScreen(page, '#diagnosis-1');
          await noSidewaysScroll(page);
        } finally {
          await page.close();
        }
      });

      it('"show only cases that did not pass" hides passing cases and the groups with nothing else', async () => {
        const page = await open(name);
        try {
          const passing = page.locator('tbody.case.r-PASS');
          expect(await passing.count()).toBeGreaterThan(0);
          await page.locator('#hide-pass').check();
          expect(await page.locator('tbody.case.r-PASS:visible').count()).toBe(0);
          const failing = await page.locator('tbody.case:not(.r-PASS)').count();
          expect(await page.locator('tbody.case:not(.r-PASS):visible').count()).toBe(failing);
          // No visible group or side is left with only its heading.
          const empty = await page.evaluate(() => [...document.querySelectorAll('section.group, section.side')]
            .filter((s) => (s as HTMLElement).offsetParent !== null)
            .filter((s) => ![...s.querySelectorAll('tbody.case')].some((t) => (t as HTMLElement).offsetParent !== null))
            .map((s) => s.id));
          expect(empty).toEqual([]);
          if (SHOTS) await page.screenshot({ path: join(SHOTS, `${name}-filtered.png`), fullPage: true });
          await noSidewaysScroll(page);
        } finally {
          await page.close();
        }
      });

      it('evidence opens below its row, full width, without squeezing the id and spec columns', async () => {
        const page = await open(name);
        try {
          const row = page.locator('tbody.case:not(.r-PASS):has(details)').first();
          const id = row.locator('td.id');
          const spec = row.locator('td.spec');
          const before = { id: (await id.boundingBox())!.width, spec: (await spec.boundingBox())!.width };
          await row.locator('details > summary').first().click();
          const pre = row.locator('details pre').first();
          expect(await pre.isVisible()).toBe(true);
          expect((await id.boundingBox())!.width).toBeCloseTo(before.id, 0);
          expect((await spec.boundingBox())!.width).toBeCloseTo(before.spec, 0);
          // Below the row and as wide as the table.
          const table = (await row.locator('xpath=ancestor::table').boundingBox())!;
          const details = (await row.locator('details').first().boundingBox())!;
          expect(details.y).toBeGreaterThanOrEqual((await id.boundingBox())!.y + (await id.boundingBox())!.height - 1);
          expect(details.width).toBeGreaterThan(table.width * 0.9);
          // Every evidence block open at once still fits the window's width.
          await page.evaluate(() => document.querySelectorAll('details').forEach((d) => { d.open = true; }));
          await noSidewaysScroll(page);
          if (SHOTS) await row.screenshot({ path: join(SHOTS, `${name}-evidence.png`) });
        } finally {
          await page.close();
        }
      });

      it('a failure in the list leads to its evidence, opened', async () => {
        const page = await open(name);
        try {
          const link = page.locator('#failures a[href^="#ev-"]').first();
          const target = decodeURIComponent((await link.getAttribute('href'))!.slice(1));
          await link.click();
          const details = page.locator(`details:has([id="${target}"])`);
          await expect.poll(() => details.evaluate((d) => (d as HTMLDetailsElement).open)).toBe(true);
          // Scrolled to, with the case's own row still in sight above its evidence.
          const box = (await details.boundingBox())!;
          expect(box.y).toBeLessThan(VIEWPORT.height);
          const row = (await page.locator(`tbody.case:has([id="${target}"]) tr.main`).boundingBox())!;
          expect(row.y).toBeGreaterThanOrEqual(0);
        } finally {
          await page.close();
        }
      });
    });
  }

  describe('the retry chart of the failing service run', () => {
    it('has units on its axis, a legend, and intervals written as "↔ N ms" (not bare numbers beside red dots)', async () => {
      const page = await open('service');
      try {
        const chart = page.locator('tbody.case:has(svg) .chart').first();
        expect(await chart.isVisible()).toBe(true);
        const labels = await chart.locator('svg text').evaluateAll((texts) => texts.map((t) => t.textContent ?? ''));
        expect(labels).toContain("time since the case's first request (ms)");
        for (const label of labels) expect(label).toMatch(/ms|\(ms\)$/);
        expect(await chart.locator('.legend').innerText()).toMatch(/delivery answered 2xx[\s\S]*delivery answered non-2xx[\s\S]*ms between two deliveries/);
        if (SHOTS) await chart.screenshot({ path: join(SHOTS, 'service-chart.png') });
      } finally {
        await page.close();
      }
    });
  });

  describe('the report files of these runs', () => {
    it('report.md of each stays within the pull-request budget and has no HTML entities in its prose', () => {
      for (const path of Object.values(pages)) {
        const md = readFileSync(join(path, '..', 'report.md'), 'utf8');
        expect(md.length).toBeLessThanOrEqual(60_000);
        expect(md.replace(/(`{3,})[^\n]*\n[\s\S]*?\n\1/g, '')).not.toMatch(/&(amp|lt|gt|quot);/);
      }
    });
  });
});
