// Small HTTP helpers shared by the callback endpoint and the hooks.
import type { ServerResponse } from 'node:http';

export interface ErrorBody {
  error: { code: string; message: string };
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (res.headersSent || res.writableEnded) return;
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(text)),
    'cache-control': 'no-store',
    ...headers,
  });
  res.end(text);
}

export function errorBody(code: string, message: string): ErrorBody {
  return { error: { code, message } };
}
