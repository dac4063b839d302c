// Shared by the signer-protocol suites: where the fixture signers live, and a runner that
// drives one over the line protocol and returns verdicts by case id.
import { fileURLToPath } from 'node:url';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ExternalSigner, runVectors, PACKAGE_VECTORS_DIR, type ExternalSignerOptions } from '../../harness/vectors/index.ts';
import type { CaseResult } from '../../harness/results/index.ts';

export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const FIXTURES = fileURLToPath(new URL('./fixtures/', import.meta.url));

/** `node <fixture> args…` as a shell command (paths quoted for sh). */
export function fixtureCommand(name: string, ...args: string[]): string {
  return ['node', join(FIXTURES, name), ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
}

export const REAL_VECTORS_PRESENT = existsSync(join(PACKAGE_VECTORS_DIR, 'signature.json'));

export interface SignerRun {
  results: CaseResult[];
  byId: Map<string, CaseResult>;
  signer: ExternalSigner;
}

export async function runSigner(command: string, dir: string | undefined, options: ExternalSignerOptions = {}): Promise<SignerRun> {
  const signer = new ExternalSigner(command, { timeoutMs: 3000, ...options });
  try {
    const results = await runVectors({ signer, files: ['signature'], ...(dir === undefined ? {} : { dir }) });
    return { results, byId: new Map(results.map((r) => [r.id, r])), signer };
  } finally {
    await signer.close();
  }
}
