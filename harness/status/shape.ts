// §4.2 Transaction status, as the suite takes it (DESIGN.md "Transaction status (§4.2) on every
// side"; interpretive: the spec shows only that the endpoint exists). The position, from the
// real service's clients: POST {base_url}/api/v1.0/transaction_status/ with the JSON body
// {"transaction_id", "client_id"}, signed exactly as collect (§5); answered
// {"success": true, "transaction_id", "status": "PENDING" | "SUCCESS" | "FAILED"}; an id the
// service does not know, 404 {"success": false, "error_code": 404, "error_message"}. A target
// file may state another method, path or answer pointer. One definition for every side: the
// reference service answers it, service cases query it, the harness's own endpoint
// (receiver.confirm) serves it, the reference SDK and the client cases call and judge it.
import { signBody } from '../signing/index.ts';

export type StatusValue = 'PENDING' | 'SUCCESS' | 'FAILED';
export const STATUS_VALUES: readonly StatusValue[] = ['PENDING', 'SUCCESS', 'FAILED'];

/** One of the three statuses, exactly as spelled (§3). */
export function isStatusValue(value: unknown): value is StatusValue {
  return (STATUS_VALUES as readonly unknown[]).includes(value);
}

/**
 * The two forms of a status answer the evidence shows (harness/positions: status.answer-values,
 * status.unknown-id): the letter case of the values, and how an unknown id is answered. The
 * kit reads both; the reference service answers in REFERENCE_STATUS_FORM.
 */
export type LetterCase = 'upper' | 'lower';
export type UnknownIdForm = 404 | 421;
export interface StatusForm {
  letterCase: LetterCase;
  unknownId: UnknownIdForm;
}
export const LETTER_CASES: readonly LetterCase[] = ['upper', 'lower'];
export const UNKNOWN_ID_FORMS: readonly UnknownIdForm[] = [404, 421];

/** What the best evidence says the real service answers: lower case, 421 for an unknown id (harness/positions says why). */
export const REFERENCE_STATUS_FORM: Readonly<StatusForm> = { letterCase: 'lower', unknownId: 421 };

/** A status value in a letter case: `SUCCESS`, `success`. */
export function spell(status: StatusValue, letterCase: LetterCase): string {
  return letterCase === 'upper' ? status : status.toLowerCase();
}

/** A status value read without regard to letter case, and the case it came in (`mixed`: `Success`). */
export function readStatusValue(value: unknown): { status: StatusValue; letterCase: LetterCase | 'mixed' } | undefined {
  if (typeof value !== 'string') return undefined;
  const status = STATUS_VALUES.find((v) => v === value.toUpperCase());
  if (!status) return undefined;
  return { status, letterCase: value === status ? 'upper' : value === status.toLowerCase() ? 'lower' : 'mixed' };
}

/** Where and how the status endpoint is reached, and where its answer holds the status. */
export interface StatusEndpoint {
  method: 'POST' | 'GET';
  /** Under the base URL, e.g. `/api/v1.0/transaction_status/`. */
  path: string;
  /** JSON pointer (RFC 6901) into the answer body to the status value. */
  pointer: string;
}

export const STATUS_POSITION: Readonly<StatusEndpoint> = {
  method: 'POST',
  path: '/api/v1.0/transaction_status/',
  pointer: '/status',
};

/** The body of a status query, as the suite's position writes it (the bytes that are signed). */
export function statusQueryBody(transactionId: string, clientId: number): string {
  return JSON.stringify({ transaction_id: transactionId, client_id: clientId });
}

export interface StatusQuery {
  method: StatusEndpoint['method'];
  url: string;
  headers: Record<string, string>;
  /** Absent for a GET: its parameters go in the query, and the signature is over them as a JSON body would carry them. */
  body?: string;
}

/**
 * A correctly signed status query: the body signed exactly as a collect (§5.1), the
 * Authorization header of §5.2. For a GET endpoint the same pairs go in the query string and the
 * signature is over the JSON body the pairs would make.
 */
export function signedStatusQuery(options: {
  baseUrl: string;
  endpoint?: StatusEndpoint;
  transactionId: string;
  clientId: number;
  clientKey: string;
  secretKey: string;
}): StatusQuery {
  const endpoint = options.endpoint ?? STATUS_POSITION;
  const body = statusQueryBody(options.transactionId, options.clientId);
  const { authorization } = signBody(body, options.secretKey, { clientKey: options.clientKey });
  const base = options.baseUrl.replace(/\/+$/, '') + endpoint.path;
  const headers: Record<string, string> = { authorization: authorization! };
  if (endpoint.method === 'GET') {
    const query = new URLSearchParams({ transaction_id: options.transactionId, client_id: String(options.clientId) });
    return { method: 'GET', url: `${base}${base.includes('?') ? '&' : '?'}${query}`, headers };
  }
  headers['content-type'] = 'application/json';
  return { method: 'POST', url: base, headers, body };
}

/** What a status answer says, read by the suite's position (or the target's pointer). */
export type StatusReading =
  /** `letterCase`: how the value was spelled (both are read). */
  | { kind: 'status'; status: StatusValue; transactionId?: string; letterCase: LetterCase | 'mixed' }
  /** 404, or a body saying it does not know the id (`error_code` 404, or 421 with `success: false`); `form`: which. */
  | { kind: 'unknown-id'; httpStatus: number; form?: UnknownIdForm }
  /** A refusal (4xx other than 404, or 2xx with success false / an error_code). */
  | { kind: 'refused'; httpStatus: number }
  | { kind: 'server-error'; httpStatus: number }
  /** 2xx, but no status value where the pointer says (or one outside the three). */
  | { kind: 'unreadable'; httpStatus: number; why: string };

/** Follows an RFC 6901 pointer; undefined where it leads nowhere. */
export function atPointer(value: unknown, pointer: string): unknown {
  if (pointer === '') return value;
  let here: unknown = value;
  for (const raw of pointer.replace(/^\//, '').split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (here === null || typeof here !== 'object') return undefined;
    here = (here as Record<string, unknown>)[key];
  }
  return here;
}

/** The body's own word that it does not know the id: `error_code` 404, or 421 beside `success: false`. */
export function unknownIdInBody(object: Record<string, unknown> | undefined): UnknownIdForm | undefined {
  if (!object) return undefined;
  const code = object['error_code'];
  if (code === 404 || code === '404') return 404;
  if ((code === 421 || code === '421') && object['success'] === false) return 421;
  return undefined;
}

function objectOf(body: string): Record<string, unknown> | undefined {
  try {
    const parsed: unknown = JSON.parse(body);
    return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? parsed as Record<string, unknown> : undefined;
  } catch {
    return undefined;
  }
}

/** A status value at `pointer`, read case-insensitively (both forms of the evidence). */
export function statusAt(parsed: unknown, pointer: string): StatusReading | { kind: 'none'; why: string } {
  const value = atPointer(parsed, pointer);
  const read = readStatusValue(value);
  if (!read) return { kind: 'none', why: `${pointer} holds ${value === undefined ? 'nothing' : JSON.stringify(value)}, not PENDING, SUCCESS or FAILED (in either letter case)` };
  const id = atPointer(parsed, '/transaction_id');
  return { kind: 'status', status: read.status, letterCase: read.letterCase, ...(typeof id === 'string' ? { transactionId: id } : {}) };
}

export function readStatusAnswer(httpStatus: number, body: string, endpoint: StatusEndpoint = STATUS_POSITION): StatusReading {
  if (httpStatus >= 500) return { kind: 'server-error', httpStatus };
  const object = objectOf(body);
  if (httpStatus === 404) return { kind: 'unknown-id', httpStatus, form: 404 };
  const unknown = unknownIdInBody(object);
  if (unknown !== undefined) return { kind: 'unknown-id', httpStatus, form: unknown };
  if (httpStatus < 200 || httpStatus > 299) return { kind: 'refused', httpStatus };
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return { kind: 'unreadable', httpStatus, why: 'the body is not JSON' };
  }
  if (object && (object['success'] === false || (object['error_code'] !== undefined && object['error_code'] !== null))) {
    return { kind: 'refused', httpStatus };
  }
  const read = statusAt(parsed, endpoint.pointer);
  return read.kind === 'none' ? { kind: 'unreadable', httpStatus, why: read.why } : read;
}

/** The answer bodies of the suite's position, for the endpoints the kit serves: the status in `letterCase` (default upper). */
export function statusAnswerBody(transactionId: string, status: StatusValue, letterCase: LetterCase = 'upper'): string {
  return JSON.stringify({ success: true, transaction_id: transactionId, status: spell(status, letterCase) });
}

/** The 404 form of the unknown-id answer. */
export function unknownIdAnswerBody(transactionId: string): string {
  return unknownIdAnswer(transactionId, 404).body;
}

/**
 * The unknown-id answer in either form: `404 {"success": false, "error_code": 404, …}`, or
 * `{"success": false, "error_code": 421, …}` answered HTTP 200 (the real client reads only the
 * body; which HTTP status the real service sends with it is not known: 200 is a guess, and the
 * kit reads the 421 under any status below 500).
 */
export function unknownIdAnswer(transactionId: string, form: UnknownIdForm): { httpStatus: number; body: string } {
  const body = JSON.stringify({ success: false, error_code: form, error_message: `no transaction ${JSON.stringify(transactionId.slice(0, 80))}` });
  return { httpStatus: form === 404 ? 404 : 200, body };
}

/** A form in words, for a report: `lower-case values, unknown id 421`. */
export function describeForm(form: Partial<StatusForm>): string {
  const parts = [
    ...(form.letterCase ? [`${form.letterCase}-case values (${spell('SUCCESS', form.letterCase)})`] : []),
    ...(form.unknownId ? [`an unknown id as ${form.unknownId === 404 ? 'HTTP 404' : '"error_code": 421 with "success": false'}`] : []),
  ];
  return parts.join(', ');
}
