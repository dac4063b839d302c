// DESIGN.md "rejected/accepted": the status codes and bodies of the service's answers are not
// specified (§4.1, §7), so an answer is a rejection candidate when it is not 2xx, or is 2xx
// with a JSON body that says so: by default `"success": false` or a non-null `error_code` (the
// shape the real service's clients check). A target file may state another shape
// (`rejection`, a list of rules). A candidate becomes a rejection once no callback for it
// arrives within timing.callbackTimeoutMs; the cases check that.

export type Judgement =
  | 'accepted'
  | 'rejected-candidate'
  /** No HTTP answer at all: refused, reset, timed out. */
  | 'no-answer';

/**
 * One way a 2xx body says "rejected": the JSON value at `pointer` (RFC 6901) exists and is one
 * of `in`, or exists and is none of `notIn`. Values compare as JSON (`false`, `410`, `"error"`).
 */
export type RejectionRule =
  | { pointer: string; in: readonly unknown[] }
  | { pointer: string; notIn: readonly unknown[] };

/** DESIGN.md's default: `success` is `false`, or `error_code` is present and not null. */
export const DEFAULT_REJECTION: readonly RejectionRule[] = Object.freeze([
  { pointer: '/success', in: [false] },
  { pointer: '/error_code', notIn: [null] },
]);

export interface AnswerJudgement {
  judgement: Exclude<Judgement, 'no-answer'>;
  /** What made it a rejection candidate, as observed: `HTTP 403`, `HTTP 200 with error_code 410`. */
  because?: string;
  /** A 2xx answer's body rule that made it one, as observed (`error_code 410`). */
  rule?: string;
}

export function parseJsonOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** The value at an RFC 6901 pointer, or `{found: false}`. */
export function atPointer(document: unknown, pointer: string): { found: true; value: unknown } | { found: false } {
  if (pointer === '') return { found: true, value: document };
  let here = document;
  for (const raw of pointer.slice(1).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(here) && /^(0|[1-9]\d*)$/.test(key) && Number(key) < here.length) here = here[Number(key)];
    else if (typeof here === 'object' && here !== null && !Array.isArray(here) && Object.hasOwn(here, key)) here = (here as Record<string, unknown>)[key];
    else return { found: false };
  }
  return { found: true, value: here };
}

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** The first rule a parsed body meets, described as observed (`error_code 410`). */
export function ruleMet(json: unknown, rules: readonly RejectionRule[]): string | undefined {
  for (const rule of rules) {
    const at = atPointer(json, rule.pointer);
    if (!at.found) continue;
    const hit = 'in' in rule ? rule.in.some((v) => sameJson(v, at.value)) : !rule.notIn.some((v) => sameJson(v, at.value));
    if (hit) return `${rule.pointer.slice(1) || 'the body'} ${JSON.stringify(at.value)}`;
  }
  return undefined;
}

/** True when the body is a JSON object whose `success` is the boolean `false`. */
export function saysSuccessFalse(bodyText: string): boolean {
  return ruleMet(parseJsonOrUndefined(bodyText), [{ pointer: '/success', in: [false] }]) !== undefined;
}

export function judgeAnswerWhy(status: number, bodyText: string, rules: readonly RejectionRule[] = DEFAULT_REJECTION): AnswerJudgement {
  if (status < 200 || status > 299) return { judgement: 'rejected-candidate', because: `HTTP ${status}` };
  const met = ruleMet(parseJsonOrUndefined(bodyText), rules);
  return met === undefined ? { judgement: 'accepted' } : { judgement: 'rejected-candidate', because: `HTTP ${status} with ${met}`, rule: met };
}

export function judgeAnswer(status: number, bodyText: string, rules?: readonly RejectionRule[]): Exclude<Judgement, 'no-answer'> {
  return judgeAnswerWhy(status, bodyText, rules).judgement;
}
