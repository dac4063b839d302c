// Fronts of rules-answers*.test.ts: receiver.outcome and receiver.idempotence (§4.3, §6 rule 2,
// §6 Semantics) on receivers no fault switch of the reference makes: a front (suites/preflight/front.ts)
// before the reference receiver (its hooks, so its records, pass through) answers each callback as
// a test says, hands it on changed, or applies it later (a receiver that replies first and applies
// from a queue).
import { URL } from 'node:url';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterAll, beforeAll } from 'vitest';
import { RECEIVER_CASES, type ConformanceCase } from '../../harness/cases/index.ts';
import { startEmbeddedReceiver, type EmbeddedReceiver } from '../../harness/embedded/index.ts';
import type { CaseResult } from '../../harness/results/index.ts';
import type { ResolvedReceiverTarget } from '../../harness/targets/index.ts';
import { runCases } from '../../harness/runner/index.ts';
import { startFront, type CallbackHandler, type FrontOptions } from '../preflight/front.ts';
import { runStarted } from '../support/run-started.ts';

let embedded: EmbeddedReceiver | undefined;
/** Starts the reference receiver these fronts stand before, once per file, and closes it after. */
export function withReference(): void {
  beforeAll(async () => {
    embedded = await startEmbeddedReceiver({ timeScale: 0.02, replyDeadlineMs: 1000 });
  });
  afterAll(async () => embedded?.close());
}
function reference(): EmbeddedReceiver {
  if (!embedded) throw new Error('withReference() was not called in this file');
  return embedded;
}

/**
 * For a case that polls a record that never changes (nothing applied, the record gone) for the
 * whole reply deadline: a shorter one than the receiver's 1,000 ms. The front and the reference
 * answer at once; what these tests judge is what the record reads, not when.
 */
export const NOTHING_APPLIED = { deadlineMs: 500 };

/** `caseId` against the reference behind a front that answers as `onCallback` says (`deadlineMs`: the target's reply deadline instead of the receiver's; `seed`: another run's ids, for runs side by side). */
export async function behindFront(caseId: string, onCallback: CallbackHandler, options: FrontOptions & { cases?: ConformanceCase<ResolvedReceiverTarget>[]; deadlineMs?: number; seed?: number } = {}): Promise<CaseResult> {
  const front = await startFront(reference(), onCallback, options);
  try {
    const target = options.deadlineMs === undefined ? front.target : { ...front.target, timing: { ...front.target.timing, replyDeadlineMs: options.deadlineMs } };
    const [r] = await runCases({ cases: options.cases ?? RECEIVER_CASES, target, seed: options.seed ?? 7, only: caseId });
    return r!;
  } finally {
    await front.close();
  }
}

/** Answers `status` without handing the callback on: nothing is applied. */
export const answering = (status: number): CallbackHandler => (_req, res) => void res.writeHead(status).end();
export type Rewrite = (query: URLSearchParams) => void;
/** The callback's query changed by `rewrite`, before it is handed on. */
export const rewritten = (req: IncomingMessage, rewrite: Rewrite) => {
  const url = new URL(req.url ?? '/', 'http://front');
  rewrite(url.searchParams);
  req.url = `${url.pathname}?${url.searchParams.toString()}`;
};
/** Hands the callback on (its query changed by `rewrite`), then answers `status` whatever the receiver said. */
export const handingOn = (status: number | undefined, rewrite: Rewrite = () => undefined): CallbackHandler => (req, res, pass) => {
  rewritten(req, rewrite);
  pass().then((a) => res.writeHead(status ?? a.status).end(a.body), () => res.writeHead(502).end());
};
/** The callbacks after the first of each transaction: answered `status`, never applied; the first handed on. */
export const duplicatesAnswered = (status: number): CallbackHandler => {
  const seen = new Set<string>();
  return (req, res, pass) => {
    const id = new URL(req.url ?? '/', 'http://front').searchParams.get('transaction_id') ?? '';
    if (seen.has(id)) return void res.writeHead(status).end();
    seen.add(id);
    pass().then((a) => res.writeHead(a.status).end(a.body), () => res.writeHead(502).end());
  };
};
/**
 * A receiver that replies 200 at once and applies from a queue: a transaction's first callback
 * `firstMs` later, the rest `restMs` later; `rewrite` changes what it applies.
 */
export const queued = ({ firstMs = 300, restMs = 300, rewrite = () => undefined }: { firstMs?: number; restMs?: number; rewrite?: Rewrite } = {}): CallbackHandler => {
  const seen = new Set<string>();
  return (req: IncomingMessage, res: ServerResponse, pass) => {
    const id = new URL(req.url ?? '/', 'http://front').searchParams.get('transaction_id') ?? '';
    const first = !seen.has(id);
    seen.add(id);
    rewritten(req, rewrite);
    res.writeHead(200).end();
    setTimeout(() => void pass().catch(() => undefined), first ? firstMs : restMs);
  };
};
export const labels = (r: CaseResult) => (r.evidence?.exchanges ?? []).map((e) => e.label).filter((l) => !l?.startsWith('hooks'));

/** The whole run through runSide, preflight included, of the cases `only` names, behind a front answering as `onCallback` says. */
export async function checked(only: string, onCallback: CallbackHandler): Promise<CaseResult[]> {
  return (await runStarted(startFront(reference(), onCallback), { cases: RECEIVER_CASES, seed: 7, only })).results;
}

/** Reads of the records answered 404 once `after` callbacks reached the front: a receiver that lost the record. */
export function losingRecords(after: number, onCallback: CallbackHandler): [CallbackHandler, FrontOptions] {
  let seen = 0;
  return [
    (req, res, pass) => { seen++; onCallback(req, res, pass); },
    { onHook: (req, res, forward) => (req.method === 'GET' && seen >= after ? void res.writeHead(404).end() : forward()) },
  ];
}
