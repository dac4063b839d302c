// Builds vectors/callback-url.json from tables/callback-url.ts with harness/callback.
import { COMPOSE_ALTERNATIVES, composeCallbackUrl } from '../../harness/callback/index.ts';
import { requestTargetOf } from '../../harness/vectors/index.ts';
import { CALLBACK_URL_HEADER, CALLBACK_URL_ROWS } from './tables/callback-url.ts';
import { assembleFile, checkRows } from './assemble.ts';
import type { CallbackUrlRow, CallbackUrlVector, VectorFile } from './types.ts';

export function buildCallbackUrlFile(): VectorFile<CallbackUrlVector> {
  checkRows('callback-url', CALLBACK_URL_ROWS, CALLBACK_URL_HEADER);
  return assembleFile(CALLBACK_URL_HEADER, CALLBACK_URL_ROWS.map(buildCallbackUrlVector));
}

export function buildCallbackUrlVector(row: CallbackUrlRow): CallbackUrlVector {
  const url = composeCallbackUrl(row.callbackUrl, row.params);
  const alternatives: CallbackUrlVector['alternatives'] = [];
  for (const alternative of COMPOSE_ALTERNATIVES) {
    const other = alternative.compose(row.callbackUrl, row.params);
    if (other !== url) alternatives.push({ label: alternative.label, url: other });
  }
  return {
    tcId: row.tcId,
    comment: row.comment,
    flags: row.flags,
    specRef: row.specRef,
    callbackUrl: row.callbackUrl,
    params: { transaction_id: row.params.transaction_id, status: row.params.status, message: row.params.message },
    url,
    requestTarget: requestTargetOf(url),
    alternatives,
    result: row.result,
  };
}
