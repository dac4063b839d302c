// receiver.token (§6 rule 1): an absent, wrong or near-miss X-Callback-Token gets exactly 403
// and the record stays untouched. Variants are data; one check serves them all.
import type { Level } from '../../results/index.ts';
import type { ResolvedReceiverTarget } from '../../targets/index.ts';
import { TOKEN_HEADER, type HeaderSpec } from '../http.ts';
import type { CaseOutcome, ConformanceCase } from '../model.ts';
import { seededRandom } from '../ids.ts';
import { answerText, describeReading, expectAppliedOnce, receiverCase, SUCCESS_MESSAGE, type ReceiverProbe, type TokenChoice } from './kit.ts';

const NBSP = '\u00a0';

interface TokenVariant {
  leaf: string;
  title: string;
  /** Default MUST (§6 rule 1); SHOULD where the suite interprets what "the value" is. */
  level?: Level;
  /** The header lines to send, built from the configured token; a string is a reason to SKIP. */
  make(token: string, random: () => number, env: string): TokenChoice | string;
}

function one(value: string, shown: string, shellValue: string, describe: string): TokenChoice {
  const header: HeaderSpec = { name: TOKEN_HEADER, value, shown, shell: `"${TOKEN_HEADER}: ${shellValue}"` };
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
  if (probe.hooks) await probe.seed(id);
  else probe.notes.push('no test hooks: only the answer is judged, not whether the receiver acted');
  const sent = await probe.callback({ transaction_id: id, status: 'SUCCESS', message: SUCCESS_MESSAGE }, { token: choice, label: `callback with ${choice.describe}` });
  const problems: string[] = [];
  const status = sent.answer.status;
  if (status !== 403) problems.push(`answered ${answerText(sent.answer)}; §6 rule 1 says 403`);
  if (probe.hooks) {
    const after = await probe.settledReading(id, false);
    if (!after || after.state !== 'pending' || after.actions !== 0) {
      problems.push(`the record changed to ${describeReading(after)}: §6 rule 1 says the receiver takes no action`);
    }
  }
  if (problems.length === 0) return probe.pass();
  const failed = probe.fail(problems);
  return probe.hooks && problems.length === 1 && status !== 403 ? { ...failed, onlyTheAnswer: true } : failed;
}

export const TOKEN_CASES: ConformanceCase<ResolvedReceiverTarget>[] = [
  ...TOKEN_VARIANTS.map((variant) => receiverCase(
    { id: `receiver.token.${variant.leaf}`, title: variant.title, specRef: '§6 rule 1', level: variant.level ?? 'MUST', needs: ['token'], negative: 'refusal' },
    (probe) => refusedWithoutAction(probe, variant),
  )),
  receiverCase(
    { id: 'receiver.token.valid', title: 'the configured token is accepted and the outcome applied', specRef: '§6 rule 1', level: 'MUST', needs: ['token', 'hooks'] },
    async (probe) => {
      const id = probe.ctx.newTransactionId();
      await probe.seed(id);
      const sent = await probe.callback({ transaction_id: id, status: 'SUCCESS', message: SUCCESS_MESSAGE });
      return expectAppliedOnce(probe, id, [sent], 'SUCCESS', '§6 rule 1');
    },
  ),
];
