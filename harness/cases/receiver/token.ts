// receiver.token (§6 rule 1): an absent, wrong or near-miss X-Callback-Token gets exactly 403
// and the record stays untouched. Variants are data; one check serves them all.
import type { Level } from '../../results/index.ts';
import type { ResolvedReceiverTarget } from '../../targets/index.ts';
import { TOKEN_HEADER, tokenHeader, type HeaderSpec, isSuccess } from '../../http/index.ts';
import type { CaseOutcome, ConformanceCase } from '../model.ts';
import { seededRandom } from '../../ids/index.ts';
import { answerText, describeReading, expectAppliedOnce, NO_SEEDED_RECORD, receiverCase, untouched, SUCCESS_MESSAGE, type ReceiverProbe, type TokenChoice } from './kit.ts';

const NBSP = '\u00a0';

interface TokenVariant {
  leaf: string;
  title: string;
  /** Default MUST (§6 rule 1); SHOULD where the suite interprets what "the value" is. */
  level?: Level;
  /** The header lines to send, built from the configured token; a string is a reason to SKIP. */
  make(token: string, random: () => number, env: string): TokenChoice | string;
}

/**
 * The name as HTTP/2 always sends it and many HTTP/1.1 clients do: field names are
 * case-insensitive (RFC 9110 §5.1), so a receiver must read the header under any spelling.
 */
export const LOWER_CASE_TOKEN_HEADER = TOKEN_HEADER.toLowerCase();

function one(value: string, shown: string, shellValue: string, describe: string, name = TOKEN_HEADER): TokenChoice {
  const header: HeaderSpec = { name, value, shown, shell: `"${name}: ${shellValue}"` };
  return { headers: [header], describe };
}

function wrongToken(token: string, random: () => number): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
  let out = '';
  do {
    out = Array.from({ length: Math.max(8, token.length) }, () => alphabet[Math.floor(random() * alphabet.length)]!).join('');
  } while (out === token);
  return out;
}

function swapCase(text: string): string {
  return [...text].map((ch) => (ch === ch.toLowerCase() ? ch.toUpperCase() : ch.toLowerCase())).join('');
}

export const TOKEN_VARIANTS: readonly TokenVariant[] = [
  {
    leaf: 'missing', title: 'a callback without X-Callback-Token gets 403, no action',
    make: () => ({ headers: [], describe: 'no header' }),
  },
  {
    leaf: 'empty', title: 'an empty X-Callback-Token gets 403, no action',
    make: () => one('', '', '', 'the header with an empty value'),
  },
  {
    leaf: 'wrong', title: 'a wrong token of the same length gets 403, no action',
    make: (token, random, env) => {
      const wrong = wrongToken(token, random);
      return one(wrong, wrong, wrong, 'a random token of the same length');
    },
  },
  {
    leaf: 'one-char-short', title: 'the token minus its last character gets 403, no action',
    make: (token, _random, env) => one(token.slice(0, -1), '[REDACTED minus its last character]', `\${${env}%?}`, 'the token without its last character'),
  },
  {
    leaf: 'one-char-extra', title: 'the token plus one character gets 403, no action',
    make: (token, _random, env) => one(`${token}x`, '[REDACTED]x', `\${${env}}x`, 'the token followed by "x"'),
  },
  {
    leaf: 'different-case', title: 'the token in swapped letter case gets 403, no action',
    make: (token, _random, env) => swapCase(token) === token
      ? 'the configured token has no letters, so it has no different-case variant'
      : one(swapCase(token), '[REDACTED, letter case swapped]', `$(printf %s "$${env}" | tr a-zA-Z A-Za-z)`, 'the token with its letter case swapped'),
  },
  {
    // Spaces and tabs around a header value are stripped by HTTP itself (RFC 9110 §5.5), so
    // the whitespace that reaches an application is a non-breaking space (byte 0xA0):
    // String.prototype.trim and its kin remove it.
    leaf: 'surrounding-whitespace', title: 'the token wrapped in non-breaking spaces gets 403, no action',
    make: (token, _random, env) => one(`${NBSP}${token}${NBSP}`, '0xA0 [REDACTED] 0xA0', `$(printf '\\240')$${env}$(printf '\\240')`, 'the token between two 0xA0 (non-breaking space) bytes'),
  },
  {
    // A receiver that finds the header ignoring the name's case but compares the value only
    // under the exact name X-Callback-Token lets any token through in lower case.
    leaf: 'wrong-lowercase-name', title: 'a wrong token sent as x-callback-token (lower-case name) gets 403, no action',
    make: (token, random) => {
      const wrong = wrongToken(token, random);
      return one(wrong, wrong, wrong, `a random token of the same length, under the name ${LOWER_CASE_TOKEN_HEADER}`, LOWER_CASE_TOKEN_HEADER);
    },
  },
  {
    // SHOULD: §6 rule 1 speaks of one header value; with two lines a receiver that reads the
    // first (Go's Header.Get) sees the configured token. Refusing is the suite's reading.
    leaf: 'sent-twice', title: 'the header sent twice (token, then wrong) gets 403, no action', level: 'SHOULD',
    make: (token, random, env) => {
      const wrong = wrongToken(token, random);
      return {
        headers: [
          { name: TOKEN_HEADER, value: token, shown: '[REDACTED]', shell: `"${TOKEN_HEADER}: $${env}"` },
          { name: TOKEN_HEADER, value: wrong, shown: wrong },
        ],
        describe: 'two header lines: the configured token, then a wrong one (Node joins them as "token, wrong")',
      };
    },
  },
];

async function refusedWithoutAction(probe: ReceiverProbe, variant: TokenVariant): Promise<CaseOutcome> {
  const token = probe.target.callbackToken!;
  const choice = variant.make(token, seededRandom(probe.ctx.seed ^ variant.leaf.length), probe.tokenEnv);
  if (typeof choice === 'string') return { verdict: 'SKIP', reason: choice };
  const id = probe.ctx.newTransactionId();
  if (probe.seeds) await probe.seed(id);
  else probe.notes.push(`${NO_SEEDED_RECORD}: only the answer is judged, not whether the receiver acted`);
  const sent = await probe.callback({ transaction_id: id, status: 'SUCCESS', message: SUCCESS_MESSAGE }, { token: choice, label: `callback with ${choice.describe}` });
  const problems: string[] = [];
  const status = sent.answer.status;
  if (status !== 403) problems.push(`answered ${answerText(sent.answer, probe.ctx.redactor)}; §6 rule 1 says 403`);
  if (probe.seeds) {
    const after = await probe.settledReading(id, false);
    if (!untouched(after)) {
      problems.push(`the record changed to ${describeReading(after)}: §6 rule 1 says the receiver takes no action`);
    }
  }
  // With a seeded record, the PASS rests on the record not changing; without, on the refusal alone.
  if (problems.length === 0) return { ...probe.pass(), restsOn: probe.seeds ? 'effect' : 'answer' };
  const failed = probe.fail(problems);
  // The answer the only finding (the hooks show nothing acted on, or there are none to show it).
  return problems.length === 1 && status !== 403 ? { ...failed, restsOn: 'answer' } : failed;
}

/** A refusal of the token, as §6 rule 1 and §7 word it (401 is the common mistake). */
function isRefusal(status: number): boolean {
  return status === 401 || status === 403;
}

/**
 * The configured token under the lower-case name is a valid callback (MUST: the spec names an
 * HTTP header, and HTTP names are case-insensitive). With a seeded record it must be applied; without,
 * the id is unknown, so any 2xx or 4xx but a refusal (401/403) is accepted. A refusal is
 * compared with the same callback under the exact name: refused there too, the case says
 * nothing about the name (ERROR, under the preflight's shared cause); accepted there, the name
 * is matched case-sensitively (FAIL).
 */
async function acceptedUnderLowerCaseName(probe: ReceiverProbe): Promise<CaseOutcome> {
  const params = (id: string) => ({ transaction_id: id, status: 'SUCCESS' as const, message: SUCCESS_MESSAGE });
  const header: HeaderSpec = { ...tokenHeader(probe.target.callbackToken!, probe.tokenEnv), name: LOWER_CASE_TOKEN_HEADER };
  header.shell = header.shell!.replace(TOKEN_HEADER, LOWER_CASE_TOKEN_HEADER);
  const choice: TokenChoice = { headers: [header], describe: `the configured token under the name ${LOWER_CASE_TOKEN_HEADER}` };
  const id = probe.ctx.newTransactionId();
  if (probe.seeds) await probe.seed(id);
  else probe.notes.push(`${NO_SEEDED_RECORD}: the id is unknown to the receiver, so any 2xx or 4xx but 401/403 (the token refused) is accepted`);
  const sent = await probe.callback(params(id), { token: choice, label: `callback with the configured token as ${LOWER_CASE_TOKEN_HEADER}` });
  const status = sent.answer.status;
  const judged = probe.seeds
    ? await expectAppliedOnce(probe, id, [sent], 'SUCCESS', '§6 rule 1')
    : isSuccess(status) || (status >= 400 && status <= 499 && !isRefusal(status))
      ? probe.pass()
      : probe.fail(`answered ${answerText(sent.answer, probe.ctx.redactor)}, neither 2xx nor a 4xx other than 401/403`);
  // A PASS never follows a refusal: only a refusal needs the control.
  if (!isRefusal(status)) return judged;
  // The control is a callback of its own (seeded too, when records can be seeded), differing only in the name.
  const controlId = probe.ctx.newTransactionId();
  if (probe.seeds) await probe.seed(controlId);
  const control = await probe.callback(params(controlId), { label: `control: the same callback as ${TOKEN_HEADER}` });
  const observed = judged.reason ?? `answered ${status}`;
  if (isRefusal(control.answer.status)) {
    // Refused under either name: this says nothing about the letter case; the shared cause (the
    // token refused, named by the preflight) explains it, and it is no finding of its own.
    return {
      verdict: 'ERROR',
      reason: `${observed}; but the configured token was refused as ${TOKEN_HEADER} too (answered ${control.answer.status}): likely the target file's callbackToken is not the receiver's token, so this says nothing yet about the name's letter case`,
      evidence: probe.evidence(),
    };
  }
  return probe.fail([observed, `the same callback with the token as ${TOKEN_HEADER} was not refused (answered ${control.answer.status}): the header name is likely matched case-sensitively, but HTTP field names are case-insensitive (RFC 9110 §5.1) and HTTP/2 always sends them in lower case`]);
}

export const TOKEN_CASES: ConformanceCase<ResolvedReceiverTarget>[] = [
  ...TOKEN_VARIANTS.map((variant) => receiverCase(
    { id: `receiver.token.${variant.leaf}`, title: variant.title, specRef: '§6 rule 1', level: variant.level ?? 'MUST', needs: ['token'], negative: 'refusal' },
    (probe) => refusedWithoutAction(probe, variant),
  )),
  receiverCase(
    { id: 'receiver.token.valid', title: 'the configured token is accepted and the outcome applied', specRef: '§6 rule 1', level: 'MUST', needs: ['token', 'records', 'seed'] },
    async (probe) => {
      const id = probe.ctx.newTransactionId();
      await probe.seed(id);
      const sent = await probe.callback({ transaction_id: id, status: 'SUCCESS', message: SUCCESS_MESSAGE });
      return expectAppliedOnce(probe, id, [sent], 'SUCCESS', '§6 rule 1');
    },
  ),
  receiverCase(
    {
      id: 'receiver.token.valid-lowercase-name', title: 'the configured token sent as x-callback-token (lower-case name) is accepted',
      specRef: '§6 rule 1; RFC 9110 §5.1', level: 'MUST', needs: ['token'],
    },
    acceptedUnderLowerCaseName,
  ),
];
