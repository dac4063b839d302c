// The fault table of docs/faults.md: every fault switch of the three reference implementations
// and the case that catches it, generated from the catalogs the self-tests run, never written by
// hand. `npm run docs:faults` rewrites the block in docs/faults.md; faults-doc.test.ts checks it.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { RECEIVER_FAULTS } from '../../harness/receiver/index.ts';
import { SIMULATOR_FAULTS } from '../../harness/simulator/index.ts';
import { CLIENT_CASES, RECEIVER_CASES, SERVICE_CASES } from '../../harness/cases/index.ts';
import { REFERENCE_SDK_FAULTS } from '../../harness/reference-sdk/index.ts';
import { CLIENT_FAULT_CATALOG } from './client-fault-catalog.ts';
import { caughtVerdict, RECEIVER_FAULT_CATALOG } from './fault-catalog.ts';
import { SERVICE_FAULT_CATALOG } from './service-fault-catalog.ts';
import { STORM_FAULT_CATALOG } from './storm-fault-catalog.ts';

export const FAULTS_DOC_PATH = fileURLToPath(new URL('../../docs/faults.md', import.meta.url));
export const TABLE_START = '<!-- fault-table:start (generated from suites/self-test/*fault-catalog.ts by `npm run docs:faults`) -->';
export const TABLE_END = '<!-- fault-table:end -->';

interface Row { side: 'service' | 'receiver' | 'client'; fault: string; caseIds: readonly string[]; expect: 'FAIL' | 'WARN'; mode?: string; skips?: readonly string[] }

const LEVELS = new Map([...RECEIVER_CASES, ...SERVICE_CASES, ...CLIENT_CASES].map((c) => [c.id, c.level]));

/** `FAIL`, or `FAIL; WARN for x` when some listed cases are SHOULD. */
function verdictCell(row: Row): string {
  // A fault no case catches but whose cases are not exercised (an SDK without a status call).
  if (row.caseIds.length === 0) return 'SKIP (not exercised)';
  const verdicts = row.caseIds.map((id) => caughtVerdict(row.expect, LEVELS.get(id) ?? 'MUST'));
  const distinct = [...new Set(verdicts)];
  if (distinct.length === 1) return distinct[0]!;
  const warned = row.caseIds.filter((_, i) => verdicts[i] === 'WARN').map((id) => `\`${id}\``);
  return `FAIL; WARN (SHOULD) for ${warned.join(', ')}`;
}

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

export function faultTable(): string {
  const info = new Map<string, { description: string; specRef: string }>([
    ...SIMULATOR_FAULTS.map((f) => [`service:${f.name}`, f] as const),
    ...RECEIVER_FAULTS.map((f) => [`receiver:${f.name}`, f] as const),
    ...REFERENCE_SDK_FAULTS.map((f) => [`client:${f.name}`, f] as const),
  ]);
  const storm: Row[] = STORM_FAULT_CATALOG.map((e) => ({ ...e, mode: 'storm' }));
  const rows: Row[] = [...SERVICE_FAULT_CATALOG, ...RECEIVER_FAULT_CATALOG, ...storm, ...CLIENT_FAULT_CATALOG];
  const lines = rows.map((row) => {
    const about = info.get(`${row.side}:${row.fault}`);
    const fault = `\`${row.fault}\`${row.mode === 'production' ? ' (production)' : row.mode === 'storm' ? ' (passes run; caught by storm)' : ''}`;
    const cases = row.caseIds.length > 0 ? row.caseIds.map((id) => `\`${id}\``).join(', ') : (row.skips ?? []).map((id) => `\`${id}\``).join(', ');
    return `| ${row.side} | ${fault} | ${cell(about?.description ?? '')} | ${cell(about?.specRef ?? '')} | ${cases} | ${verdictCell(row)} |`;
  });
  return ['| side | fault switch | what the faulty target does | rule | caught by | verdict |', '|---|---|---|---|---|---|', ...lines].join('\n');
}

/** The page's text with its generated block replaced by the current table. */
export function withFaultTable(page: string): string {
  const start = page.indexOf(TABLE_START);
  const end = page.indexOf(TABLE_END);
  if (start === -1 || end < start) throw new Error(`docs/faults.md has no ${TABLE_START} … ${TABLE_END} block`);
  return `${page.slice(0, start + TABLE_START.length)}\n${faultTable()}\n${page.slice(end)}`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(FAULTS_DOC_PATH, withFaultTable(readFileSync(FAULTS_DOC_PATH, 'utf8')));
  process.stdout.write('docs/faults.md fault table regenerated\n');
}
