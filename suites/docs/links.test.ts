// The README and the docs pages hold together: every relative link (a file, a folder, a
// #heading, or both) points at something that exists, docs/README.md lists every page, and the
// README stays a front door (a few screens, not a manual).
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parsePage } from './markdown.ts';
import { ROOT } from './rehearse.ts';

const PAGES = ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).sort().map((f) => `docs/${f}`)];
const read = (page: string) => readFileSync(join(ROOT, page), 'utf8');

/** The links of a page that point nowhere, as `line N: target (why)`. */
export function brokenLinks(page: string, text: string, readPage: (path: string) => string | undefined): string[] {
  const { links, anchors } = parsePage(text);
  const broken: string[] = [];
  for (const { target, line } of links) {
    if (/^[a-z][a-z+.-]*:/i.test(target)) continue; // https:, mailto: …
    const [path, anchor] = target.split('#', 2) as [string, string | undefined];
    const file = path === '' ? page : relative(ROOT, resolve(ROOT, dirname(page), decodeURIComponent(path)));
    if (file.startsWith('..')) {
      broken.push(`line ${line}: ${target} (outside the repository)`);
      continue;
    }
    const targetText = file === page ? text : readPage(file);
    if (targetText === undefined) {
      broken.push(`line ${line}: ${target} (no such file or folder: ${file})`);
      continue;
    }
    if (anchor !== undefined) {
      const headings = file === page ? anchors : file.endsWith('.md') ? parsePage(targetText).anchors : undefined;
      if (!headings) broken.push(`line ${line}: ${target} (an anchor into a file that is not Markdown)`);
      else if (!headings.has(anchor)) broken.push(`line ${line}: ${target} (${file} has no heading #${anchor})`);
    }
  }
  return broken;
}

/** A checkout file's text ('' for a folder), or undefined when there is none. */
function fromCheckout(path: string): string | undefined {
  const full = join(ROOT, path);
  if (!existsSync(full)) return undefined;
  return statSync(full).isDirectory() ? '' : readFileSync(full, 'utf8');
}

describe('every relative link of the README and the docs points at something', () => {
  for (const page of PAGES) {
    it(page, () => {
      expect(brokenLinks(page, read(page), fromCheckout)).toEqual([]);
    });
  }
  it('the checker catches a missing file, a missing heading and a link out of the repository, and passes good ones (its own control)', () => {
    const page = 'docs/example.md';
    const text = [
      '# A page', '', '## Its second heading', '',
      '[good file](receiver.md) [good heading](#its-second-heading) [good both](receiver.md#your-target-file) [folder](../harness/) [web](https://example.test/x)',
      '[no file](nowhere.md) [no heading](#nowhere) [no heading there](receiver.md#nowhere) [out](../../elsewhere.md)',
      '`[not a link](nowhere.md)`',
    ].join('\n');
    const pages: Record<string, string> = { 'docs/receiver.md': '# Testing\n\n## Your target file\n', harness: '' };
    expect(brokenLinks(page, text, (p) => pages[p])).toEqual([
      'line 6: nowhere.md (no such file or folder: docs/nowhere.md)',
      'line 6: #nowhere (docs/example.md has no heading #nowhere)',
      'line 6: receiver.md#nowhere (docs/receiver.md has no heading #nowhere)',
      'line 6: ../../elsewhere.md (outside the repository)',
    ]);
  });
});

describe('the front door and its index', () => {
  it('README.md is a front door: at most about 200 lines', () => {
    expect(read('README.md').split('\n').length).toBeLessThanOrEqual(210);
  });
  it('docs/README.md links every page of docs/, and the README links docs/README.md', () => {
    const index = parsePage(read('docs/README.md')).links.map((l) => l.target.split('#')[0]);
    expect(PAGES.filter((p) => p.startsWith('docs/') && p !== 'docs/README.md').filter((p) => !index.includes(p.slice('docs/'.length)))).toEqual([]);
    expect(parsePage(read('README.md')).links.map((l) => l.target)).toContain('docs/README.md');
  });
});
