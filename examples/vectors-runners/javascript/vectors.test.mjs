// The collect-conformance golden vectors as node:test tests, with no dependency: copy this one
// file into your SDK's tests, point the three callables below at your SDK, and run
//   node --test vectors.test.mjs
// One test per vector, named `vectors.<file>.<tcId> <result> <flags>`. Judging (vectors/README.md):
// a `valid` vector passes when your output equals the suite's; an `invalid` one when your signer
// does not produce the presented signature; an `acceptable` one (the spec is silent) passes when
// it equals the suite's position or your code refuses the input, and is otherwise SKIPPED with a
// reason that starts with WARN (node:test has no warning verdict): the spec allows it, the
// service may differ. A refusal is any exception.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
// ---- point these at your SDK -------------------------------------------------------------
import { composeCallbackUrl, parseCallbackQuery, sign } from './collect-signer.mjs';
/** (rawJsonBody, secret) => { message, signature } or the hex signature alone; throws to refuse. */
const signer = sign;
/** (callbackUrl, { transaction_id, status, message }) => the URL the service requests; null skips callback-url.json. */
const composer = composeCallbackUrl;
/** (requestTarget) => { transaction_id, status, message } (null for an absent one); null skips callback-query.json. */
const parser = parseCallbackQuery;
/** The folder holding signature.json, callback-url.json and callback-query.json. */
const VECTORS = process.env.COLLECT_VECTORS_DIR ?? fileURLToPath(new URL('../../../vectors/', import.meta.url));
// -------------------------------------------------------------------------------------------

function load(file) {
  const path = join(VECTORS, `${file}.json`);
  if (!existsSync(path)) throw new Error(`no vector file at ${path}: set COLLECT_VECTORS_DIR to the folder holding signature.json`);
  return JSON.parse(readFileSync(path, 'utf8')).tests;
}
const nameOf = (file, t) => `vectors.${file}.${t.tcId} ${t.result} ${t.flags.join(',')}`;
const shown = (value) => JSON.stringify(value);

/** What to do with one vector: pass, fail or warn, with the evidence. */
function verdict(t, same, labels, lines) {
  if (same) return { verdict: 'pass' };
  const follows = labels.length > 0 ? `follows \`${labels.join('`, `')}\`` : 'follows no listed alternative';
  const reason = [`${t.comment} (${t.specRef}${t.source ? `, source: ${t.source}` : ''}): ${follows}`, ...lines].join('\n');
  return { verdict: t.result === 'acceptable' ? 'warn' : 'fail', reason };
}

function refusal(t, error) {
  if (t.result === 'acceptable') return { verdict: 'pass', note: `refused (allowed on an acceptable vector): ${error.message}` };
  return { verdict: 'fail', reason: `${t.comment}: refused the input of a ${t.result} vector: ${error.message}` };
}

function judgeSignature(t) {
  let got;
  try {
    got = signer(t.body, t.secret);
  } catch (error) {
    return refusal(t, error);
  }
  const signature = typeof got === 'string' ? got : got.signature;
  const message = typeof got === 'string' ? undefined : got.message;
  const fits = (a) => a.signature === signature || (message !== undefined && a.message === message);
  const labels = t.alternatives.filter(fits).map((a) => a.label);
  if (t.result === 'invalid') {
    return verdict(t, signature !== t.presentedSignature, labels, [
      `your signer produced the presented signature ${signature}, which the service must refuse`,
      `expected message:   ${shown(t.message)}`,
      ...(message === undefined ? [] : [`your message:       ${shown(message)}`]),
    ]);
  }
  return verdict(t, signature === t.signature && (message === undefined || message === t.message), labels, [
    `expected message:   ${shown(t.message)}`,
    ...(message === undefined ? [] : [`your message:       ${shown(message)}`]),
    `expected signature: ${t.signature}`,
    `your signature:     ${signature}`,
  ]);
}

function judgeCallbackUrl(t) {
  let url;
  try {
    url = composer(t.callbackUrl, t.params);
  } catch (error) {
    return refusal(t, error);
  }
  const labels = t.alternatives.filter((a) => a.url === url).map((a) => a.label);
  return verdict(t, url === t.url, labels, [`callback_url: ${shown(t.callbackUrl)}`, `expected: ${shown(t.url)}`, `yours:    ${shown(url)}`]);
}

function judgeCallbackQuery(t) {
  let found;
  try {
    found = parser(t.requestTarget);
  } catch (error) {
    return refusal(t, error);
  }
  const three = (o) => shown(['transaction_id', 'status', 'message'].map((k) => o?.[k] ?? null));
  const labels = t.alternatives.filter((a) => three(a.expected) === three(found)).map((a) => a.label);
  return verdict(t, three(found) === three(t.expected), labels, [`request target: ${shown(t.requestTarget)}`, `expected: ${shown(t.expected)}`, `yours:    ${shown(found)}`]);
}

/** A failure that prints as its evidence alone (no stack of this file's lines). */
function evidence(reason) {
  const error = new Error(reason);
  error.stack = `vector failed: ${reason}`;
  return error;
}

const FILES = [
  ['signature', signer, judgeSignature, 'signer'],
  ['callback-url', composer, judgeCallbackUrl, 'composer'],
  ['callback-query', parser, judgeCallbackQuery, 'parser'],
];

for (const [file, callable, judge, what] of FILES) {
  if (callable === null) {
    test(`vectors.${file}`, { skip: `no ${what} given: set \`${what}\` in this file to your SDK's function` }, () => {});
    continue;
  }
  for (const t of load(file)) {
    test(nameOf(file, t), (context) => {
      const result = judge(t);
      if (result.note) context.diagnostic(result.note);
      if (result.verdict === 'warn') context.skip(`WARN acceptable vector (the spec is silent): ${result.reason.replace(/\n/g, '; ')}`);
      if (result.verdict === 'fail') throw evidence(result.reason);
    });
  }
}
