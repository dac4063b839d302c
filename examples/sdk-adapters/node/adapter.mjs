// The collect-conformance adapter for collect-sdk.mjs: one JSON request per line on stdin, one
// JSON answer per line on stdout (the SDK adapter protocol, version 2, harness/sdk/README.md). The
// first line is the harness's hello: answered with what this adapter supports and wraps.
//   collect-conformance run --target examples/sdk-adapters/node/client.json
// COLLECT_SDK_TIMEOUT_MS sets the SDK's own time limit (default 2000 ms), as an application
// configures its SDK: 10000 is as long as the target file's answerDeadlineMs, and still PASSes.
import { createInterface } from 'node:readline';
import { CollectClient, CollectError } from './collect-sdk.mjs';

const timeout = process.env.COLLECT_SDK_TIMEOUT_MS ? { timeoutMs: Number(process.env.COLLECT_SDK_TIMEOUT_MS) } : {};

for await (const line of createInterface({ input: process.stdin, crlfDelay: Infinity })) {
  if (line.trim() === '') continue;
  const request = JSON.parse(line);
  if (request.op === 'hello') {
    const implementation = { language: `JavaScript (Node.js ${process.versions.node})`, library: 'collect-sdk.mjs (example)', version: '1.0.0' };
    process.stdout.write(`${JSON.stringify({ id: request.id, protocol: 2, supports: ['collect', 'status'], implementation })}\n`);
    continue;
  }
  const client = new CollectClient({ baseUrl: request.baseUrl, ...request.credentials, ...timeout });
  let answer;
  try {
    const result = request.op === 'status' ? await client.transactionStatus(request.transaction_id) : await client.collect(request.fields);
    answer = { id: request.id, ...result };
  } catch (error) {
    if (!(error instanceof CollectError)) throw error;
    answer = { id: request.id, error: error.message };
  }
  process.stdout.write(`${JSON.stringify(answer)}\n`);
}
