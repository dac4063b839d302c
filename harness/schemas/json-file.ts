// Reading a JSON document a user wrote (a config, target or waiver file): one wording for the
// two ways it fails, for each module to put in its own error (its own class and code).
import { readFileSync } from 'node:fs';

export type JsonRead = { ok: true; value: unknown } | { ok: false; reason: string };

/** `not JSON (Unexpected token … in JSON at position 7)` when the text does not parse. */
export function parseJson(text: string): JsonRead {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    return { ok: false, reason: `not JSON (${(error as Error).message})` };
  }
}

/** `cannot read the file (ENOENT)` or `not JSON (…)`; the caller prefixes the path. */
export function readJsonFile(path: string | URL): JsonRead {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    return { ok: false, reason: `cannot read the file (${(error as NodeJS.ErrnoException).code ?? String(error)})` };
  }
  return parseJson(text);
}
