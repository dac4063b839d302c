// Targets that fail the way real ones do on a bad day, on loopback: a service or receiver that
// hangs, resets, answers garbage, dies after its first answer, answers a gigabyte, or drips its
// answer one byte at a time. Raw TCP, so each behaves exactly as described (no framework
// finishing an answer for it). Every loop is bounded in count and time.
import { randomBytes } from 'node:crypto';
import { createConnection, createServer, type Server, type Socket } from 'node:net';

export type Behaviour = 'hang' | 'reset' | 'garbage' | 'dies' | 'huge' | 'drip';

export interface HostileOptions {
  /** `drip`: one byte every `dripEveryMs`, `dripBytes` bytes in all (the body's length). */
  dripEveryMs?: number;
  dripBytes?: number;
  /** `huge`: the Content-Length announced and streamed (default 1 GiB). */
  hugeBytes?: number;
}

export interface HostileServer {
  url: string;
  /** Connections that sent at least one byte (the probe's bare connect does not count). */
  requests(): number;
  close(): Promise<void>;
}

const JSON_OK = '{"success": true, "status": "PENDING", "message": "ok"}';

function head(status: string, length: number, type = 'application/json'): string {
  return `HTTP/1.1 ${status}\r\ncontent-type: ${type}\r\ncontent-length: ${length}\r\nconnection: close\r\n\r\n`;
}

export async function startHostile(behaviour: Behaviour, options: HostileOptions = {}): Promise<HostileServer> {
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  let requests = 0;
  let server: Server;
  let dead = false;

  const die = () => {
    if (dead) return;
    dead = true;
    server.close();
    for (const s of sockets) s.destroy();
  };

  const onRequest = (socket: Socket) => {
    requests++;
    switch (behaviour) {
      case 'hang':
        return; // Read, never answer, never close.
      case 'reset':
        socket.resetAndDestroy();
        return;
      case 'garbage':
        // Not HTTP: no status line, random bytes, then the end.
        socket.end(Buffer.concat([Buffer.from('\u0000\u00ff garbage '), randomBytes(512)]));
        return;
      case 'dies':
        // One proper answer, then the process is gone: nothing listens any more.
        socket.end(head('200 OK', Buffer.byteLength(JSON_OK)) + JSON_OK, die);
        return;
      case 'huge': {
        const total = options.hugeBytes ?? 1024 ** 3;
        socket.write(head('200 OK', total, 'text/plain'));
        const chunk = Buffer.alloc(64 * 1024, 'x');
        let sent = 0;
        // Bounded: stops at `total` bytes or when the reader goes away, and waits on backpressure.
        const pump = () => {
          while (sent < total && !socket.destroyed) {
            const n = Math.min(chunk.length, total - sent);
            sent += n;
            if (!socket.write(n === chunk.length ? chunk : chunk.subarray(0, n))) return void socket.once('drain', pump);
          }
          if (!socket.destroyed) socket.end();
        };
        pump();
        return;
      }
      case 'drip': {
        const bytes = options.dripBytes ?? 1000;
        const every = options.dripEveryMs ?? 100;
        socket.write(head('200 OK', bytes, 'text/plain'));
        let sent = 0;
        const timer = setInterval(() => {
          if (socket.destroyed || sent >= bytes) {
            clearInterval(timer);
            timers.delete(timer);
            if (!socket.destroyed) socket.end();
            return;
          }
          socket.write('.');
          sent++;
        }, every);
        timers.add(timer);
        return;
      }
    }
  };

  server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    socket.once('data', () => onRequest(socket));
  });
  return listening(server, sockets, () => requests, () => {
    for (const t of timers) clearInterval(t);
    return dead;
  });
}

/**
 * A correct service that is unlike the reference in one way: it drops connections from sources
 * it does not whitelist at the network (a reset before any HTTP), as a firewall would, and
 * passes the others through to `upstream`.
 */
export async function startFirewall(upstream: URL, blocked: string): Promise<HostileServer> {
  const sockets = new Set<Socket>();
  let requests = 0;
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    const from = (socket.remoteAddress ?? '').replace(/^::ffff:/, '');
    if (from === blocked) {
      socket.once('data', () => {
        requests++;
        socket.resetAndDestroy();
      });
      return;
    }
    socket.once('data', () => requests++);
    const out = createConnection(Number(upstream.port), upstream.hostname);
    sockets.add(out);
    out.on('close', () => sockets.delete(out));
    out.on('error', () => socket.destroy());
    socket.pipe(out).pipe(socket);
  });
  return listening(server, sockets, () => requests, () => false);
}

/** Listens on 127.0.0.1:0; close() ends every connection (`stop` returns true when the server already closed itself). */
async function listening(server: Server, sockets: Set<Socket>, requests: () => number, stop: () => boolean): Promise<HostileServer> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    async close() {
      const closed = stop();
      for (const s of sockets) s.destroy();
      if (!closed) await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
