// `npm run bench`: benchmarks, not tests. Each prints its numbers and ratios against a
// baseline measured in the same run, so a loaded machine slows both sides alike.
import { benchSigning } from './signing.bench.ts';
import { benchSimulator } from './simulator.bench.ts';
import { benchRun } from './run.bench.ts';
import { benchStartup } from './startup.bench.ts';
import { benchStorm } from './storm.bench.ts';

const only = process.argv[2];
const benches: Array<[name: string, run: () => Promise<void>]> = [
  ['signing', benchSigning],
  ['simulator', benchSimulator],
  ['startup', benchStartup],
  ['run', benchRun],
  ['storm', benchStorm],
];
for (const [name, run] of benches) {
  if (only && only !== name) continue;
  process.stdout.write(`\n== ${name} ==\n`);
  await run();
}
