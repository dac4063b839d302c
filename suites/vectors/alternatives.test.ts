// The labelled alternatives (harness/signing/profile.ts) against the published vectors:
// every label has a vector where it alone fits (so the vectors can tell it from every other),
// and a signer that follows exactly one label gets a summary naming exactly that label.
// The printers each label relies on are checked against the real PHP, Python, Ruby and Java
// (suites/support/programs.ts: those besides Python are skipped and named when missing, required under CI=true).
import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  ALTERNATIVES, joinPairs, pairsOfMembers, profileOf, readRawJsonObject, renderingsOf, SUITE_PROFILE,
  phpFloat, pythonFloat, rubyFloat, javaDouble, type RawValue,
} from '../../harness/signing/index.ts';
import { BuiltInSigner, runVectors, summariseSigner } from '../../harness/vectors/index.ts';
import { pythonRepr, pythonJsonDumps, rubyInspect } from '../../harness/signing/printers.ts';
import { describeNeeding } from '../support/programs.ts';
import { signatureFile } from './load.ts';

/** For each label, the vectors on which its message differs from the suite's and from every other label's. */
function aloneFits(): Map<string, number[]> {
  const alone = new Map<string, number[]>();
  for (const v of signatureFile().tests) {
    const members = readRawJsonObject(v.body);
    const canonical = joinPairs(pairsOfMembers(members, SUITE_PROFILE));
    const messages = [...renderingsOf(members)].map(([a, pairs]) => [a.label, pairs === undefined ? undefined : joinPairs(pairs)] as const);
    for (const [label, message] of messages) {
      if (message === canonical) continue;
      if (messages.some(([other, m]) => other !== label && m === message)) continue;
      alone.set(label, [...(alone.get(label) ?? []), v.tcId]);
    }
  }
  return alone;
}

describe('every labelled alternative has a vector where it alone fits', () => {
  // Computed inside the test, not while the file loads: mutation testing runs a mutant of code
  // that ran at load (a "static" mutant) against every test of its unit, one run each.
  it('each label', () => {
    const alone = aloneFits();
    for (const { label } of ALTERNATIVES) {
      expect.soft(alone.get(label) ?? [], `no vector tells ${label} apart from every other label`).not.toEqual([]);
    }
  });
  it('labels are unique and each description is written for its own language', () => {
    expect(new Set(ALTERNATIVES.map((a) => a.label)).size).toBe(ALTERNATIVES.length);
    for (const a of ALTERNATIVES.filter((x) => x.language === 'PHP' || x.language === 'Python' || x.language === 'Ruby')) {
      expect(a.description, a.label).not.toMatch(/JavaScript|String\(x\)|localeCompare|Number\(\)|encodeURI/);
    }
  });
});

describe('a signer following exactly one label gets a summary naming exactly it', () => {
  it.each(ALTERNATIVES.map((a) => a))('$label (faithful in-process model of the rule)', async (alternative) => {
    const results = await runVectors({ signer: new BuiltInSigner(profileOf(alternative), alternative.label), files: ['signature'] });
    const diagnoses = summariseSigner(results);
    expect(diagnoses.map((d) => d.id)).toEqual([`signer.${alternative.label}`]);
    const [only] = diagnoses;
    expect(only!.summary).toContain(`follows \`${alternative.label}\``);
    expect(only!.summary).toMatch(/vectors \d/);
    expect(only!.summary).toMatch(/refuse such a request/);
    const failing = results.filter((r) => r.verdict !== 'PASS').map((r) => r.id);
    expect(only!.cases.sort()).toEqual(failing.sort());
  });
  it('a correct signer gets no diagnosis', async () => {
    expect(summariseSigner(await runVectors({ signer: new BuiltInSigner(), files: ['signature'] }))).toEqual([]);
  });
});

// --- the printers against the real runtimes (installed in CI by .ci/run) ---

const NUMBERS = ['15.0', '0.10', '100.10', '1e3', '1E+2', '-0.0', '12345678901234567890', '2.50E-3', '3.14159265358979',
  '3.3000000000000003', '0.1234567890123456789', '1e14', '1e15', '1e16', '1e21', '1e22', '0.0001', '0.00001', '123456789012345.6',
  '1234567890123456.0', '-1.5e-7', '5e-324', '1.7976931348623157e308', '9007199254740993.0'];

function run(command: string, args: string[], input: string): string[] {
  return execFileSync(command, args, { input, encoding: 'utf8' }).trimEnd().split('\n');
}

const INPUT = NUMBERS.join('\n');
const NESTED = [
  '{"order":"17","paid":true,"n":null,"x":[1,"a",1.0,1e3,-0],"o":{}}',
  '{"q":"it\'s \\"x\\" \\\\ \\n\\t\\u0001\\u007f é 😀 #{x}","l":[[],{"a":{"b":[]}}]}',
  '{"a":1,"a":2,"b":12345678901234567890}',
];
const nested = (text: string): RawValue => readRawJsonObject(`{"v":${text}}`)[0]!.value;

describe('the printers match the real Python', () => {
  it('Python str() of floats', () => {
    const py = run('python3', ['-c', 'import sys\nfor l in sys.stdin: print(str(float(l)))'], INPUT);
    expect(NUMBERS.map((n) => pythonFloat(Number(n)))).toEqual(py);
  });
  it('Python str() of dicts and lists, and json.dumps()', () => {
    const py = run('python3', ['-c', 'import sys, json\nfor l in sys.stdin:\n v = json.loads(l)\n print(json.dumps([str(v), json.dumps(v)], ensure_ascii=False, separators=(\',\', \':\')))'], NESTED.join('\n'));
    expect(NESTED.map((t) => JSON.stringify([pythonRepr(nested(t)), pythonJsonDumps(nested(t))]))).toEqual(py);
  });
});

describeNeeding(['php'], 'the printers match the real PHP', () => {
  it('PHP string conversion of floats (precision 14)', () => {
    const php = run('php', ['-r', 'while (($l = fgets(STDIN)) !== false) { echo (float) trim($l), "\\n"; }'], INPUT);
    expect(NUMBERS.map((n) => phpFloat(Number(n)))).toEqual(php);
  });
});

describeNeeding(['ruby'], 'the printers match the real Ruby', () => {
  it('Ruby Float#to_s', () => {
    const rb = run('ruby', ['-e', 'STDIN.each_line { |l| puts Float(l.strip).to_s }'], INPUT);
    expect(NUMBERS.map((n) => rubyFloat(Number(n)))).toEqual(rb);
  });
  it('Ruby to_s of hashes and arrays (Ruby 3.1–3.3 Hash#inspect)', () => {
    const rb = run('ruby', ['-rjson', '-e', 'STDIN.each_line { |l| puts JSON.generate([JSON.parse(l).to_s]) }'], NESTED.join('\n'));
    const ruby34 = /^ruby 3\.(?:[4-9]|\d\d)/.test(execFileSync('ruby', ['--version'], { encoding: 'utf8' }));
    expect(NESTED.map((t) => JSON.stringify([rubyInspect(nested(t), ruby34 ? ' => ' : '=>')]))).toEqual(rb);
  });
});

describeNeeding(['jdk'], 'the printers match the real Java', () => {
  it('Java Double.toString', () => {
    const source = join(mkdtempSync(join(tmpdir(), 'cc-java-')), 'D.java');
    writeFileSync(source, 'import java.io.*; public class D { public static void main(String[] a) throws Exception { BufferedReader r = new BufferedReader(new InputStreamReader(System.in)); String l; while ((l = r.readLine()) != null) System.out.println(Double.toString(Double.parseDouble(l.trim()))); } }');
    // Double.MIN_VALUE prints as 4.9E-324 (two digits, the closer); the model's shortest digits give 5.0E-324: left out, as the label says.
    const numbers = NUMBERS.filter((n) => n !== '5e-324');
    const java = run('java', [source], numbers.join('\n'));
    expect(numbers.map((n) => javaDouble(Number(n)))).toEqual(java);
  }, 30_000);
});
