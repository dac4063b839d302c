// The reference SDK behind the adapter line protocol (harness/sdk/README.md): read one request
// per line, call the SDK with the fields as JSON.parse made them (JavaScript's numbers), answer
// one line. The same code serves an in-process peer (the embedded default) and a command
// (`node bin/…`), as any SDK author's adapter would.
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import type { LinePeer } from '../line-protocol/index.ts';
import type { ReferenceSdkFault } from './faults.ts';
import { collect } from './sdk.ts';
import { transactionStatus } from './status.ts';

export interface ReferenceAdapterOptions {
  faults?: readonly ReferenceSdkFault[];
  /** The SDK's own time limit (default 1000 ms): below the target's answerDeadlineMs. */
  timeoutMs?: number;
}

export const REFERENCE_SDK_TIMEOUT_MS = 1000;

type RequestLine = { id: string; op: 'hello'; protocol?: number } | {
  id: string;
  baseUrl: string;
  credentials: { clientId: number; clientKey: string; secretKey: string };
} & ({ op: 'collect'; fields: Record<string, unknown> } | { op: 'status'; transaction_id: string });

/** Answers every request line of `input` on `output`, one at a time, until `input` ends. */
export async function serveReferenceAdapter(input: Readable, output: Writable, options: ReferenceAdapterOptions = {}): Promise<void> {
  const faults = new Set(options.faults ?? []);
  for await (const line of createInterface({ input, crlfDelay: Infinity })) {
    if (line.trim() === '') continue;
    const request = JSON.parse(line) as RequestLine;
    let answer: Record<string, unknown>;
    if (request.op === 'hello') {
      output.write(`${JSON.stringify(hello(request.id, faults))}\n`);
      continue;
    }
    const config = { baseUrl: request.baseUrl, ...request.credentials, timeoutMs: options.timeoutMs ?? REFERENCE_SDK_TIMEOUT_MS, faults };
    try {
      if (request.op === 'status' && (faults.has('status-not-implemented') || faults.has('protocol-1'))) throw new Error('this SDK has no transaction status call');
      const result = request.op === 'status' ? await transactionStatus(config, request.transaction_id) : await collect(config, request.fields);
      answer = { id: request.id, ...result };
    } catch (error) {
      answer = { id: request.id, error: error instanceof Error ? error.message : String(error) };
    }
    output.write(`${JSON.stringify(answer)}\n`);
  }
}

/**
 * Protocol 2's hello (harness/sdk/README.md): what the adapter supports and wraps. With the
 * protocol-1 fault it predates the hello: it reads the line as a collect request and fails on it.
 */
function hello(id: string, faults: ReadonlySet<ReferenceSdkFault>): Record<string, unknown> {
  if (faults.has('protocol-1')) return { id, error: 'the request has no fields' };
  return {
    id, protocol: 2,
    supports: faults.has('status-not-implemented') ? ['collect'] : ['collect', 'status'],
    implementation: { language: `JavaScript (Node.js ${process.versions.node})`, library: 'collect-conformance reference SDK', version: '1' },
  };
}

/** The reference adapter as an in-process peer of the line driver. */
export function referenceAdapterPeer(options: ReferenceAdapterOptions = {}): LinePeer {
  return async ({ input, output }) => {
    await serveReferenceAdapter(input, output, options);
    output.end();
  };
}
