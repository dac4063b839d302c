// The reference SDK's one way onto the wire, for its collect and its status calls: a request
// with the SDK's own time limit, and the answer's body read as a JSON object where it is one.
import { request } from 'undici';

export interface SdkAnswer {
  status: number;
  text: string;
  /** The body, when it is a JSON object; otherwise only the status code speaks. */
  json?: Record<string, unknown>;
}

/** The answer, or 'timeout' when none came within `timeoutMs`; any other failure is thrown, worded for the SDK's caller. */
export async function sendRequest(
  url: string,
  init: { method: 'GET' | 'POST' | 'PUT'; headers: Record<string, string | string[]>; body?: string },
  timeoutMs: number,
): Promise<SdkAnswer | 'timeout'> {
  try {
    const response = await request(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
    const text = await response.body.text();
    const json = jsonObject(text);
    return { status: response.statusCode, text, ...(json ? { json } : {}) };
  } catch (error) {
    const name = (error as Error).name;
    if (name === 'TimeoutError' || name === 'AbortError') return 'timeout';
    throw new Error(`request failed: ${(error as Error).message}`);
  }
}

function jsonObject(text: string): Record<string, unknown> | undefined {
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? parsed as Record<string, unknown> : undefined;
  } catch {
    return undefined;
  }
}
