// The small clients the pacts describe: a collect client that signs with the canonical signer
// (§5), and the service's callback sender that composes the URL with the canonical composer (§6).
// Consumer tests drive them against Pact's mock server; provider states reuse them to set up
// transactions on a real provider.
import { fetch } from 'undici';
import { signBody } from '../signing/index.ts';
import { composeCallbackUrl, type CallbackParams } from '../callback/index.ts';
import type { CollectFields } from '../client/index.ts';

/** The collect body of §2.1 as the pacts name it: the client's `CollectFields`. */
export type CollectBody = CollectFields;

export interface StatusBody {
  client_id: number;
  transaction_id: string;
}

export interface SigningCredentials {
  clientKey: string;
  secretKey: string;
}

export interface HttpAnswer {
  status: number;
  /** Parsed JSON when the answer is JSON, else the text. */
  body: unknown;
}

/** POSTs `body` as JSON, signed over exactly the bytes sent (§5.1, §5.2). */
export async function postSigned(
  baseUrl: string,
  path: string,
  body: CollectBody | StatusBody,
  credentials: SigningCredentials,
  signal?: AbortSignal,
): Promise<HttpAnswer> {
  const raw = JSON.stringify(body);
  const { authorization } = signBody(raw, credentials.secretKey, { clientKey: credentials.clientKey });
  const response = await fetch(joinUrl(baseUrl, path), {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: authorization! },
    body: raw,
    ...(signal ? { signal } : {}),
  });
  return { status: response.status, body: await readBody(response) };
}

export interface CallbackDelivery {
  /** The callback_url as the client supplied it. */
  callbackUrl: string;
  params: CallbackParams;
  /** Sent as X-Callback-Token; absent when undefined. */
  token?: string;
}

/** One callback delivery as the service makes it: GET to the composed URL (§4.3, §6). */
export async function sendCallback(delivery: CallbackDelivery, signal?: AbortSignal): Promise<HttpAnswer> {
  const headers: Record<string, string> = {};
  if (delivery.token !== undefined) headers['x-callback-token'] = delivery.token;
  const response = await fetch(composeCallbackUrl(delivery.callbackUrl, delivery.params), {
    method: 'GET',
    headers,
    ...(signal ? { signal } : {}),
  });
  return { status: response.status, body: await readBody(response) };
}

async function readBody(response: { text(): Promise<string> }): Promise<unknown> {
  const text = await response.text();
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** Appends an absolute path to a base URL that may carry a path prefix of its own. */
export function joinUrl(baseUrl: string, path: string): string {
  return `${baseUrl.replace(/\/+$/, '')}${path}`;
}
