// Real clients in their own languages (PHP, Python, Ruby, JavaScript), written the way those
// clients sign, run over the published vectors: the signer's summary must name exactly the
// labelled alternatives each follows, with nothing left unexplained and nothing ambiguous.
// The PHP and Ruby signers need those runtimes (suites/support/programs.ts): skipped and named at
// the end of `npm test` on a machine without them, a failing test under CI=true (.ci/run installs them).
import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { summariseSigner } from '../../harness/vectors/index.ts';
import { describeNeeding } from '../support/programs.ts';
import { FIXTURES, runSigner } from './helpers.ts';

const LANG = join(FIXTURES, 'lang');

function runtime(command: string): string {
  return execFileSync(command, ['--version'], { encoding: 'utf8' }).split('\n')[0]!;
}

const quoted = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

interface RealSigner {
  name: string;
  runtime: 'php' | 'python3' | 'ruby' | 'node';
  file: string;
  mode?: string;
  follows: string[];
}

const REAL_SIGNERS: RealSigner[] = [
  { name: 'PHP json_decode + ksort() + "$k=$v"', runtime: 'php', file: 'php-signer.php', mode: 'string', follows: ['php-ksort-numeric', 'php-string'] },
  { name: 'PHP json_decode + ksort(SORT_STRING) + "$k=$v"', runtime: 'php', file: 'php-signer.php', mode: 'string-sorted', follows: ['php-string'] },
  { name: 'PHP array_merge() + ksort() + "$k=$v"', runtime: 'php', file: 'php-signer.php', mode: 'merged', follows: ['php-keys-renumbered', 'php-string'] },
  { name: 'PHP ksort(SORT_STRING) + http_build_query()', runtime: 'php', file: 'php-signer.php', mode: 'query', follows: ['php-http-build-query'] },
  { name: 'PHP urldecode(http_build_query())', runtime: 'php', file: 'php-signer.php', mode: 'query-decoded', follows: ['php-http-build-query-decoded'] },
  { name: 'PHP "$k=" . urlencode($v)', runtime: 'php', file: 'php-signer.php', mode: 'urlencode', follows: ['php-urlencode', 'php-string'] },
  { name: 'PHP (float) amount + "$k=$v"', runtime: 'php', file: 'php-signer.php', mode: 'float-amount', follows: ['php-float-amount', 'php-string'] },
  { name: 'Python json.loads + sorted + f"{k}={v}"', runtime: 'python3', file: 'python_signer.py', mode: 'str', follows: ['python-str'] },
  { name: 'Python nested values through json.dumps()', runtime: 'python3', file: 'python_signer.py', mode: 'json-dumps', follows: ['python-json-dumps'] },
  { name: 'Python amount through float()', runtime: 'python3', file: 'python_signer.py', mode: 'float-amount', follows: ['python-float-amount'] },
  { name: 'Python message.encode("ascii")', runtime: 'python3', file: 'python_signer.py', mode: 'ascii-only', follows: ['python-ascii-only'] },
  { name: 'Ruby JSON.parse + sort_by + "#{k}=#{v}"', runtime: 'ruby', file: 'ruby-signer.rb', follows: ['ruby-to-s'] },
  { name: 'Ruby amount.to_f + "#{k}=#{v}"', runtime: 'ruby', file: 'ruby-signer.rb', mode: 'float-amount', follows: ['ruby-float-amount', 'ruby-to-s'] },
  { name: 'JavaScript JSON.parse + sort() + `${k}=${v}`', runtime: 'node', file: 'js-signer.mjs', mode: 'json-parse', follows: ['utf16-order', 'float-printer', 'nested-js-string'] },
  { name: 'JavaScript default sort()', runtime: 'node', file: 'js-signer.mjs', mode: 'sort', follows: ['utf16-order'] },
  { name: 'JavaScript obj[key] = value copy', runtime: 'node', file: 'js-signer.mjs', mode: 'proto', follows: ['js-proto-dropped'] },
  { name: 'JavaScript keys as lodash-style paths (model of _.set)', runtime: 'node', file: 'js-signer.mjs', mode: 'dotted', follows: ['js-dotted-path'] },
  { name: 'JavaScript encodeURI on values', runtime: 'node', file: 'js-signer.mjs', mode: 'encode-uri', follows: ['encode-uri'] },
  { name: 'JavaScript URLSearchParams on values', runtime: 'node', file: 'js-signer.mjs', mode: 'form', follows: ['form-encoded-values'] },
];

/** Runs one real signer over the vectors: the summary names exactly the alternatives it follows. */
async function followsExactly({ runtime: command, file, mode, follows }: RealSigner): Promise<void> {
  const ruby34 = command === 'ruby' && /^ruby 3\.(?:[4-9]|\d\d)/.test(runtime('ruby'));
  const expected = ruby34 ? follows.map((l) => (l === 'ruby-to-s' ? 'ruby34-to-s' : l)) : follows;
  const cmd = [command, join(LANG, file), ...(mode ? [mode] : [])].map(quoted).join(' ');
  const run = await runSigner(cmd, undefined, { timeoutMs: 5000 });
  expect(run.results.filter((r) => r.verdict === 'ERROR').map((r) => `${r.id}: ${r.reason}`)).toEqual([]);
  const diagnoses = summariseSigner(run.results);
  expect(diagnoses.map((d) => d.id).sort()).toEqual(expected.map((l) => `signer.${l}`).sort());
  // Every non-PASS vector is explained by one of the named deviations.
  const explained = new Set(diagnoses.flatMap((d) => d.cases));
  expect(run.results.filter((r) => r.verdict !== 'PASS' && !explained.has(r.id)).map((r) => r.id)).toEqual([]);
}

const signersOf = (...runtimes: RealSigner['runtime'][]) => REAL_SIGNERS.filter((s) => runtimes.includes(s.runtime));

describe('the signer summary names exactly what real clients in Python and JavaScript do', () => {
  it.each(signersOf('python3', 'node'))('$name follows $follows', followsExactly, 60_000);
});

describeNeeding(['php'], 'the signer summary names exactly what real PHP clients do', () => {
  it('the runtime is PHP 8', () => {
    expect(runtime('php')).toMatch(/^PHP 8/);
  });
  it.each(signersOf('php'))('$name follows $follows', followsExactly, 60_000);
});

describeNeeding(['ruby'], 'the signer summary names exactly what real Ruby clients do', () => {
  it('the runtime is Ruby 3', () => {
    expect(runtime('ruby')).toMatch(/^ruby 3/);
  });
  it.each(signersOf('ruby'))('$name follows $follows', followsExactly, 60_000);
});
