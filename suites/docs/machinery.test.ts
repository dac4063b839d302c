// The docs tests' own controls: the page reader, the output matcher and the block runner each
// catch what they exist to catch (a wrong exit status, a server left running, a shown line the
// command did not print, a marker in the wrong place), and pass what is right.
import { describe, expect, it } from 'vitest';
import { parsePage } from './markdown.ts';
import { backgroundSplit, localised, rehearse, unmatchedLine } from './rehearse.ts';

const fence = (lang: string, body: string) => `\`\`\`${lang}\n${body}\n\`\`\``;

describe('the page reader', () => {
  it('reads a command block, its marker and the output after it', () => {
    const page = parsePage([
      '# Title', '',
      '<!-- not run: needs a Pact broker -->', fence('sh', 'pact-broker publish x'), '',
      fence('sh', 'echo hi'), '', fence('', 'hi'), '',
      '<!-- needs: postgresql -->', fence('sh', 'psql -c 1'),
    ].join('\n'));
    expect(page.problems).toEqual([]);
    expect(page.commands.map((c) => [c.line, c.marker, c.output?.text])).toEqual([
      [4, { kind: 'not-run', reason: 'needs a Pact broker' }, undefined],
      [8, undefined, 'hi\n'],
      [17, { kind: 'needs', programs: ['postgresql'] }, undefined],
    ]);
  });
  it('names a misplaced or malformed marker, a `shell` block, an untagged block after no command, an unknown program', () => {
    const page = parsePage([
      '<!-- not run: nothing follows -->', 'Some text.', '',
      '<!-- not-run because -->', fence('sh', 'true'), '',
      fence('shell', 'npm ci'), '',
      fence('', 'output of nothing'), '',
      '<!-- needs: cobol -->', fence('sh', 'cobc'),
    ].join('\n'));
    expect(page.problems).toEqual([
      'line 1: a marker that stands before no command block',
      'line 4: malformed marker <!-- not-run because --> (write <!-- not run: reason --> or <!-- needs: program -->)',
      'line 9: a `shell` block: tag commands `sh` (so the tests run them) and other text `text`',
      'line 13: an untagged block that follows no command block: tag it (`text`, `json` …) or put it after the command that prints it',
      'line 17: <!-- needs: … --> names cobol, not one of php, ruby, phpunit, pytest, minitest, jdk, chromium, postgresql, mariadb',
    ]);
  });
  it('anchors headings as GitHub does', () => {
    expect([...parsePage('# `simulate` and `receiver`: the reference, standalone\n## Levels\n## Levels\n## Your service\'s rejections\n').anchors])
      .toEqual(['simulate-and-receiver-the-reference-standalone', 'levels', 'levels-1', 'your-services-rejections']);
  });
});

describe('the output matcher', () => {
  const actual = 'collect-conformance 0.1.0: 3 case(s) (seed 42)\nPASS  a  12 ms\nFAIL  b  30 ms  answered 200 {"x":1}\n3 cases: 2 PASS, 1 FAIL\n';
  it('passes the output as shown: durations, seeds and the version may differ; … is any text, a line of … any lines', () => {
    expect(unmatchedLine('collect-conformance 9.9.9: 3 case(s) (seed 7)\nPASS  a  999 ms\nFAIL  b  1 ms  answered 200 …\n3 cases: 2 PASS, 1 FAIL\n', actual)).toBeUndefined();
    expect(unmatchedLine('…\n3 cases: 2 PASS, 1 FAIL\n', actual)).toBeUndefined();
    expect(unmatchedLine('…\nPASS  a  1 ms\n…\n', actual)).toBeUndefined();
  });
  it('the number of cases and of PASSes may differ (adding a case changes them); the other verdicts\' counts may not', () => {
    expect(unmatchedLine('collect-conformance 0.1.0: 122 case(s) (seed 7)\n…\n42 cases: 41 PASS, 1 FAIL\n', actual)).toBeUndefined();
    expect(unmatchedLine('FAILED: 1 of 42 cases failed (1 FAIL)\n', 'FAILED: 1 of 43 cases failed (1 FAIL)\n')).toBeUndefined();
    expect(unmatchedLine('FAILED: 1 of 42 cases failed (1 FAIL)\n', 'FAILED: 2 of 42 cases failed (2 FAIL)\n')).toBe('FAILED: 1 of 42 cases failed (1 FAIL)');
    expect(unmatchedLine('…\n3 cases: 3 PASS, 0 FAIL\n', actual)).toBe('3 cases: 3 PASS, 0 FAIL');
    // A case's own line keeps its words: "PASS" there is a verdict, not a count.
    expect(unmatchedLine('…\nPASS  b  1 ms\n…\n', actual)).toBe('PASS  b  1 ms');
  });
  it('names the first shown line the output does not have there', () => {
    expect(unmatchedLine('…\n3 cases: 3 PASS, 0 FAIL\n', actual)).toBe('3 cases: 3 PASS, 0 FAIL');
    // Without a line of … between them, shown lines are next to each other.
    expect(unmatchedLine('…\nPASS  a  1 ms\n3 cases: 2 PASS, 1 FAIL\n', actual)).toBe('3 cases: 2 PASS, 1 FAIL');
    expect(unmatchedLine('…\nPASS  a  1 ms\n', actual)).toMatch(/goes on after the last line shown/);
  });
});

describe('the block runner', () => {
  it('finds the background `&` of a line, not `&&` or a redirection', () => {
    expect(backgroundSplit('npx collect-conformance receiver --port 8081 &   # stands in')).toEqual({ background: 'npx collect-conformance receiver --port 8081', rest: '# stands in' });
    expect(backgroundSplit('node x.js simulate & pid=$!')).toEqual({ background: 'node x.js simulate', rest: 'pid=$!' });
    expect(backgroundSplit('a && b 2>&1')).toBeUndefined();
    expect(backgroundSplit('echo "a & b" # c & d')).toBeUndefined();
  });
  it('runs npx collect-conformance and npm start as from a checkout, and refuses other npm and npx commands and a server started through npx', () => {
    expect(localised('npm start\nnpx collect-conformance run --list\n')).toBe('node bin/collect-conformance.js run\nnode bin/collect-conformance.js run --list\n');
    expect(() => localised('npm ci\n')).toThrow(/`npm ci` does not run in the tests/);
    expect(() => localised('npx cowsay hi  # fun\n')).toThrow(/`npx cowsay`/);
    // npx would not pass kill $!'s SIGTERM on to the server it started (seen: npm exec exits, the server lives on).
    expect(() => localised('npx collect-conformance receiver --port 8081 &\n')).toThrow(/npx does not pass SIGTERM on/);
  });
  it('reports each command\'s status against the one its comment names, and a server the block leaves running', async () => {
    const server = `node -e 'require("http").createServer().listen(0, "127.0.0.1", function () { console.log("listening on " + this.address().port) })' &`;
    const run = await rehearse([server, 'echo one', 'false   # exit status 1', 'exit_with() { return "$1"; }; exit_with 3'].join('\n'), { timeoutMs: 30_000 });
    expect(run.commands.map((c) => [c.command, c.expectedStatus, c.status, c.stdout])).toEqual([
      ['echo one', 0, 0, 'one\n'],
      ['false   # exit status 1', 1, 1, ''],
      ['exit_with() { return "$1"; }; exit_with 3', 0, 3, ''],
    ]);
    expect(run.serversDown).toEqual([]);
    expect(run.leftRunning).toHaveLength(1);
    expect(run.leftRunning[0]).toMatch(/^node -e /);
    const stopped = await rehearse(`${server}\nkill $!\n`, { timeoutMs: 30_000 });
    expect([stopped.commands.map((c) => c.status), stopped.leftRunning]).toEqual([[0], []]);
  }, 60_000);
  it('names a server that never says it is listening', async () => {
    const run = await rehearse('node -e \'console.log("starting"); process.exit(4)\' &\necho after\n', { timeoutMs: 30_000 });
    expect(run.serversDown).toEqual([{ command: 'node -e \'console.log("starting"); process.exit(4)\'', output: 'starting\n' }]);
  }, 60_000);
});
