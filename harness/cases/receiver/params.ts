// receiver.params (§6 URL composition and Parameters): the query the service composes is
// parsed correctly, whatever the callback URL already carries and whatever the message or the
// transaction_id hold. Each callback must be applied exactly once and answered 2xx. The
// receiver's records show the record, not the message: a message case shows that an unusual message does not
// keep the outcome from being applied (or, for "&status=FAILED", from being the right one), not
// how the message was decoded; its title says so. URLs are composed by harness/callback, the
// suite's one composer.
import type { Level } from '../../results/index.ts';
import type { ResolvedReceiverTarget } from '../../targets/index.ts';
import type { CaseOutcome, ConformanceCase } from '../model.ts';
import { expectAppliedOnce, receiverCase, type ReceiverProbe } from './kit.ts';

interface ParamsRow {
  leaf: string;
  title: string;
  specRef: string;
  /** Text the transaction id carries in its `{id}` part, after the harness's own id. */
  idCarrying?: string;
  message?: string;
  /** The callback URL before composition. */
  callbackUrl?: (url: string) => string;
  /** Parameters appended after the composed query. */
  append?: string;
  /** Default MUST; SHOULD where the spec states no rule the row could break. */
  level?: Level;
}

/** Adds the receiver's own query parameters, as an integrator's callback_url may carry. */
function withOwnQuery(url: string): string {
  const u = new URL(url);
  u.searchParams.append('order', 'A-17');
  u.searchParams.append('source', 'collect');
  return u.toString();
}

export const PARAMS_ROWS: readonly ParamsRow[] = [
  {
    leaf: 'existing-query', title: 'a callback to a URL with its own query string is applied', specRef: '§6 URL composition',
    callbackUrl: withOwnQuery,
  },
  { leaf: 'message-plus', title: 'a callback whose message has spaces and "+" (sent as + and %2B) is applied', specRef: '§6 Parameters', message: 'Paid 5 + 3 items' },
  { leaf: 'message-encoded-plus', title: 'a callback whose message holds the text "%2B" is applied', specRef: '§6 Parameters', message: 'code %2B kept as typed' },
  {
    // The text holds a would-be parameter: a receiver that decodes the whole query before
    // splitting it reads status=FAILED (the last occurrence) and the record ends FAILED.
    leaf: 'message-ampersand', title: 'a message holding "&status=FAILED" stays one value', specRef: '§6 Parameters',
    message: 'Tom & Jerry: a=b&status=FAILED',
  },
  { leaf: 'message-non-ascii', title: 'a callback whose message has non-ASCII text is applied', specRef: '§6 Parameters', message: 'Paiement reçu — 10,00 € ✓ 受領' },
  {
    leaf: 'reserved-transaction-id', title: 'a transaction_id with reserved characters is echoed intact', specRef: '§6 Parameters, §2.1',
    idCarrying: '/a?b=c&d#e+f g%h:é',
  },
  {
    leaf: 'transaction-id-space', title: 'a transaction_id with a space (sent as +) is decoded', specRef: '§6 Parameters, §2.1',
    idCarrying: ' 7',
  },
  {
    // SHOULD: §4.3 and §6 name exactly three appended parameters; tolerating others is the
    // suite's recommendation (services add some), not a sentence of the spec.
    leaf: 'extra-params', title: 'unknown extra parameters are ignored', specRef: '§6 URL composition',
    append: '&channel=mobile&attempt=2', level: 'SHOULD',
  },
];

async function appliedOnce(probe: ReceiverProbe, row: ParamsRow): Promise<CaseOutcome> {
  let id = probe.ctx.newTransactionId();
  if (row.idCarrying !== undefined) {
    const carrying = probe.ctx.transactionIdCarrying(row.idCarrying);
    if (!carrying.ok) return { verdict: 'SKIP', reason: carrying.reason };
    id = carrying.id;
  }
  await probe.seed(id);
  const callbackUrl = row.callbackUrl ? row.callbackUrl(probe.target.callbackUrl) : probe.target.callbackUrl;
  const sent = await probe.callback(
    { transaction_id: id, status: 'SUCCESS', message: row.message ?? 'Payment received' },
    { callbackUrl, ...(row.append ? { append: row.append } : {}), label: `callback (${row.leaf})` },
  );
  return expectAppliedOnce(probe, id, [sent], 'SUCCESS', row.specRef);
}

export const PARAMS_CASES: ConformanceCase<ResolvedReceiverTarget>[] = PARAMS_ROWS.map((row) => receiverCase(
  { id: `receiver.params.${row.leaf}`, title: row.title, specRef: row.specRef, level: row.level ?? 'MUST', needs: ['records', 'seed'] },
  (probe) => appliedOnce(probe, row),
));
