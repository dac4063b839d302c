// The one reader of a request body our servers receive (the simulator, the receiver's hooks,
// the SDK's service end): the first `limit` bytes kept, the rest drained (so the client reads
// our answer) up to `drainCap`, and a body beyond that cut off without reading further.
import type { IncomingMessage } from 'node:http';

export interface BodyLimits {
  /** The bytes kept; a longer body is `too-large` and keeps its first `limit` bytes as `head`. */
  limit: number;
  /** The bytes read before a body is `cut-off` (also by its Content-Length); default max(16 × limit, 1 MiB); `Infinity` drains all. */
  drainCap?: number;
}

export type BodyRead =
  | { kind: 'ok'; bytes: Buffer }
  | { kind: 'too-large'; received: number; head: Buffer }
  /** So large that draining it is not worth it: answer 413 and close the connection. */
  | { kind: 'cut-off'; received: number }
  /** The client went away (or the stream failed) before the end. */
  | { kind: 'aborted'; received: number };

export function readBody(req: IncomingMessage, { limit, drainCap = Math.max(limit * 16, 1024 * 1024) }: BodyLimits): Promise<BodyRead> {
  const declared = Number(req.headers['content-length'] ?? NaN);
  if (Number.isFinite(declared) && declared > drainCap) {
    req.pause();
    return Promise.resolve({ kind: 'cut-off', received: 0 });
  }
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let kept = 0;
    let received = 0;
    let settled = false;
    const settle = (result: BodyRead) => {
      if (settled) return;
      settled = true;
      resolve(result);
    };
    req.on('data', (chunk: Buffer) => {
      if (settled) return;
      received += chunk.length;
      if (kept < limit) {
        const piece = chunk.length <= limit - kept ? chunk : chunk.subarray(0, limit - kept);
        chunks.push(piece);
        kept += piece.length;
      }
      if (received > drainCap) {
        req.pause();
        settle({ kind: 'cut-off', received });
      }
    });
    req.on('end', () => {
      const bytes = Buffer.concat(chunks, kept);
      settle(received > limit ? { kind: 'too-large', received, head: bytes } : { kind: 'ok', bytes });
    });
    req.on('error', () => settle({ kind: 'aborted', received }));
    req.on('close', () => settle({ kind: 'aborted', received }));
  });
}
