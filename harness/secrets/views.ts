// The ways a text may hold a secret's characters, each searchable with indexOf and each unit
// traced back to the characters of the text it stands for: the text itself in any letter case,
// and the text with its JSON string escapes read (`\/`, `\u00e9`, `\"`, `\\`, `\n`…), once, and
// again for JSON quoted inside a JSON string. Reading the escapes instead of matching every way
// of writing each character needs no pattern per secret (a pattern per character, in a regular
// expression per rendering, cost a second to compile for an unusual secret) and covers every
// mix of escapes an encoder writes.

/** JSON inside JSON inside JSON: deeper than any debug body quotes. */
const JSON_LEVELS = 3;

/** The short escapes of a JSON string (RFC 8259 §7): the letter after `\` → the character. */
const SHORT_ESCAPES: Readonly<Record<string, string>> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };

const HEX4 = /^[0-9a-fA-F]{4}$/;

/**
 * A text searchable for secrets: `text` (letters folded), and for each of its units the
 * characters `[start, end)` of the original text it stands for.
 */
export interface View {
  text: string;
  start(unit: number): number;
  end(unit: number): number;
}

/** A text read one level further: its units, each traced to the characters of the original text. */
interface Level {
  raw: string;
  start(unit: number): number;
  end(unit: number): number;
}

/**
 * One letter case for comparing: the lower case of the upper case, so `ſ` and `S` both give `s`
 * (and a final `ς` is `σ`). Undefined when that changes the text's length (`ß` → `SS`), then
 * it goes character by character; casing never shortens a character, so the same length means
 * every unit still stands where it stood.
 */
function foldWhole(text: string): string | undefined {
  const folded = text.toUpperCase().toLowerCase();
  if (folded.length !== text.length) return undefined;
  return folded.includes('ς') ? folded.replace(/ς/g, 'σ') : folded;
}

function foldChar(ch: string): string {
  return foldWhole(ch) ?? ch.toLowerCase();
}

/** The text in one letter case (a secret's renderings are folded so, and every view of a text). */
export function foldCase(text: string): string {
  return foldWhole(text) ?? [...text].map(foldChar).join('');
}

/** The level's text folded, each folded unit traced to the original text through the level. */
function viewOf(level: Level): View {
  const { raw } = level;
  const whole = foldWhole(raw);
  if (whole !== undefined) return { text: whole, start: level.start, end: level.end };
  const parts: string[] = [];
  const first: number[] = [];
  const last: number[] = [];
  for (let i = 0; i < raw.length;) {
    const width = raw.codePointAt(i)! > 0xffff ? 2 : 1;
    const folded = foldChar(raw.slice(i, i + width));
    parts.push(folded);
    for (let k = 0; k < folded.length; k++) {
      first.push(i);
      last.push(i + width - 1);
    }
    i += width;
  }
  return { text: parts.join(''), start: (u) => level.start(first[u]!), end: (u) => level.end(last[u]!) };
}

/** The JSON string escapes of `level` read; undefined when it has none. */
function readEscapes(level: Level): Level | undefined {
  const { raw } = level;
  if (!raw.includes('\\')) return undefined;
  const parts: string[] = [];
  // A read text is never longer than the text it was read from.
  const from = new Int32Array(raw.length);
  const to = new Int32Array(raw.length);
  let n = 0;
  let plainFrom = 0;
  let read = false;
  const plainUpTo = (i: number) => {
    if (i > plainFrom) parts.push(raw.slice(plainFrom, i));
    for (let k = plainFrom; k < i; k++, n++) {
      from[n] = level.start(k);
      to[n] = level.end(k);
    }
  };
  for (let i = raw.indexOf('\\'); i !== -1 && i + 1 < raw.length; i = raw.indexOf('\\', i)) {
    const short = SHORT_ESCAPES[raw[i + 1]!];
    const hex = short === undefined && raw[i + 1] === 'u' ? raw.slice(i + 2, i + 6) : '';
    const ch = short ?? (HEX4.test(hex) ? String.fromCharCode(parseInt(hex, 16)) : undefined);
    if (ch === undefined) {
      i++;
      continue;
    }
    const width = short === undefined ? 6 : 2;
    plainUpTo(i);
    parts.push(ch);
    from[n] = level.start(i);
    to[n] = level.end(i + width - 1);
    n++;
    i += width;
    plainFrom = i;
    read = true;
  }
  if (!read) return undefined;
  plainUpTo(raw.length);
  return { raw: parts.join(''), start: (u) => from[u]!, end: (u) => to[u]! };
}

/** The text as it is, then with its JSON escapes read, level by level while it has any. */
export function viewsOf(text: string): View[] {
  let level: Level | undefined = { raw: text, start: (u) => u, end: (u) => u + 1 };
  const views: View[] = [];
  for (let n = 0; level && n <= JSON_LEVELS; n++) {
    views.push(viewOf(level));
    level = readEscapes(level);
  }
  return views;
}
