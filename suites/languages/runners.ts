// The vectors runners of examples/vectors-runners/ as their users run them: each in its own test
// framework, its verdict per vector read from that framework's own output (JUnit XML for PHPUnit
// and pytest, TAP for node:test, minitest's verbose lines), and the verdicts a runner must give
// over a signer with a fault, computed from the vectors by the kit's own signer with that fault.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { composeAlternative, composeCallbackUrl, parseAlternative, parseCallbackQuery, type CallbackParams, type ParsedCallbackQuery } from '../../harness/callback/index.ts';
import { findAlternative, profileOf, signBody, SigningError } from '../../harness/signing/index.ts';
import type { ProgramName } from '../support/programs.ts';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const RUNNERS = 'examples/vectors-runners';

/** A runner's verdict on one vector, as its framework reports it: a WARN is a skip with its reason. */
export type Verdict = 'pass' | 'fail' | 'skip';
/** The examples' fault switches: three of the signer, one of the composer, one of the parser, each a labelled alternative of the kit. */
export const FAULTS = [
  { label: 'body-order', of: 'signer', env: 'COLLECT_SIGNER_FAULT' },
  { label: 'url-encoded-values', of: 'signer', env: 'COLLECT_SIGNER_FAULT' },
  // A refusal, not a rendering: non-ASCII messages refused (the kit's signer with it throws).
  { label: 'python-ascii-only', of: 'signer', env: 'COLLECT_SIGNER_FAULT' },
  { label: 'always-question-mark', of: 'composer', env: 'COLLECT_CALLBACK_FAULT' },
  { label: 'plus-not-space', of: 'parser', env: 'COLLECT_CALLBACK_FAULT' },
] as const;
export type Fault = (typeof FAULTS)[number];

export interface Ran { code: number | null; output: string; verdicts: Map<string, Verdict> }

export interface Runner {
  language: string;
  needs: ProgramName[];
  /** Its folder under examples/vectors-runners, its runner file, and the example signer beside it. */
  folder: string;
  files: { runner: string; signer: string };
  /** The runner's text with its composer and parser unset (`null`, `nil`, `None`), as a team without them sets it. */
  unsetCallbacks(text: string): string;
  /** The runner's and the signer's texts with the signer answering its hex signature alone (no message). */
  signatureOnly: { runner(text: string): string; signer?(text: string): string };
  /** Runs the framework over the runner file in `dir` (default: the example's folder), faults in the environment. */
  run(env: Record<string, string>, dir?: string): Promise<Ran>;
}

/** Replaces `from` once in `text`, or throws: a runner whose text moved must not pass unchanged. */
function once(text: string, from: string, to: string): string {
  if (!text.includes(from)) throw new Error(`the runner no longer holds ${JSON.stringify(from)}`);
  return text.replace(from, to);
}

function exec(command: string, args: readonly string[], env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    execFile(command, args, { cwd: ROOT, env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env }, timeout: 150_000, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === 'number' ? error.code : null;
      resolve({ code, output: `${stdout}${stderr}` });
    });
  });
}

/** A vector's id, or a whole file's (`vectors.callback-url`: the one skipped test of a file whose function is unset). */
const VECTOR_ID = /vectors\.(?:signature|callback-url|callback-query)(?:\.\d+)?/;

/** JUnit XML (PHPUnit's --log-junit, pytest's --junitxml): each testcase's verdict by vector id. */
export function junitVerdicts(xml: string): Map<string, Verdict> {
  const verdicts = new Map<string, Verdict>();
  for (const m of xml.matchAll(/<testcase\b([^>]*?)(?:\/>|>([\s\S]*?)<\/testcase>)/g)) {
    const id = VECTOR_ID.exec(m[1]!)?.[0];
    if (id === undefined) continue;
    const body = m[2] ?? '';
    verdicts.set(id, /<(failure|error)\b/.test(body) ? 'fail' : /<skipped\b/.test(body) ? 'skip' : 'pass');
  }
  return verdicts;
}

/** node:test's TAP: `ok 3 - vectors.signature.3 …`, `not ok …`, `ok … # SKIP reason`. */
export function tapVerdicts(tap: string): Map<string, Verdict> {
  const verdicts = new Map<string, Verdict>();
  for (const m of tap.matchAll(/^(not )?ok \d+ - (\S+)[^\n]*?(# SKIP\b[^\n]*)?$/gm)) {
    if (VECTOR_ID.test(m[2]!)) verdicts.set(m[2]!, m[1] ? 'fail' : m[3] ? 'skip' : 'pass');
  }
  return verdicts;
}

/** minitest -v: `VectorsTest#test_vectors.signature.3 valid … = 0.00 s = F`. */
export function minitestVerdicts(output: string): Map<string, Verdict> {
  const verdicts = new Map<string, Verdict>();
  for (const m of output.matchAll(/^VectorsTest#test_(\S+)(?: [^\n]*)? = [\d.]+ s = ([.FES])$/gm)) {
    if (VECTOR_ID.test(m[1]!)) verdicts.set(m[1]!, m[2] === '.' ? 'pass' : m[2] === 'S' ? 'skip' : 'fail');
  }
  return verdicts;
}

async function withJunit(command: string, args: (file: string) => string[], env: Record<string, string>): Promise<Ran> {
  const dir = mkdtempSync(join(tmpdir(), 'cc-runner-'));
  try {
    const file = join(dir, 'junit.xml');
    const { code, output } = await exec(command, args(file), env);
    let xml = '';
    try { xml = readFileSync(file, 'utf8'); } catch { /* no report: the output says why */ }
    return { code, output, verdicts: junitVerdicts(xml) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const inFolder = (runner: Pick<Runner, 'folder' | 'files'>, dir: string | undefined) => join(dir ?? join(RUNNERS, runner.folder), runner.files.runner);

export const RUNNERS_BY_LANGUAGE: readonly Runner[] = [
  {
    language: 'PHP (PHPUnit 9)',
    needs: ['php', 'phpunit'],
    folder: 'php',
    files: { runner: 'VectorsTest.php', signer: 'CollectSigner.php' },
    unsetCallbacks: (text) => once(once(text, "COMPOSER = [CollectSigner::class, 'composeCallbackUrl'];", 'COMPOSER = null;'), "PARSER = [CollectSigner::class, 'parseCallbackQuery'];", 'PARSER = null;'),
    signatureOnly: {
      runner: (text) => once(text, "SIGNER = [CollectSigner::class, 'sign'];", "SIGNER = [CollectSigner::class, 'signatureOnly'];"),
      signer: (text) => once(text, 'final class CollectSigner\n{', 'final class CollectSigner\n{\n    public static function signatureOnly(string $body, string $secret): string\n    {\n        return self::sign($body, $secret)[\'signature\'];\n    }\n'),
    },
    run(env, dir) {
      return withJunit('phpunit', (file) => ['--verbose', '--do-not-cache-result', '--log-junit', file, inFolder(this, dir)], env);
    },
  },
  {
    language: 'JavaScript (node:test)',
    needs: [],
    folder: 'javascript',
    files: { runner: 'vectors.test.mjs', signer: 'collect-signer.mjs' },
    unsetCallbacks: (text) => once(once(text, 'const composer = composeCallbackUrl;', 'const composer = null;'), 'const parser = parseCallbackQuery;', 'const parser = null;'),
    signatureOnly: { runner: (text) => once(text, 'const signer = sign;', 'const signer = (body, secret) => sign(body, secret).signature;') },
    async run(env, dir) {
      const { code, output } = await exec(process.execPath, ['--test', '--test-reporter=tap', inFolder(this, dir)], env);
      return { code, output, verdicts: tapVerdicts(output) };
    },
  },
  {
    language: 'Python (pytest)',
    needs: ['pytest'],
    folder: 'python',
    files: { runner: 'test_vectors.py', signer: 'collect_signer.py' },
    unsetCallbacks: (text) => once(once(text, 'COMPOSER = compose_callback_url', 'COMPOSER = None'), 'PARSER = parse_callback_query', 'PARSER = None'),
    signatureOnly: { runner: (text) => once(text, 'SIGNER = sign\n', 'SIGNER = lambda body, secret: sign(body, secret)["signature"]\n') },
    // -B and no cache provider: nothing written beside the example.
    run(env, dir) {
      return withJunit('python3', (file) => ['-B', '-m', 'pytest', '-p', 'no:cacheprovider', '-q', '-rs', `--junitxml=${file}`, inFolder(this, dir)], env);
    },
  },
  {
    language: 'Ruby (minitest)',
    needs: ['ruby', 'minitest'],
    folder: 'ruby',
    files: { runner: 'vectors_test.rb', signer: 'collect_signer.rb' },
    unsetCallbacks: (text) => once(once(text, 'COMPOSER = CollectSigner.method(:compose_callback_url)', 'COMPOSER = nil'), 'PARSER = CollectSigner.method(:parse_callback_query)', 'PARSER = nil'),
    signatureOnly: { runner: (text) => once(text, 'SIGNER = CollectSigner.method(:sign)', "SIGNER = ->(body, secret) { CollectSigner.sign(body, secret)['signature'] }") },
    async run(env, dir) {
      const { code, output } = await exec('ruby', [inFolder(this, dir), '-v'], env);
      return { code, output, verdicts: minitestVerdicts(output) };
    },
  },
];

/** The runner and its signer copied into a new folder, as a team copies them into its SDK's tests; removed by the caller. */
export function copiedRunner(runner: Runner, edit: { runner?(text: string): string; signer?(text: string): string } = {}): string {
  const dir = mkdtempSync(join(tmpdir(), `cc-copied-${runner.folder}-`));
  const from = join(ROOT, RUNNERS, runner.folder);
  for (const kind of ['runner', 'signer'] as const) {
    const text = readFileSync(join(from, runner.files[kind]), 'utf8');
    writeFileSync(join(dir, runner.files[kind]), edit[kind]?.(text) ?? text);
  }
  return dir;
}

interface Vector {
  tcId: number;
  result: 'valid' | 'invalid' | 'acceptable';
  body: string;
  secret: string;
  signature: string;
  presentedSignature?: string;
  callbackUrl: string;
  params: CallbackParams;
  url: string;
  requestTarget: string;
  expected: Record<string, string | null>;
}

const vectorFile = (name: string) => (JSON.parse(readFileSync(join(ROOT, 'vectors', `${name}.json`), 'utf8')) as { tests: Vector[] }).tests;

/** A `valid` or `acceptable` vector whose output differs (undefined: refused): fail, or a skip (WARN) where the spec is silent. */
function differs(t: Vector, same: boolean | undefined): Verdict {
  if (same === true) return 'pass';
  if (t.result !== 'acceptable') return 'fail';
  return same === undefined ? 'pass' : 'skip';
}

const three = (o: ParsedCallbackQuery | Record<string, string | null>) => JSON.stringify(['transaction_id', 'status', 'message'].map((k) => (o as Record<string, string | null | undefined>)[k] ?? null));

/**
 * What a runner must report for every vector over an example with `fault` (none: all correct),
 * from the vectors and the kit's own signer, composer or parser with the same fault: a `valid`
 * vector fails where that output differs, an `invalid` one where the signature is the presented
 * one, an `acceptable` one is a skip (WARN) where it differs. The vectors of the other two
 * files, which the fault does not touch, pass.
 */
export function expectedVerdicts(fault?: Fault): Map<string, Verdict> {
  const expected = new Map<string, Verdict>();
  const profile = fault?.of === 'signer' ? profileOf(findAlternative(fault.label)!) : undefined;
  for (const t of vectorFile('signature')) {
    let signature: string | undefined;
    try {
      signature = signBody(t.body, t.secret, profile ? { profile } : {}).signature;
    } catch (error) {
      if (!(error instanceof SigningError)) throw error;
    }
    const id = `vectors.signature.${t.tcId}`;
    if (t.result === 'invalid') expected.set(id, signature !== undefined && signature !== t.presentedSignature ? 'pass' : 'fail');
    else expected.set(id, differs(t, signature === undefined ? undefined : signature === t.signature));
  }
  const compose = fault?.of === 'composer' ? composeAlternative(fault.label).compose : composeCallbackUrl;
  for (const t of vectorFile('callback-url')) expected.set(`vectors.callback-url.${t.tcId}`, differs(t, compose(t.callbackUrl, t.params) === t.url));
  const parse = fault?.of === 'parser' ? parseAlternative(fault.label).parse : parseCallbackQuery;
  for (const t of vectorFile('callback-query')) expected.set(`vectors.callback-query.${t.tcId}`, differs(t, three(parse(t.requestTarget)) === three(t.expected)));
  return expected;
}

/** The ids with a given verdict, for short assertion messages. */
export function idsWith(verdicts: ReadonlyMap<string, Verdict>, verdict: Verdict): string[] {
  return [...verdicts].filter(([, v]) => v === verdict).map(([id]) => id).sort();
}
