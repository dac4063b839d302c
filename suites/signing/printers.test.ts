// The printers the labelled alternatives rely on (harness/signing/printers.ts: how PHP, Python,
// Ruby and Java print the values of a parsed JSON body, and how PHP's ksort() orders its keys)
// against the real runtimes, on the values where their rules turn (fixed or exponent notation,
// 64-bit integers, infinities, escapes, numeric-string keys) and on a seeded random sample
// (FC_SEED replays; the seed is in every failure message). Each runtime gets one process for all
// its inputs. Python is always there; PHP, Ruby and a JDK are skipped and named when missing,
// required under CI=true (suites/support/programs.ts; .ci/run installs them).
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  findAlternative, javaDouble, pairsOfMembers, phpFloat, profileOf, pythonFloat, readRawJsonObject, rubyFloat, type RawValue,
} from '../../harness/signing/index.ts';
import { javaToString, phpNumber, pythonJsonDumps, pythonNumber, pythonRepr, rubyInspect, rubyNumber } from '../../harness/signing/printers.ts';
import { runSeed } from '../properties/fc-run.ts';
import { describeNeeding } from '../support/programs.ts';

function run(command: string, args: string[], lines: readonly string[]): string[] {
  return execFileSync(command, args, { input: `${lines.join('\n')}\n`, encoding: 'utf8', maxBuffer: 64 << 20 }).trimEnd().split('\n');
}

/** `count` values of `arbitrary` from one seed, and that seed (FC_SEED replays it). */
function sample<T>(arbitrary: fc.Arbitrary<T>, count: number): { seed: number; values: T[] } {
  const seed = runSeed();
  return { seed, values: fc.sample(arbitrary, { seed, numRuns: count }) };
}

/** The inputs whose model output differs from the runtime's, each with both (empty when all agree). */
function differences(inputs: readonly string[], model: readonly string[], runtime: readonly string[]): string[] {
  expect(runtime, 'the runtime printed one line per input').toHaveLength(inputs.length);
  return inputs.flatMap((input, i) => (model[i] === runtime[i] ? [] : [`${input}: model ${model[i]}, runtime ${runtime[i]}`]));
}

/** Every threshold number and a random sample (none when `random` is left out), as the model and as the runtime's program print them. */
function expectFloatsPrinted(command: string, args: string[], model: (x: number) => string, random: { seed: number | string; values: string[] }, keep: (n: string) => boolean = () => true): void {
  const inputs = [...NUMBERS, ...random.values].filter(keep);
  const printed = run(command, args, inputs);
  expect(differences(inputs, inputs.map((n) => model(Number(n))), printed), `seed ${random.seed}`).toEqual([]);
}

// Where the printers' rules turn: each notation threshold from both sides, 64-bit limits, infinities.
const NUMBERS = ['15.0', '0.10', '100.10', '1e3', '1E+2', '-0.0', '0', '12345678901234567890', '2.50E-3', '3.14159265358979',
  '3.3000000000000003', '0.1234567890123456789', '1e14', '99999999999999.9', '1e15', '999999999999999.9', '1000000000000000.5', '9999999999999998.0', '1e16', '1e17', '1e21', '1e22',
  '0.001', '0.000999', '0.0001', '0.00009999', '0.00001', '123456789012345.6', '1234567890123456.0', '9999999.0', '1e7', '10000000.5',
  '-1.5e-7', '-1e7', '-0.001', '-1e15', '-1e16', '5e-324', '1.7976931348623157e308', '9007199254740993.0', '1e400', '-1e400', '7', '-7.0',
  // Exact ties at PHP's 14 digits (the double is the decimal shown): printf rounds them to the even digit.
  '-2442675984358250', '1000000000000005', '1000000000000015', '1234567890123.25', '1234567890123.75', '99999999999999.5'];
/** JSON number texts a decoder keeps as integers when they fit (PHP: 64 bits; Python and Ruby: any size). */
const INTEGER_TEXTS = ['0', '-0', '42', '-42', '9223372036854775807', '9223372036854775808', '-9223372036854775808',
  '-9223372036854775809', '12345678901234567890', '100000000000000000000000', '1.0', '1e2', '-1E-2'];
/** Random doubles, written as JavaScript writes them (shortest round trip; "1e+21", "5e-324"). */
const randomNumbers = (count: number) => {
  const s = sample(fc.double({ noNaN: true }), count);
  return { seed: s.seed, values: s.values.map((x) => (Object.is(x, -0) ? '-0.0' : x === Infinity ? '1e400' : x === -Infinity ? '-1e400' : String(x))) };
};

// Strings where the escapes of each language differ: quotes, control characters, C1 controls,
// no-break space, the line and paragraph separators, Ruby's interpolation marks, astral characters.
const STRINGS = ["it's", 'say "hi"', "both ' and \"", 'a\\b', 'tab\there', 'cr\rlf\n', 'bell\u0007 esc\u001b vt\u000b ff\f bs\b nul\u0000',
  'del\u007f c1\u0080\u009f nbsp\u00a0 é', 'sep\u2028par\u2029', '#{x} #$y #@z #x #', 'tilde~ 😀 \ud7ff\ue000', '',
  // The last code points of each escape width: unassigned U+FFFF, a private-use and a format character and U+10FFFF beyond it.
  'y\u00ff nc\uffff pua\u{f0000} tag\u{e0001} last\u{10ffff}', 'a{b c$d e@f'];
const NESTED = [
  '{"order":"17","paid":true,"n":null,"x":[1,"a",1.0,1e3,-0],"o":{}}',
  '{"q":"it\'s \\"x\\" \\\\ \\n\\t\\u0001\\u007f é 😀 #{x}","l":[[],{"a":{"b":[]}}]}',
  '{"a":1,"a":2,"b":12345678901234567890}',
  `{"s":${JSON.stringify(STRINGS)},"big":[9223372036854775808,1e400,0.0001,1e16]}`,
  ...STRINGS.map((s) => `{${JSON.stringify(s)}:${JSON.stringify(s)}}`),
];
const nested = (text: string): RawValue => readRawJsonObject(`{"v":${text}}`)[0]!.value;

describe('Java: String.valueOf of what Jackson reads (known answers: no Jackson here to ask)', () => {
  it('maps as {k=v, k2=v2}, lists as [a, b], null as null, strings bare', () => {
    expect(javaToString(nested('{"a":null,"b":[1,true,null,false],"c":"x y","d":{},"a":2.50}'))).toBe('{a=2.5, b=[1, true, null, false], c=x y, d={}}');
  });
});

describe('Python: str() of floats, and of json.loads() numbers, dicts and lists; json.dumps()', () => {
  it('str(float) on the thresholds and a random sample', () => {
    expectFloatsPrinted('python3', ['-c', 'import sys\nfor l in sys.stdin: print(str(float(l)))'], pythonFloat, randomNumbers(400));
  });
  it('str() of a json.loads() number keeps integers exact', () => {
    const py = run('python3', ['-c', 'import sys, json\nfor l in sys.stdin: print(str(json.loads(l)))'], INTEGER_TEXTS);
    expect(differences(INTEGER_TEXTS, INTEGER_TEXTS.map(pythonNumber), py)).toEqual([]);
  });
  it('str() of dicts and lists, and json.dumps() with its defaults', () => {
    const py = run('python3', ['-c', 'import sys, json\nfor l in sys.stdin:\n v = json.loads(l)\n print(json.dumps([str(v), json.dumps(v)], ensure_ascii=False, separators=(\',\', \':\')))'], NESTED);
    const model = NESTED.map((t) => JSON.stringify([pythonRepr(nested(t)), pythonJsonDumps(nested(t))]));
    expect(differences(NESTED, model, py)).toEqual([]);
  });
});

describeNeeding(['php'], 'PHP: string conversion of floats and of json_decode() numbers; ksort() of keys', () => {
  it('(string)(float) at precision 14, on the thresholds and a random sample', () => {
    expectFloatsPrinted('php', ['-r', 'while (($l = fgets(STDIN)) !== false) { echo (float) trim($l), "\\n"; }'], phpFloat, randomNumbers(400));
  });
  it('json_decode() keeps an integer within 64 bits an int, beyond it a float', () => {
    const inputs = [...INTEGER_TEXTS, ...NUMBERS];
    const php = run('php', ['-r', 'while (($l = fgets(STDIN)) !== false) { echo json_decode($l), "\\n"; }'], inputs);
    expect(differences(inputs, inputs.map(phpNumber), php)).toEqual([]);
  });

  // Keys as PHP arrays hold them: integer-like ones within 64 bits become ints; ksort()'s `<=>`
  // compares two numeric strings as numbers (equal ones keep their order: PHP 8 sorts stably),
  // an int and a non-numeric string as strings.
  const KEYS = ['0', '1', '9', '10', '-1', '-0', '007', '1.0', '1.00', '1e0', ' 1', '1 ', '+1', '.5', '5.', '1e3', '1e', '0x1A',
    'abc', 'ABC', 'a1', '1a', '', 'Z', '_', 'é', '9223372036854775807', '9223372036854775808', '-9223372036854775808',
    '-9223372036854775809', '99999999999999999999', '\t2', '\u000b3', '2\n'];
  // Up to five keys PHP sorts by networks, up to sixteen by insertion, beyond by quicksort.
  const keySets = () => sample(fc.oneof(
    fc.uniqueArray(fc.constantFrom(...KEYS), { minLength: 2, maxLength: 6 }),
    fc.uniqueArray(fc.constantFrom(...KEYS), { minLength: 7, maxLength: KEYS.length }),
  ), 400);
  // Where `<=>` goes round in a circle (90 < 100 as numbers, "100" < "9a" < "9e1" as strings):
  // the order then depends on every step of zend_sort, so each size of its paths is sampled,
  // past 1024 keys (its five-point pivot) too.
  const CIRCLES = Array.from({ length: 9 }, (_, d) => [`${d + 1}e1`, `${d + 1}00`, `${d + 1}a`]).flat();
  // "300", "600" and "900" twice: a PHP array keeps a repeated key once, and ksort() sorts those.
  const MANY = [...CIRCLES, ...Array.from({ length: 1100 }, (_, i) => (i % 3 === 0 ? `${i}` : i % 3 === 1 ? `${i}e0` : `${i}z`))];
  const circleSets = () => sample(fc.oneof(
    fc.shuffledSubarray(CIRCLES, { minLength: 2 }),
    fc.shuffledSubarray(MANY, { minLength: 1025 }),
  ), 60);
  // Numeric strings on either side of 64 bits, each against each: PHP compares two integer
  // texts beyond 64 bits on the same side, and two infinities, as strings.
  const EDGES = ['+9223372036854775807', ' 9223372036854775806', '09223372036854775807', '-09223372036854775808', ' -9223372036854775807',
    '9223372036854775808', '9223372036854775809', '-9223372036854775809', '-9223372036854775810', '1e400', '2e400', '-1e400', ' 5', '5',
    '\u000b\u000b7', '7', '  3', '3 ', '\u000b\u000b9223372036854775807', '9223372036854775807  ', '9223372036854775807\u000b', '.25', '1e+2', '1e10', '8\u000b',
    '9223372036854775808.0', '10000000000000000000'];
  const edgePairs = EDGES.flatMap((a) => EDGES.filter((b) => b !== a).map((b) => [a, b]));
  // Every order of five keys in circles: zend_sort_5's network and an insertion sort of the same
  // five end differently on some (the sample above holds few sets of exactly five).
  const orders = (keys: readonly string[]): string[][] => (keys.length <= 1 ? [[...keys]] : keys.flatMap((k, i) => orders(keys.filter((_, j) => j !== i)).map((rest) => [k, ...rest])));
  const fiveInCircles = orders(['1e1', '100', '1a', '2e1', '200']);
  const bodyOf = (keys: readonly string[]) => `{${keys.map((k, i) => `${JSON.stringify(k)}:"v${i}"`).join(',')}}`;
  const modelKeys = (body: string, label: string) => JSON.stringify(pairsOfMembers(readRawJsonObject(body), profileOf(findAlternative(label)!)).map(([k]) => k));

  it.each([
    ['php-ksort-numeric', 'ksort($a)'],
    ['php-keys-renumbered', '$a = array_merge([], $a); ksort($a)'],
  ])('%s: the key order of %s', (label, statement) => {
    const sets = keySets();
    const circles = circleSets();
    const bodies = [...sets.values, ...circles.values, ...edgePairs, ...fiveInCircles].map(bodyOf);
    const php = run('php', ['-r', `while (($l = fgets(STDIN)) !== false) { $a = json_decode($l, true); ${statement}; echo json_encode(array_map('strval', array_keys($a))), "\\n"; }`], bodies);
    expect(differences(bodies, bodies.map((b) => modelKeys(b, label)), php.map((l) => JSON.stringify(JSON.parse(l)))), `seed ${sets.seed}, ${circles.seed}`).toEqual([]);
  });
});

describeNeeding(['ruby'], 'Ruby: Float#to_s, and to_s of JSON.parse() numbers, hashes and arrays', () => {
  it('Float#to_s on the thresholds and a random sample', () => {
    expectFloatsPrinted('ruby', ['-e', 'STDIN.each_line { |l| puts Float(l.strip).to_s }'], rubyFloat, randomNumbers(400));
  });
  it('to_s of a JSON.parse() number keeps integers exact', () => {
    const rb = run('ruby', ['-rjson', '-e', 'STDIN.each_line { |l| puts JSON.parse("[#{l}]")[0].to_s }'], INTEGER_TEXTS);
    expect(differences(INTEGER_TEXTS, INTEGER_TEXTS.map(rubyNumber), rb)).toEqual([]);
  });
  it('to_s of hashes and arrays (Hash#inspect of Ruby 3.1–3.3, or 3.4)', () => {
    const rb = run('ruby', ['-rjson', '-e', 'STDIN.each_line { |l| puts JSON.generate([JSON.parse(l).to_s]) }'], NESTED);
    const ruby34 = /^ruby 3\.(?:[4-9]|\d\d)/.test(execFileSync('ruby', ['--version'], { encoding: 'utf8' }));
    expect(differences(NESTED, NESTED.map((t) => JSON.stringify([rubyInspect(nested(t), ruby34 ? ' => ' : '=>')])), rb)).toEqual([]);
  });
});

describeNeeding(['jdk'], 'Java: Double.toString', () => {
  it('on the thresholds and a random sample', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cc-java-'));
    const source = join(dir, 'D.java');
    writeFileSync(source, 'import java.io.*; public class D { public static void main(String[] a) throws Exception { BufferedReader r = new BufferedReader(new InputStreamReader(System.in)); String l; while ((l = r.readLine()) != null) System.out.println(Double.toString(Double.parseDouble(l.trim()))); } }');
    // The model is JDK 19's shortest digits; an older JDK (17, Debian's default) sometimes
    // prints one more digit (8.7092438571788256E16), so its random sample is not compared.
    const major = Number(/version "(\d+)/.exec(spawnSync('java', ['-version'], { encoding: 'utf8' }).stderr)?.[1] ?? 0);
    const random = major >= 19 ? randomNumbers(400) : { seed: 'none (JDK before 19)', values: [] as string[] };
    // Double.MIN_VALUE prints as 4.9E-324 (two digits, the closer); the model's shortest digits
    // give 5.0E-324: left out, as the label says, and so are the other subnormals' digits.
    try {
      expectFloatsPrinted('java', [source], javaDouble, random, (n) => Math.abs(Number(n)) >= 2.2250738585072014e-308 || Number(n) === 0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 30_000);
});
