// A receiver the preflight meets where no fault switch of the reference receiver gives the
// answer a rule needs: a loopback server in front of an embedded receiver. Its test hooks pass
// through untouched (so the records are the reference receiver's, seeded and read as ever); each
// callback goes to `onCallback`, which may hand it on to the receiver (`pass`) and answer
// whatever it likes, or answer without the receiver ever seeing it.
import { createServer, request, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { EmbeddedReceiver } from '../../harness/embedded/index.ts';
import type { ResolvedReceiverTarget } from '../../harness/targets/index.ts';
import { listenOn, originOf } from '../../harness/tool/index.ts';
import { forwardTo } from '../support/throttle.ts';

export interface PassedAnswer { status: number; headers: IncomingHttpHeaders; body: string }

/** `pass()` sends the callback on to the receiver and resolves with its answer (not yet written back). */
export type CallbackHandler = (req: IncomingMessage, res: ServerResponse, pass: () => Promise<PassedAnswer>) => void;

export interface Front {
  /** The embedded receiver's target with the callbacks and hooks on this front (no hooks when `blackBox`). */
  target: ResolvedReceiverTarget;
  /** How many callbacks reached the front. */
  readonly callbacks: number;
  close(): Promise<void>;
}

function passTo(upstream: URL, req: IncomingMessage): Promise<PassedAnswer> {
  return new Promise((resolve, reject) => {
    const sent = request({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
      let body = '';
      answer.on('data', (c: Buffer) => { body += c.toString(); });
      answer.on('end', () => resolve({ status: answer.statusCode ?? 502, headers: answer.headers, body }));
    });
    sent.on('error', reject);
    req.pipe(sent);
  });
}

export interface FrontOptions {
  /** No hooks in the target: a black-box receiver. */
  blackBox?: boolean;
  /** Each test hook request; `forward()` hands it to the receiver's hooks as they are. */
  onHook?: (req: IncomingMessage, res: ServerResponse, forward: () => void) => void;
}

export async function startFront(receiver: EmbeddedReceiver, onCallback: CallbackHandler, options: FrontOptions = {}): Promise<Front> {
  const own = new URL(receiver.target.callbackUrl);
  const hooksPath = receiver.receiver.hooksUrl ? new URL(receiver.receiver.hooksUrl).pathname : undefined;
  let callbacks = 0;
  const server = createServer((req, res) => {
    if (hooksPath !== undefined && (req.url ?? '').startsWith(hooksPath)) {
      const forward = () => forwardTo(own, req, res);
      return options.onHook ? options.onHook(req, res, forward) : forward();
    }
    callbacks += 1;
    onCallback(req, res, () => passTo(own, req));
  });
  const origin = originOf(await listenOn(server, 0, '127.0.0.1'));
  const { observe, ...rest } = receiver.target;
  const swap = (url: string) => origin + url.slice(own.origin.length);
  return {
    target: {
      ...rest,
      callbackUrl: swap(receiver.target.callbackUrl),
      ...(!options.blackBox && observe?.kind === 'hooks' ? { observe: { kind: 'hooks', url: swap(observe.url) } } : {}),
    },
    get callbacks() {
      return callbacks;
    },
    close: () => new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }),
  };
}
