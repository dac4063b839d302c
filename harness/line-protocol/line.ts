// One JSON object per line, each way: what every line protocol of the harness shares (the
// signer's and the SDK adapter's). Writing a line, reading the common part of an answer line.

/**
 * A JSON text as one line. JSON.stringify escapes every character below U+0020 (\n, \r
 * included) but writes U+0085, U+2028 and U+2029 raw, and some line readers (Python
 * str.splitlines, Java's Scanner) split there: escape them too, so one object is one line for
 * any reader.
 */
export function toLine(jsonText: string): string {
  return `${jsonText.replace(/[\u0085\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)}\n`;
}

/** A quoted excerpt of foreign text for a reason: at most `max` characters. */
export function excerpt(text: string, max = 120): string {
  return JSON.stringify(text.length > max ? `${text.slice(0, max)}…` : text);
}

export type ParsedObjectLine =
  | { ok: true; id: string; object: Record<string, unknown> }
  | { ok: false; problem: string };

/** The checks every answer line goes through first: JSON, an object, a string `id`. */
export function parseObjectLine(line: string): ParsedObjectLine {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return { ok: false, problem: `the line is not JSON: ${excerpt(line)}` };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { ok: false, problem: `the line is not a JSON object: ${excerpt(line)}` };
  }
  const object = value as Record<string, unknown>;
  if (typeof object.id !== 'string') return { ok: false, problem: `"id" is missing or not a string in ${excerpt(line)}` };
  return { ok: true, id: object.id, object };
}
