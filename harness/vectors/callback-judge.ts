// The callback-url and callback-query vectors run against the built-in composer and parser
// (harness/callback): they prove the kit's own §6 reading, and show a port what to expect.
import { composeCallbackUrl, parseCallbackQuery } from '../callback/index.ts';
import type { Level, Verdict, Evidence } from '../results/index.ts';
import type { CallbackQueryVector, CallbackUrlVector } from './types.ts';
import { describeTextDiff } from './judge.ts';
import { requestTargetOf } from './request-target.ts';

export interface CallbackJudgement {
  verdict: Verdict;
  reason?: string;
  level: Level;
  specRef: string;
  evidence: Evidence;
}

function levelOf(result: string): Level {
  return result === 'acceptable' ? 'SHOULD' : 'MUST';
}

export function judgeCallbackUrlVector(vector: CallbackUrlVector, fileSpecRef = '§6'): CallbackJudgement {
  const level = levelOf(vector.result);
  const specRef = vector.specRef ?? fileSpecRef;
  const url = composeCallbackUrl(vector.callbackUrl, vector.params);
  const evidence: Evidence = { vector: { tcId: vector.tcId, callbackUrl: vector.callbackUrl, params: vector.params }, expected: vector.url, composed: url };
  if (url !== vector.url) {
    const alt = vector.alternatives?.find((a) => a.url === url);
    const reason = alt
      ? `composes alternative \`${alt.label}\`; URL ${describeTextDiff(vector.url, url)}`
      : `URL ${describeTextDiff(vector.url, url)}`;
    return { verdict: vector.result === 'acceptable' ? 'WARN' : 'FAIL', reason, level, specRef, evidence };
  }
  if (vector.requestTarget !== undefined && requestTargetOf(url) !== vector.requestTarget) {
    return { verdict: 'FAIL', reason: `request target ${describeTextDiff(vector.requestTarget, requestTargetOf(url))}`, level, specRef, evidence };
  }
  return { verdict: 'PASS', level, specRef, evidence };
}

export function judgeCallbackQueryVector(vector: CallbackQueryVector, fileSpecRef = '§6'): CallbackJudgement {
  const level = levelOf(vector.result);
  const specRef = vector.specRef ?? fileSpecRef;
  const parsed = parseCallbackQuery(vector.requestTarget);
  const got = { transaction_id: parsed.transaction_id, status: parsed.status, message: parsed.message };
  const evidence: Evidence = { vector: { tcId: vector.tcId, requestTarget: vector.requestTarget }, expected: vector.expected, parsed: { ...got, all: parsed.all } };
  const problems: string[] = [];
  for (const name of ['transaction_id', 'status', 'message'] as const) {
    if (got[name] !== vector.expected[name]) problems.push(`${name}: expected ${JSON.stringify(vector.expected[name])}, got ${JSON.stringify(got[name])}`);
  }
  if (JSON.stringify(parsed.all) !== JSON.stringify(vector.all)) {
    problems.push(`all parameters: expected ${JSON.stringify(vector.all)}, got ${JSON.stringify(parsed.all)}`);
  }
  if (problems.length === 0) return { verdict: 'PASS', level, specRef, evidence };
  return { verdict: vector.result === 'acceptable' ? 'WARN' : 'FAIL', reason: problems.join('; '), level, specRef, evidence };
}
