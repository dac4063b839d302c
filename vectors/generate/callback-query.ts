// Builds vectors/callback-query.json from tables/callback-query.ts with harness/callback.
import { PARSE_ALTERNATIVES, parseCallbackQuery } from '../../harness/callback/index.ts';
import { CALLBACK_QUERY_HEADER, CALLBACK_QUERY_ROWS } from './tables/callback-query.ts';
import { assembleFile, checkRows } from './assemble.ts';
import type { CallbackQueryRow, CallbackQueryVector, VectorFile } from './types.ts';

export function buildCallbackQueryFile(): VectorFile<CallbackQueryVector> {
  checkRows('callback-query', CALLBACK_QUERY_ROWS, CALLBACK_QUERY_HEADER);
  return assembleFile(CALLBACK_QUERY_HEADER, CALLBACK_QUERY_ROWS.map(buildCallbackQueryVector));
}

export function buildCallbackQueryVector(row: CallbackQueryRow): CallbackQueryVector {
  if (row.requestTarget.includes('#')) throw new Error(`callback-query tcId ${row.tcId}: a request target has no fragment`);
  const parsed = parseCallbackQuery(row.requestTarget);
  const { transaction_id, status, message } = parsed;
  if (transaction_id === undefined || status === undefined || message === undefined) {
    throw new Error(`callback-query tcId ${row.tcId}: the suite's parser does not find all three parameters`);
  }
  const expected = { transaction_id, status, message };
  const alternatives: CallbackQueryVector['alternatives'] = [];
  for (const alternative of PARSE_ALTERNATIVES) {
    const found = alternative.parse(row.requestTarget);
    // A parameter that parser does not find is null in the vector.
    const other = { transaction_id: found.transaction_id ?? null, status: found.status ?? null, message: found.message ?? null };
    if (other.transaction_id !== transaction_id || other.status !== status || other.message !== message) {
      alternatives.push({ label: alternative.label, expected: other });
    }
  }
  return {
    tcId: row.tcId,
    comment: row.comment,
    flags: row.flags,
    specRef: row.specRef,
    requestTarget: row.requestTarget,
    expected,
    all: parsed.all.map(([n, v]) => [n, v]),
    alternatives,
    result: row.result,
  };
}
