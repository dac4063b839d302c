import { writeFileSync } from 'node:fs';
import { RECEIVER_CASES } from '../../harness/cases/index.ts';
import { runChecked } from '../../harness/preflight/index.ts';
import { diagnose } from '../../harness/diagnoses/index.ts';
import { startEmbeddedReceiver } from '../../harness/embedded/index.ts';
import { RECEIVER_FAULT_CATALOG } from './fault-catalog.ts';
import { CONFIRMING_TIMING, RECEIVER_TIMING } from './receiver-fault-check.ts';
const out: Record<string, unknown> = {};
const queue = [...RECEIVER_FAULT_CATALOG];
const t0 = performance.now();
async function one(e: (typeof queue)[number]) {
  const r = await startEmbeddedReceiver({ ...(e.timing ?? (e.confirms ? CONFIRMING_TIMING : RECEIVER_TIMING)), faults: [e.fault as never], ...(e.confirms ? { confirms: true } : {}) });
  try {
    const run = await runChecked({ cases: RECEIVER_CASES, target: r.target, seed: 4242 });
    const d = diagnose([{ preflight: run.preflight.preflight, results: run.results, unproven: run.unproven }]);
    out[e.fault] = { results: Object.fromEntries(run.results.filter((x) => x.verdict !== 'PASS').map((x) => [x.id, [x.verdict, x.reason]])), diagnoses: d.map((x) => [x.id, x.cases]), findings: run.preflight.preflight.findings.map((f) => f.id) };
  } finally { await r.close(); }
}
await Promise.all(Array.from({ length: Number(process.env.AT ?? 4) }, async () => { while (queue.length) await one(queue.shift()!); }));
writeFileSync(process.argv[2]!, JSON.stringify(out, null, 1));
console.log('wall', Math.round(performance.now() - t0));
