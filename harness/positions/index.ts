// Public face of the positions the kit takes where the spec is silent, each with its evidence
// (data.ts); docs/positions.md is generated from them (page.ts).
import { POSITIONS, type Position } from './data.ts';

export { POSITIONS, TOPICS, type Position, type PositionEvidence } from './data.ts';
export { positionsPage, POSITIONS_DOC_PATH } from './page.ts';

export function position(id: string): Position {
  const found = POSITIONS.find((p) => p.id === id);
  if (!found) throw new Error(`no position ${JSON.stringify(id)} in harness/positions`);
  return found;
}

/** The real code a position rests on, in one line for a reason: `the real status client … (compares …)`. */
export function codeEvidence(id: string): string {
  const code = position(id).evidence.filter((e) => e.kind === 'code');
  return `${code.map((e) => `${e.source}: ${e.what}`).join('; ')} (docs/positions.md, ${id})`;
}
