// §6 rule 5: "the receiver may confirm the outcome through the Transaction Status endpoint before
// fulfilment". A confirming reference receiver asks the service (harness/status: the suite's
// position, signed as collect) about a pending record before applying SUCCESS (and FAILED, when
// configured), with a time limit of its own well inside the reply deadline, and applies only what
// the answer confirms. The confirmation faults bend exactly one of these steps each.
import { findAlternative, profileOf, signBody } from '../signing/index.ts';
import { readStatusAnswer, signedStatusQuery, STATUS_POSITION, statusQueryBody, type StatusQuery } from '../status/index.ts';
import { DEFAULT_CONFIRM_TIMEOUT_MS, type ReceiverConfirmConfig } from './config.ts';
import type { ReceiverContext } from './context.ts';

export type Confirmation =
  | { kind: 'confirmed' }
  /** The service answers another status for it (PENDING, the other outcome), or does not know it. */
  | { kind: 'contradicted'; answered: string }
  /** No usable answer: 5xx, refused, unreadable, no answer, the time limit. */
  | { kind: 'unavailable'; why: string };

const BODY_ORDER = profileOf(findAlternative('body-order')!);

/** Whether this outcome for this record is one the receiver confirms before applying. */
export function needsConfirmation(state: string, ctx: ReceiverContext): boolean {
  const c = ctx.config.confirms;
  if (!c || ctx.faults.has('never-confirms')) return false;
  return state === 'SUCCESS' || (state === 'FAILED' && c.failed === true);
}

/** The query as the faults make it: signed over body order, or naming the id percent-encoded. */
function queryFor(transactionId: string, c: ReceiverConfirmConfig, ctx: ReceiverContext): StatusQuery {
  const asked = ctx.faults.has('status-query-id-encoded') ? encodeURIComponent(transactionId) : transactionId;
  const endpoint = c.status ?? STATUS_POSITION;
  const query = signedStatusQuery({ baseUrl: c.baseUrl, endpoint, transactionId: asked, clientId: c.clientId, clientKey: c.clientKey, secretKey: c.secretKey });
  if (ctx.faults.has('status-query-body-order')) {
    const { authorization } = signBody(statusQueryBody(asked, c.clientId), c.secretKey, { clientKey: c.clientKey, profile: BODY_ORDER });
    query.headers.authorization = authorization!;
  }
  return query;
}

/** Asks the status endpoint whether `state` is the transaction's status. */
export async function confirmOutcome(transactionId: string, state: string, ctx: ReceiverContext): Promise<Confirmation> {
  const c = ctx.config.confirms!;
  const query = queryFor(transactionId, c, ctx);
  const limitMs = c.timeoutMs ?? DEFAULT_CONFIRM_TIMEOUT_MS;
  let status: number;
  let text: string;
  try {
    const answer = await fetch(query.url, {
      method: query.method,
      headers: query.headers,
      ...(query.body !== undefined ? { body: query.body } : {}),
      // Fault `no-status-time-limit`: the query waits as long as the endpoint takes.
      ...(ctx.faults.has('no-status-time-limit') ? {} : { signal: AbortSignal.timeout(limitMs) }),
    });
    status = answer.status;
    text = await answer.text();
  } catch (error) {
    const timedOut = error instanceof Error && error.name === 'TimeoutError';
    return { kind: 'unavailable', why: timedOut ? `no answer within ${limitMs} ms` : `no answer (${error instanceof Error ? (error.cause as Error | undefined)?.message ?? error.message : String(error)})` };
  }
  const reading = readStatusAnswer(status, text, c.status ?? STATUS_POSITION);
  switch (reading.kind) {
    case 'status':
      // Fault `confirms-ignores-status`: an answer that reads at all confirms.
      if (reading.status === state || ctx.faults.has('confirms-ignores-status')) return { kind: 'confirmed' };
      return { kind: 'contradicted', answered: reading.status };
    case 'unknown-id':
      return { kind: 'contradicted', answered: `unknown (${reading.httpStatus})` };
    case 'refused':
    case 'server-error':
      return { kind: 'unavailable', why: `answered ${reading.httpStatus}` };
    case 'unreadable':
      return { kind: 'unavailable', why: `answered ${reading.httpStatus}: ${reading.why}` };
  }
}
