// Speed of the canonical signer (issue: "Speed"): signing a typical raw body — parse,
// canonicalise, HMAC, hex — against the floor for the same body, JSON.parse plus a bare
// createHmac over the already-built message. Target: ratio ≤ 1.3. Also how the cost grows
// with the number of fields. A benchmark, not a test: it prints, it does not assert.
import { createHmac } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import { signBody } from '../../harness/signing/index.ts';

const SECRET = 'bench-secret-key-0123456789abcdef';
export const TYPICAL_BODY =
  '{"transaction_id":"ORD-2026-000123","amount":"15.00","client_id":2,"customer_number":"0244000001",' +
  '"network_code":"MTN","callback_url":"https://merchant.example/payments/callback?order=123&src=app"}';
export const RATIO_TARGET = 1.3;

/** A body of `n` fields shaped like real ones (strings, integers, a decimal, a URL). */
export function bodyWithFields(n: number): string {
  const parts: string[] = [];
  for (let i = 0; i < n; i++) {
    const k = `field_${String(i).padStart(4, '0')}`;
    const v = i % 4 === 0 ? String(i) : i % 4 === 1 ? `"${i}.50"` : i % 4 === 2 ? `"value ${i} é"` : `"https://h.example/p?i=${i}&x=y"`;
    parts.push(`"${k}":${v}`);
  }
  // Reverse order so the sort has work to do.
  return `{${parts.reverse().join(',')}}`;
}

let sink = 0;

/** CPU microseconds used by this process (user + system): steadier than wall time on a busy machine. */
function cpuMicros(): number {
  const { user, system } = process.cpuUsage();
  return user + system;
}

function timeBatch(fn: () => unknown, iterations: number): number {
  const start = cpuMicros();
  for (let i = 0; i < iterations; i++) {
    const out = fn();
    sink ^= typeof out === 'object' && out !== null ? 1 : 0;
  }
  return ((cpuMicros() - start) * 1e3) / iterations;
}

/** Iterations that take about `ms` (after a warm-up). */
function calibrate(fn: () => unknown, ms: number): number {
  let n = 16;
  for (;;) {
    const start = cpuMicros();
    for (let i = 0; i < n; i++) fn();
    const took = (cpuMicros() - start) / 1e3;
    if (took >= ms / 4) return Math.max(1, Math.ceil((n * ms) / took));
    n *= 2;
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/**
 * Nanoseconds per call of `a` and of `b`, measured in alternating rounds (so a busy machine
 * slows both alike), with the median of the per-round values and of the per-round ratios.
 */
export function compare(a: () => unknown, b: () => unknown, totalMs = 600, rounds = 9): { aNs: number; bNs: number; ratio: number } {
  const perRound = totalMs / rounds / 2;
  const na = calibrate(a, perRound);
  const nb = calibrate(b, perRound);
  timeBatch(a, na);
  timeBatch(b, nb);
  const as: number[] = [];
  const bs: number[] = [];
  const ratios: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const x = timeBatch(a, na);
    const y = timeBatch(b, nb);
    as.push(x);
    bs.push(y);
    ratios.push(x / y);
  }
  return { aNs: median(as), bNs: median(bs), ratio: median(ratios) };
}

/** Nanoseconds per call of one function (median of rounds). */
export function nsPerOp(fn: () => unknown, totalMs = 300, rounds = 7): number {
  const n = calibrate(fn, totalMs / rounds);
  timeBatch(fn, n);
  const xs: number[] = [];
  for (let r = 0; r < rounds; r++) xs.push(timeBatch(fn, n));
  return median(xs);
}

export interface SigningBenchResult {
  fields: number;
  signNs: number;
  floorNs: number;
  ratio: number;
}

export function measure(body: string, totalMs = 600): Omit<SigningBenchResult, 'fields'> {
  const message = signBody(body, SECRET).message;
  const { aNs, bNs, ratio } = compare(
    () => signBody(body, SECRET),
    () => {
      JSON.parse(body);
      return createHmac('sha256', SECRET).update(message, 'utf8').digest('hex');
    },
    totalMs,
  );
  return { signNs: aNs, floorNs: bNs, ratio };
}

const fmt = (ns: number) => (ns >= 1e6 ? `${(ns / 1e6).toFixed(2)} ms` : ns >= 1e3 ? `${(ns / 1e3).toFixed(2)} µs` : `${ns.toFixed(0)} ns`);

export async function benchSigning(): Promise<void> {
  const out = (line: string) => process.stdout.write(`${line}\n`);
  out('signing: signBody (parse, canonicalise, HMAC-SHA256, hex) vs floor (JSON.parse + createHmac over the built message)');
  out('  (CPU time per op, median of alternating rounds)');
  const typical = measure(TYPICAL_BODY, 1500);
  out(`  typical body (6 spec fields, ${TYPICAL_BODY.length} bytes): signBody ${fmt(typical.signNs)}/op, floor ${fmt(typical.floorNs)}/op, ratio ${typical.ratio.toFixed(2)} (target ≤ ${RATIO_TARGET}) ${typical.ratio <= RATIO_TARGET ? 'OK' : 'OVER TARGET'}`);
  out('  growth with body size:');
  let previous: SigningBenchResult | undefined;
  for (const fields of [10, 100, 1000]) {
    const body = bodyWithFields(fields);
    const r = { fields, ...measure(body, fields >= 1000 ? 1200 : 800) };
    const growth = previous ? `, ×${(r.signNs / previous.signNs).toFixed(1)} for ×${fields / previous.fields} fields` : '';
    out(`    ${String(fields).padStart(4)} fields (${body.length} bytes): signBody ${fmt(r.signNs)}/op (${fmt(r.signNs / fields)}/field), floor ${fmt(r.floorNs)}/op, ratio ${r.ratio.toFixed(2)}${growth}`);
    previous = r;
  }
  if (sink === -1) out(''); // keeps results observable so the calls are not optimised away
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await benchSigning();
