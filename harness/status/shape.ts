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
  | { kind: 'status'; status: StatusValue; transactionId?: string }
  /** 404, or a body saying it does not know the id. */
  | { kind: 'unknown-id'; httpStatus: number }
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

export function readStatusAnswer(httpStatus: number, body: string, endpoint: StatusEndpoint = STATUS_POSITION): StatusReading {
  if (httpStatus >= 500) return { kind: 'server-error', httpStatus };
  if (httpStatus === 404) return { kind: 'unknown-id', httpStatus };
  if (httpStatus < 200 || httpStatus > 299) return { kind: 'refused', httpStatus };
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return { kind: 'unreadable', httpStatus, why: 'the body is not JSON' };
  }
  const object = parsed !== null && typeof parsed === 'object' ? parsed as Record<string, unknown> : undefined;
  if (object && (object['success'] === false || (object['error_code'] !== undefined && object['error_code'] !== null))) {
    return object['error_code'] === 404 ? { kind: 'unknown-id', httpStatus } : { kind: 'refused', httpStatus };
  }
  const status = atPointer(parsed, endpoint.pointer);
  if (!isStatusValue(status)) {
    return { kind: 'unreadable', httpStatus, why: `${endpoint.pointer} holds ${status === undefined ? 'nothing' : JSON.stringify(status)}, not PENDING, SUCCESS or FAILED` };
  }
  const id = object?.['transaction_id'];
  return { kind: 'status', status, ...(typeof id === 'string' ? { transactionId: id } : {}) };
}

/** The answer bodies of the suite's position, for the endpoints the kit serves. */
export function statusAnswerBody(transactionId: string, status: StatusValue): string {
  return JSON.stringify({ success: true, transaction_id: transactionId, status });
}

export function unknownIdAnswerBody(transactionId: string): string {
  return JSON.stringify({ success: false, error_code: 404, error_message: `no transaction ${JSON.stringify(transactionId.slice(0, 80))}` });
}
