// service.callback: what one callback of an accepted transaction looks like (§4.3, §6): GET,
// the URL composed as §6 says, the id echoed, the status exact, the message form-encoded, the
// token, and duplicates that agree.
import { parseCallbackQuery } from '../../callback/index.ts';
import type { CollectFields } from '../../client/index.ts';
import type { ListenerDelivery } from '../../listener/index.ts';
import { compositionProblems, fromCaseRoot, messageEncodingProblems, messageHasSpace, rawParam } from './checks.ts';
import { describeAnswer } from './session.ts';
import { atMs, firstCallback, noCallback, requireAccepted, serviceCase, windowLeft, type ServiceCase } from './define.ts';
import type { ServiceSession } from './session.ts';

/**
 * What the ids carry after the harness's own id: each breaks a service that writes the id into
 * the URL as it is (a second status, a fragment that cuts status and message off, a + read as a
 * space, a %XX decoded, a space or non-ASCII byte the URL cannot hold).
 */
const RESERVED_ID_TEXTS: readonly string[] = ['&status=FAILED', '=x', '#x', '+1', '%41', ' 7', 'é'];

/** Sends a valid request (fields as given) and waits for its first callback. */
async function deliver(
  s: ServiceSession, fields: CollectFields & { tag: string }, settleMs = 0,
): Promise<ListenerDelivery[]> {
  const answer = await s.sendAnswered({ fields }, { label: 'a correctly signed collect, for its callback' });
  requireAccepted(s, answer);
  return firstCallback(s, fields.tag, settleMs);
}

function statusCase(leaf: 'status-success' | 'status-failed', expected: 'SUCCESS' | 'FAILED'): ServiceCase {
  return serviceCase({
    id: `service.callback.${leaf}`,
    title: `a transaction that ends ${expected} reports status ${expected}`,
    specRef: '§3, §4.3, §6 Parameters',
    level: 'MUST',
    needs: expected === 'FAILED' ? ['failingNumber'] : [],
    async check(s) {
      const number = expected === 'FAILED' ? s.target.customerNumbers.failing![0]! : s.successNumber();
      const [d] = await deliver(s, s.fields({ customer_number: number }));
      if (!d) return noCallback(s);
      const status = parseCallbackQuery(d.rawUrl).status;
      if (status === expected) return s.pass({ notes: [`customer number ${number}: the callback says status=${status}`] });
      return s.fail(`customer number ${number} ends ${expected}, the callback says status=${JSON.stringify(status ?? null)}`
        + (status?.toUpperCase() === expected ? ' (status values are exact, upper case)' : ''));
    },
  });
}

function compositionCase(leaf: string, title: string, urlOf: (s: ServiceSession, tag: string) => string): ServiceCase {
  return serviceCase({
    id: `service.callback.${leaf}`,
    title,
    specRef: '§6 URL composition',
    level: 'MUST',
    needs: [],
    async check(s) {
      const tag = s.newTag();
      const supplied = urlOf(s, tag);
      const [d] = await deliver(s, s.fields({ tag, callback_url: supplied }));
      if (!d) {
        // Parameters glued to the path (`/cb/<tag>&transaction_id=…`) change the tag the
        // listener sees; such a delivery is still this case's, and says more than "no callback".
        const stray = strayDelivery(s, supplied);
        if (!stray) return noCallback(s);
        return s.fail(`${compositionProblems(supplied, stray.rawUrl).join('; ')}. Supplied: ${supplied}; received: ${stray.rawUrl}`,
          { notes: [`the callback arrived at a path the supplied URL does not have: ${stray.rawUrl}`] });
      }
      const problems = compositionProblems(supplied, d.rawUrl);
      if (problems.length === 0) return s.pass({ notes: [`supplied ${supplied}`, `received ${d.rawUrl}`] });
      return s.fail(`${problems.join('; ')}. Supplied: ${supplied}; received: ${d.rawUrl}`);
    },
  });
}

/** A delivery whose path is the supplied URL's path with something other than `/`, `?` or `#` glued on. */
function strayDelivery(s: ServiceSession, supplied: string): ListenerDelivery | undefined {
  const root = fromCaseRoot(supplied).split('?')[0]!;
  return s.listener.deliveries().find((d) => {
    const received = fromCaseRoot(d.rawUrl);
    return received.startsWith(root) && /^[^A-Za-z0-9._~\-/?#]/.test(received.slice(root.length));
  });
}

export const CALLBACK_CASES: readonly ServiceCase[] = [
  serviceCase({
    id: 'service.callback.delivered-once-as-get',
    title: 'an accepted transaction is called back with GET',
    specRef: '§3, §4.3, §6 Delivery',
    level: 'MUST',
    needs: [],
    async check(s) {
      const seen = await deliver(s, s.fields());
      if (seen.length === 0) return noCallback(s);
      const wrong = seen.filter((d) => d.method !== 'GET');
      if (wrong.length > 0) return s.fail(`the callback came as ${wrong.map((d) => d.method).join(', ')}, not GET`);
      return s.pass({ notes: [`first callback after ${atMs(s, seen[0]!)} ms`] });
    },
  }),
  serviceCase({
    id: 'service.callback.transaction-id-echoed',
    title: 'the callback echoes the caller\'s transaction_id exactly',
    specRef: '§2.1, §6 Parameters',
    level: 'MUST',
    needs: [],
    async check(s) {
      const fields = s.fields();
      const [d] = await deliver(s, fields);
      if (!d) return noCallback(s);
      const ids = parseCallbackQuery(d.rawUrl).all.filter(([name]) => name === 'transaction_id').map(([, v]) => v);
      if (ids.length === 0) return s.fail('the callback has no transaction_id parameter');
      if (ids.length > 1) return s.fail(`transaction_id appears ${ids.length} times: ${JSON.stringify(ids)}`);
      if (ids[0] !== fields.transaction_id) {
        return s.fail(`sent transaction_id ${JSON.stringify(fields.transaction_id)}, the callback says ${JSON.stringify(ids[0])}`);
      }
      return s.pass({ notes: [`the callback's one transaction_id is the one sent, ${JSON.stringify(ids[0])}`] });
    },
  }),
  statusCase('status-success', 'SUCCESS'),
  statusCase('status-failed', 'FAILED'),
  serviceCase({
    id: 'service.callback.message-plus-encoding',
    title: 'message is form-encoded with + for spaces',
    specRef: '§6 Parameters',
    level: 'MUST',
    needs: [],
    async check(s) {
      const [d] = await deliver(s, s.fields());
      if (!d) return noCallback(s);
      const problems = messageEncodingProblems(d.rawUrl);
      const raw = rawParam(d.rawUrl, 'message');
      if (problems.length > 0) return s.fail(`${problems.join('; ')}: message=${raw ?? ''}`);
      // A rule not exercised is not a PASS: the service chose a message without a space.
      if (!messageHasSpace(d.rawUrl)) return s.skip(`not exercised: the service's message (message=${raw ?? ''}) has no space, so the + rule could not be seen`);
      return s.pass({ notes: [`message=${raw ?? ''}`] });
    },
  }),
  serviceCase({
    id: 'service.callback.reserved-id-intact',
    title: 'a transaction_id with &, =, #, +, %, a space or é comes back intact',
    specRef: '§2.1, §6 Parameters',
    level: 'MUST',
    needs: [],
    async check(s) {
      const sent: { text: string; fields: CollectFields & { tag: string } }[] = [];
      for (const text of RESERVED_ID_TEXTS) {
        const carrying = s.ctx.transactionIdCarrying(text);
        if (!carrying.ok) return s.skip(carrying.reason);
        sent.push({ text, fields: s.fields({ transaction_id: carrying.id }) });
      }
      const answers = await Promise.all(sent.map(({ text, fields }) => s.sendAnswered({ fields }, { label: `transaction_id carrying ${JSON.stringify(text)}` })));
      const accepted = sent.filter((_, i) => answers[i]!.judgement === 'accepted');
      sent.forEach(({ text }, i) => {
        if (answers[i]!.judgement !== 'accepted') s.note(`an id carrying ${JSON.stringify(text)} was refused at collect: ${describeAnswer(answers[i]!)}`);
      });
      if (accepted.length === 0) return s.skip(`the service refused every id with reserved characters at collect (first: ${describeAnswer(answers[0]!)}), so none could come back`);
      const delivered = await Promise.all(accepted.map(({ fields }) => firstCallback(s, fields.tag)));
      const problems: string[] = [];
      const undelivered = delivered.some((d) => d[0] === undefined);
      accepted.forEach(({ text, fields }, i) => {
        const d = delivered[i]![0];
        if (!d) return problems.push(`no callback arrived for the id carrying ${JSON.stringify(text)}`);
        const q = parseCallbackQuery(d.rawUrl);
        if (q.transaction_id !== fields.transaction_id || q.status !== 'SUCCESS') {
          problems.push(`sent ${JSON.stringify(fields.transaction_id)}, the callback ${d.rawUrl.slice(d.rawUrl.indexOf('?'))} reads transaction_id=${JSON.stringify(q.transaction_id ?? null)}, status=${JSON.stringify(q.status ?? null)}`);
        }
      });
      if (problems.length > 0) return s.fail(`${problems.join('; ')}: every value is form-encoded in the query (§6 Parameters), or the receiver reads another id or status`, undefined, undelivered ? ['no-callback'] : []);
      const refused = sent.length - accepted.length;
      return s.pass({ notes: [`${accepted.length} id(s) came back intact${refused ? `; ${refused} refused at collect (not exercised)` : ''}`] });
    },
  }),
  compositionCase('query-appended-with-question-mark', 'parameters follow ? when the URL has no query',
    (s, tag) => s.callbackUrl(tag)),
  compositionCase('query-appended-with-ampersand', 'parameters follow & when the URL has a query',
    (s, tag) => s.callbackUrl(tag, { query: 'ref=order-17' })),
  compositionCase('url-kept-intact', 'the supplied path and query reach the receiver intact',
    (s, tag) => `${s.callbackUrl(tag)}/return.v2;x=1?order=A-1%2FB&note=x=y&q=what?&empty=&flag&e=%C3%A9`),
  serviceCase({
    id: 'service.callback.token-present',
    title: 'callbacks carry X-Callback-Token equal to the configured token',
    specRef: '§4.3, §6 Token header',
    level: 'MUST',
    needs: ['token'],
    watchesRetries: true,
    async check(s) {
      // Every delivery, not only the first: a 500 makes the service deliver again, and a token
      // set once and lost on the retry makes the receiver refuse the retry (the outcome is lost).
      const fields = s.fields();
      s.listener.script({ tag: fields.tag }, [500]);
      const [first] = await deliver(s, fields);
      if (!first) return noCallback(s);
      const { retryWindowMs } = s.target.timing;
      s.ctx.progress(`first callback answered 500; waiting up to ${retryWindowMs} ms for the retry, to check its token too`);
      await s.waitFor({ tag: fields.tag }, { count: 2, timeoutMs: windowLeft(first, retryWindowMs) });
      // The case's one tag: all its deliveries.
      const seen = s.deliveries();
      const expected = s.target.callbackToken!;
      for (const [i, d] of seen.entries()) {
        const which = i === 0 ? 'the first delivery' : `delivery ${i + 1} (a retry after the 500)`;
        const value = d.headers['x-callback-token'];
        if (value === undefined && i === 0) {
          return s.warn('the callback carries no X-Callback-Token; §6 requires it for hosted checkout and leaves it open for other services');
        }
        if (value === undefined) return s.fail(`${which} carries no X-Callback-Token; the first delivery carried it, so a receiver checking the token refuses the retry`);
        if (Array.isArray(value)) return s.fail(`X-Callback-Token is sent ${value.length} times on ${which}`);
        if (value !== expected) {
          return s.fail(`X-Callback-Token of ${which} differs from the configured token (${value.length} characters, expected ${expected.length})`);
        }
      }
      return s.pass({
        notes: [seen.length === 1
          ? `only the first delivery was checked: the 500 answer was not retried within timing.retryWindowMs (${retryWindowMs} ms)`
          : `${seen.length} deliveries (the first answered 500), each with the configured token`],
      });
    },
  }),
  serviceCase({
    id: 'service.callback.duplicates-consistent',
    title: 'repeated callbacks of a transaction carry the same outcome',
    specRef: '§3, §6 Guarantee',
    level: 'MUST',
    needs: [],
    watchesRetries: true,
    async check(s) {
      // A 500 on the first delivery makes any service deliver again; duplicates it sends of its
      // own accord are watched for as well.
      const fields = s.fields();
      s.listener.script({ tag: fields.tag }, [500]);
      const [first] = await deliver(s, fields);
      if (!first) return noCallback(s);
      const { callbackTimeoutMs, retryWindowMs } = s.target.timing;
      s.ctx.progress(`first callback answered 500; waiting up to ${retryWindowMs} ms for the retry`);
      const [, second] = await s.waitFor({ tag: fields.tag }, { count: 2, timeoutMs: retryWindowMs });
      if (!second) {
        // One delivery has nothing to agree with: the rule was not exercised.
        return s.skip(`not exercised: the 500 answer was not retried within timing.retryWindowMs (${retryWindowMs} ms), so only one delivery was seen (see service.callback.retry-back-off)`);
      }
      const gap = second.receivedAt - first.receivedAt;
      // DESIGN.md: retryWindowMs is how long deliveries are watched; the watch ends with it.
      const watch = Math.min(windowLeft(first, retryWindowMs), Math.max(callbackTimeoutMs, Math.round(2 * gap)));
      s.ctx.progress(`retry seen; watching ${watch} ms for more deliveries`);
      await s.waitFor({ tag: fields.tag }, { count: Number.POSITIVE_INFINITY, timeoutMs: watch });
      // The case's one tag: all its deliveries.
      const seen = s.deliveries();
      const outcomes = seen.map((d) => {
        const p = parseCallbackQuery(d.rawUrl);
        return `${p.transaction_id ?? '(no id)'} ${p.status ?? '(no status)'}`;
      });
      const distinct = [...new Set(outcomes)];
      if (distinct.length > 1) {
        const k = outcomes.findIndex((o) => o !== outcomes[0]);
        return s.fail(`delivery ${k + 1} of ${seen.length} carries "${outcomes[k]}" after "${outcomes[0]}": a terminal state changed (§3)`);
      }
      return s.pass({ notes: [`${seen.length} deliver${seen.length === 1 ? 'y' : 'ies'}, all "${outcomes[0]}"`] });
    },
  }),
];
