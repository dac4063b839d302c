// Reading a JSON document a user wrote (a config, target or waiver file): one wording for the
// two ways it fails, for each module to put in its own error (its own class and code).
import { readFileSync, statSync } from 'node:fs';

export type JsonRead = { ok: true; value: unknown } | { ok: false; reason: string };

/** `not JSON (Unexpected token … in JSON at position 7)` when the text does not parse. */
export function parseJson(text: string): JsonRead {
  try {
    // A byte-order mark is how some editors (Notepad, PowerShell's Out-File) start UTF-8 files.
    return { ok: true, value: JSON.parse(text.startsWith('\uFEFF') ? text.slice(1) : text) as unknown };
  } catch (error) {
    return { ok: false, reason: `not JSON (${(error as Error).message})` };
  }
}

/** `cannot read the file (ENOENT)` or `not JSON (…)`; the caller prefixes the path. */
export function readJsonFile(path: string | URL): JsonRead {
  let text: string;
  try {
    // A FIFO, a device or a directory would block the read or never end: refused before opening.
    const stat = statSync(path);
    if (!stat.isFile()) return { ok: false, reason: `not a regular file (${kindOf(stat)})` };
    text = readFileSync(path, 'utf8');
  } catch (error) {
    return { ok: false, reason: `cannot read the file (${(error as NodeJS.ErrnoException).code ?? String(error)})` };
  }
  return parseJson(text);
}

function kindOf(stat: import('node:fs').Stats): string {
  if (stat.isFIFO()) return 'a FIFO';
  if (stat.isDirectory()) return 'a directory';
  if (stat.isCharacterDevice() || stat.isBlockDevice()) return 'a device';
  if (stat.isSocket()) return 'a socket';
  return 'not a file';
}
