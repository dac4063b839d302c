// DESIGN.md "rejected/accepted": the status codes and bodies of the service's answers are not
// specified (§4.1, §7), so an answer counts as accepted when it is 2xx and its body does not say
// `"success": false`; anything else is a rejection candidate. (A candidate becomes a rejection
// once no callback for it arrives within timing.callbackTimeoutMs; the cases check that.)

export type Judgement =
  | 'accepted'
  | 'rejected-candidate'
  /** No HTTP answer at all: refused, reset, timed out. */
  | 'no-answer';

export function parseJsonOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** True when the body is a JSON object whose `success` is the boolean `false`. */
export function saysSuccessFalse(bodyText: string): boolean {
  const json = parseJsonOrUndefined(bodyText);
  return typeof json === 'object' && json !== null && !Array.isArray(json) && (json as { success?: unknown }).success === false;
}

export function judgeAnswer(status: number, bodyText: string): Exclude<Judgement, 'no-answer'> {
  if (status < 200 || status > 299) return 'rejected-candidate';
  return saysSuccessFalse(bodyText) ? 'rejected-candidate' : 'accepted';
}
