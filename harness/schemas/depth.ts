// How deep a JSON value nests, found without recursion. JSON.parse reads a value nested a
// million levels deep, but every recursive walk after it (the schema check, the target loader's
// URL scan, redaction, JSON.stringify) would end in a stack overflow: exit 1 and a stack trace
// instead of the bad field named. Every file format of the kit nests a handful of levels.

/** The deepest nesting any file the kit reads may have (the root is level 0). */
export const MAX_JSON_DEPTH = 128;

/** Segments of the pointer a too-deep value is named by: its field, not 128 `/0`s. */
const SHOWN_SEGMENTS = 6;

interface Frame {
  value: unknown;
  depth: number;
  key: string;
  parent: Frame | undefined;
}

/** RFC 6901: `~` → `~0`, `/` → `~1`. */
function escapeSegment(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}

/**
 * The first value nested deeper than `max` levels, named by the pointer of its ancestor
 * SHOWN_SEGMENTS levels down (`/rejection/0/in/0/0/0`), or undefined when none is.
 */
export function tooDeep(root: unknown, max = MAX_JSON_DEPTH): { path: string; depth: number } | undefined {
  const stack: Frame[] = [{ value: root, depth: 0, key: '', parent: undefined }];
  while (stack.length > 0) {
    const frame = stack.pop()!;
    const { value, depth } = frame;
    if (typeof value !== 'object' || value === null) continue;
    if (depth >= max) {
      const segments: string[] = [];
      for (let f: Frame | undefined = frame; f?.parent; f = f.parent) segments.push(f.key);
      segments.reverse();
      return { path: segments.slice(0, SHOWN_SEGMENTS).map((s) => `/${escapeSegment(s)}`).join(''), depth };
    }
    // An index loop, not map(): a sparse array (a value built in code, not parsed) has holes.
    if (Array.isArray(value)) for (let i = 0; i < value.length; i++) stack.push({ value: value[i] as unknown, depth: depth + 1, key: String(i), parent: frame });
    else for (const [key, inner] of Object.entries(value)) stack.push({ value: inner, depth: depth + 1, key, parent: frame });
  }
  return undefined;
}
