// A client case as data (id, title, the call the caller makes, how the service answers) plus a
// check of what the call showed; and the fields every call starts from.
import type { RawField, ServiceScript } from '../../sdk/index.ts';
import type { ResolvedClientTarget } from '../../targets/index.ts';
import type { CaseOutcome, ConformanceCase } from '../model.ts';
import { CLIENT_CUSTOMER_NUMBER, CLIENT_NETWORK_CODE } from './bench.ts';
import { callSdk, evidenceOf, silence, type ClientContext, type SdkCall, type Problem } from './call.ts';

/** A client case: run (one call through the adapter, then judged), and its judgement alone, for known-answer tests of what a call showed. */
export type ClientCase = ConformanceCase<ResolvedClientTarget> & {
  judge(o: SdkCall): CaseOutcome | Promise<CaseOutcome>;
};

/** The six fields of §2.1 as the caller passes them, by name, as raw JSON text. */
export type CallFields = Record<'amount' | 'callback_url' | 'client_id' | 'customer_number' | 'network_code' | 'transaction_id', string>;

/** How a case changes the plain call: its fields (raw JSON), their order, extra fields. */
export interface CallShape {
  fields?: (plain: CallFields) => Partial<CallFields>;
  /** Pass the fields in this order instead of §2.1's (alphabetical) one. */
  order?: readonly (keyof CallFields)[];
  extra?: readonly RawField[];
}

export interface ClientCaseSpec extends Omit<ClientCase, 'side' | 'run' | 'needs' | 'judge'> {
  call?: CallShape;
  script?: ServiceScript;
  check(o: SdkCall): CaseOutcome | Promise<CaseOutcome>;
  /**
   * The check judges the SDK's report (client.answers), a report of nothing included. Otherwise
   * (a check of the request) an SDK that kept its caller waiting after the service answered is
   * the case's finding beside what the request showed (withSilence).
   */
  judgesReport?: true;
}

export const PLAIN_AMOUNT = '"1.00"';

/** The plain call: a string amount, the whitelisted number with its leading zero, a fresh id. */
export async function plainFields(ctx: ClientContext): Promise<CallFields> {
  const bench = await ctx.resources.clients.of(ctx.target, ctx.redactor);
  return {
    amount: PLAIN_AMOUNT,
    callback_url: JSON.stringify(`${bench.service.callbackBase}${ctx.newTag()}`),
    client_id: String(ctx.target.clientId),
    customer_number: JSON.stringify(CLIENT_CUSTOMER_NUMBER),
    network_code: JSON.stringify(CLIENT_NETWORK_CODE),
    transaction_id: JSON.stringify(ctx.newTransactionId()),
  };
}

const SECTION_ORDER: readonly (keyof CallFields)[] = ['amount', 'callback_url', 'client_id', 'customer_number', 'network_code', 'transaction_id'];

export async function fieldsOf(ctx: ClientContext, shape: CallShape = {}): Promise<RawField[]> {
  const plain = await plainFields(ctx);
  const fields = { ...plain, ...shape.fields?.(plain) };
  return [...(shape.order ?? SECTION_ORDER).map((name): RawField => [name, fields[name]]), ...(shape.extra ?? [])];
}

export function clientCase(spec: ClientCaseSpec): ClientCase {
  const { check, call, script, judgesReport, ...data } = spec;
  const judge = async (o: SdkCall): Promise<CaseOutcome> => {
    const outcome = await check(o);
    return judgesReport ? outcome : withSilence(o, outcome);
  };
  return {
    ...data,
    side: 'client',
    needs: [],
    judge,
    async run(ctx) {
      return judge(await callSdk(ctx, await fieldsOf(ctx, call), script));
    },
  };
}

/**
 * The request was judged; but the SDK reported nothing although the service had answered (its
 * promise never settles on that answer): a finding of this case whatever its request showed,
 * so a FAIL, its reason saying what the request itself showed.
 */
export function withSilence(o: SdkCall, outcome: CaseOutcome): CaseOutcome {
  const quiet = silence(o);
  if (quiet === undefined) return outcome;
  const evidence = outcome.evidence ?? evidenceOf(o);
  const causes = [...(outcome.causes ?? []), ...quiet.causes];
  switch (outcome.verdict) {
    case 'PASS':
      return { verdict: 'FAIL', reason: `${quiet.text} (the request itself held this rule)`, evidence, causes };
    case 'SKIP':
      return { verdict: 'FAIL', reason: `${quiet.text} (the request itself did not exercise this rule: ${outcome.reason})`, evidence, causes };
    default:
      return { ...outcome, reason: `${outcome.reason}; and ${quiet.text}`, evidence, causes };
  }
}

export function pass(o: SdkCall, notes: string[] = []): CaseOutcome {
  return { verdict: 'PASS', evidence: evidenceOf(o, notes) };
}

export function fail(o: SdkCall, reason: string | Problem, notes: string[] = []): CaseOutcome {
  const { text, causes } = typeof reason === 'string' ? { text: reason, causes: [] } : reason;
  return { verdict: 'FAIL', reason: text, evidence: evidenceOf(o, notes), ...(causes.length > 0 ? { causes } : {}) };
}
