// The body as JSON members, read by the canonical signer's raw reader (so the simulator
// verifies exactly the text that was signed). Duplicate top-level keys are refused: JSON
// parsers disagree on which value wins (first, last, error), so a body with one could verify
// under one parser and be acted on with another value by the next (a parser differential).
import { readRawJsonObject, type RawMember } from '../signing/index.ts';
import { Rejection } from './rejections.ts';

export function readJsonMembers(text: string): RawMember[] {
  let members: RawMember[];
  try {
    members = readRawJsonObject(text);
  } catch (error) {
    throw new Rejection('INVALID_BODY', `the body is not a JSON object: ${(error as Error).message}`);
  }
  const seen = new Set<string>();
  for (const { key } of members) {
    if (seen.has(key)) throw new Rejection('DUPLICATE_KEY', `the key ${JSON.stringify(key.slice(0, 60))} stands more than once in the body`);
    seen.add(key);
  }
  return members;
}
