// Comparing a freshly generated pact file with the committed copy. Only the fields that vary
// with the installed Pact versions are dropped; everything else (interactions, matching rules,
// generators, examples) must be equal.
import { readFile, writeFile, mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { isDeepStrictEqual } from 'node:util';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Drops `metadata.pactRust` / `metadata.pactJs` (tool versions) and orders interactions. */
export function normalisePact(pact: unknown): Json {
  const copy = JSON.parse(JSON.stringify(pact)) as { [key: string]: Json };
  const metadata = copy['metadata'];
  if (metadata && typeof metadata === 'object' && !Array.isArray(metadata)) {
    delete metadata['pactRust'];
    delete metadata['pactJs'];
    delete metadata['pact-js'];
  }
  const interactions = copy['interactions'];
  if (Array.isArray(interactions)) {
    interactions.sort((a, b) => interactionKey(a).localeCompare(interactionKey(b)));
  }
  return copy;
}

function interactionKey(interaction: Json): string {
  if (!interaction || typeof interaction !== 'object' || Array.isArray(interaction)) return '';
  return `${String(interaction['description'])}\u0000${JSON.stringify(interaction['providerStates'] ?? [])}`;
}

export interface PactComparison {
  current: boolean;
  /** Interaction descriptions that differ, are missing or are extra (for the failure message). */
  differences: string[];
}

export async function comparePactFiles(generatedPath: string, committedPath: string): Promise<PactComparison> {
  const generated = normalisePact(JSON.parse(await readFile(generatedPath, 'utf8')));
  let committed: Json;
  try {
    committed = normalisePact(JSON.parse(await readFile(committedPath, 'utf8')));
  } catch (error) {
    return { current: false, differences: [`${committedPath}: ${(error as Error).message}`] };
  }
  if (isDeepStrictEqual(generated, committed)) return { current: true, differences: [] };
  return { current: false, differences: describeDifferences(generated, committed) };
}

function describeDifferences(generated: Json, committed: Json): string[] {
  const byDescription = (pact: Json): Map<string, Json> => {
    const map = new Map<string, Json>();
    const list = pact && typeof pact === 'object' && !Array.isArray(pact) ? pact['interactions'] : null;
    if (Array.isArray(list)) for (const i of list) map.set(interactionKey(i).split('\u0000')[0]!, i);
    return map;
  };
  const a = byDescription(generated);
  const b = byDescription(committed);
  const out: string[] = [];
  for (const [name, value] of a) {
    if (!b.has(name)) out.push(`new interaction: ${name}`);
    else if (!isDeepStrictEqual(value, b.get(name))) out.push(`changed interaction: ${name}`);
  }
  for (const name of b.keys()) if (!a.has(name)) out.push(`removed interaction: ${name}`);
  if (out.length === 0) out.push('pact header or metadata differs');
  return out;
}

/** Writes the generated pact as the committed copy (2-space JSON, trailing newline). */
export async function refreshPactFile(generatedPath: string, committedPath: string): Promise<void> {
  const generated = JSON.parse(await readFile(generatedPath, 'utf8')) as Json;
  await mkdir(dirname(committedPath), { recursive: true });
  await writeFile(committedPath, `${JSON.stringify(generated, null, 2)}\n`);
}
