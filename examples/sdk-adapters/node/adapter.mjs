// The collect-conformance adapter for collect-sdk.mjs: one JSON request per line on stdin, one
// JSON answer per line on stdout (the SDK adapter protocol, harness/sdk/README.md).
//   collect-conformance run --target examples/sdk-adapters/node/client.json
import { createInterface } from 'node:readline';
import { CollectClient, CollectError } from './collect-sdk.mjs';

for await (const line of createInterface({ input: process.stdin, crlfDelay: Infinity })) {
  if (line.trim() === '') continue;
  const request = JSON.parse(line);
  const client = new CollectClient({ baseUrl: request.baseUrl, ...request.credentials });
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
