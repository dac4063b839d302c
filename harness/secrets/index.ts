// Secrets never reach output, logs or reports: every writer passes text through a Redactor
// that knows the secret values of the run.
import { foldCase, viewsOf } from './views.ts';

export const REDACTED = '[REDACTED]';

/**
 * Secrets shorter than this are not looked for: they would match ordinary text. Target files,
 * `simulate` and `receiver` refuse secrets under MIN_SECRET_LENGTH, so every secret a run knows
 * is redacted.
 */
export const REDACTOR_MIN_LENGTH = 4;

/**
 * The Redactor finds a secret by its text (and its encodings); a secret of a few characters
 * would also match ordinary text, so it could neither be hidden reliably nor replaced without
 * mangling the evidence. Refused where it is read instead of leaking.
 */
export const MIN_SECRET_LENGTH = 8;

/** Why a secret read from environment variable `name` cannot be used, or undefined when it can. */
export function secretValueProblem(name: string, value: string): string | undefined {
  if (value === '') return `environment variable ${name} is set but empty`;
  const length = [...value].length;
  if (length < MIN_SECRET_LENGTH) {
    return `environment variable ${name} holds ${length} character(s); secrets of fewer than ${MIN_SECRET_LENGTH} cannot be redacted safely from reports`;
  }
  return undefined;
}

/** Base64 text shorter than this is not looked for inside larger base64: too likely by chance. */
const MIN_BASE64_CORE = 8;

/**
 * The renderings of one secret that a target may echo back: as is, percent-encoded (also
 * form-encoded, `+` for a space), base64 (standard and URL-safe, padded or not, and its core
 * at each of the three byte alignments inside a longer base64 text, e.g. `Basic` of
 * `user:token`), and hex (either case). Each is a cheap encoding a debug page or an error
 * body uses; each would otherwise carry the whole secret into the evidence.
 */
export function encodingsOf(secret: string): string[] {
  const bytes = Buffer.from(secret, 'utf8');
  const out = new Set<string>([secret]);
  const percent = encodeURIComponent(secret);
  out.add(percent);
  out.add(percent.replace(/%20/g, '+'));
  const b64 = bytes.toString('base64');
  out.add(b64);
  out.add(b64.replace(/=+$/, ''));
  out.add(bytes.toString('base64url'));
  for (let offset = 0; offset < 3; offset++) {
    // With `offset` unknown bytes before it, the base64 groups that hold only secret bytes.
    const shifted = Buffer.concat([Buffer.alloc(offset), bytes]).toString('base64').replace(/=+$/, '');
    const firstWhole = offset === 0 ? 0 : 4;
    const wholeGroups = Math.floor((offset + bytes.length) / 3);
    const core = shifted.slice(firstWhole, wholeGroups * 4);
    if (core.length >= MIN_BASE64_CORE) {
      out.add(core);
      out.add(core.replace(/\+/g, '-').replace(/\//g, '_'));
    }
  }
  const hex = bytes.toString('hex');
  out.add(hex);
  out.add(hex.toUpperCase());
  return [...out].filter((s) => s.length >= REDACTOR_MIN_LENGTH);
}

/**
 * The secret less one character at either end: the harness itself sends the token one
 * character short (receiver.token.one-char-short), and a target that echoes what it got would
 * otherwise show all of the secret but one character.
 */
function nearlyWhole(secret: string): string[] {
  const chars = [...secret];
  if (chars.length - 1 < REDACTOR_MIN_LENGTH) return [];
  return [chars.slice(0, -1).join(''), chars.slice(1).join('')];
}

export class Redactor {
  private readonly secrets: string[];
  /** Every rendering of every secret, its letters folded (any letter case is found). */
  private readonly needles: string[];
  constructor(secrets: Iterable<string | undefined>) {
    this.secrets = [...new Set([...secrets].filter((s): s is string => typeof s === 'string' && s.length >= REDACTOR_MIN_LENGTH))];
    const texts = this.secrets.flatMap((s) => [...encodingsOf(s), ...nearlyWhole(s).flatMap(encodingsOf)]);
    this.needles = [...new Set(texts.map(foldCase))];
  }

  /** Adds secrets learned later (e.g. test credentials generated at start). */
  with(...more: Array<string | undefined>): Redactor {
    return new Redactor([...this.secrets, ...more]);
  }

  /**
   * The text with every rendering of every secret replaced: in any letter case (a target may
   * echo it upper-cased; the harness sends a swapped-case variant), and inside JSON string
   * escapes (PHP's json_encode writes `/` as `\/`; JSON quoted in JSON escapes the escapes
   * again). Each match is replaced with the characters it stands for (`\/` whole, never a stray
   * backslash), so JSON stays JSON; overlapping matches are replaced as one.
   */
  text(value: string): string {
    if (this.needles.length === 0) return value;
    const spans: Array<[number, number]> = [];
    for (const view of viewsOf(value)) {
      for (const needle of this.needles) {
        for (let at = view.text.indexOf(needle); at !== -1; at = view.text.indexOf(needle, at + 1)) {
          spans.push([view.start(at), view.end(at + needle.length - 1)]);
        }
      }
    }
    if (spans.length === 0) return value;
    spans.sort((a, b) => a[0] - b[0]);
    let out = '';
    let from = 0;
    for (let i = 0; i < spans.length;) {
      const start = spans[i]![0];
      let end = spans[i]![1];
      for (i++; i < spans.length && spans[i]![0] < end; i++) end = Math.max(end, spans[i]![1]);
      out += value.slice(from, start) + REDACTED;
      from = end;
    }
    return out + value.slice(from);
  }

  /**
   * The one way to shorten text that may hold a secret: redacted whole first, then cut to its
   * first `max` characters, `mark` appended when cut. Cut first, a secret would no longer be
   * found whole, and its first characters would show. The cut never splits a [REDACTED] mark
   * (it goes before it) or a character outside the BMP.
   */
  clip(value: string, max: number, mark = '…'): string {
    const text = this.text(value);
    if (text.length <= max) return text;
    let at = max;
    // A mark the cut would split is left out whole.
    const markAt = text.lastIndexOf(REDACTED.charAt(0), at);
    if (markAt !== -1 && text.startsWith(REDACTED, markAt) && markAt + REDACTED.length > at) at = markAt;
    const code = text.charCodeAt(at - 1);
    if (at > 0 && code >= 0xd800 && code <= 0xdbff) at--;
    return `${text.slice(0, at)}${mark}`;
  }

  /**
   * Text that something else already cut at a limit (a request body recorded up to its first
   * bytes): redacted whole, and a tail that begins a secret, which the cut left unfound, is
   * redacted too, so no secret's first characters show. A tail shorter than four characters is
   * left: too short to tell a secret's start from ordinary text.
   */
  cutText(value: string): string {
    const text = this.text(value);
    const folded = foldCase(text);
    let longest = 0;
    for (const needle of this.needles) {
      for (let n = Math.min(needle.length - 1, folded.length); n >= 4 && n > longest; n--) {
        if (folded.endsWith(needle.slice(0, n))) {
          longest = n;
          break;
        }
      }
    }
    return longest === 0 ? text : `${text.slice(0, text.length - longest)}${REDACTED}`;
  }

  /** Deep copy of a JSON-like value with every string redacted (keys too). */
  value<T>(value: T): T {
    if (this.secrets.length === 0) return value;
    // Walk the value rather than its JSON text: in JSON, a secret holding `"` or `\` is escaped
    // and would no longer match.
    const walk = (v: unknown): unknown => {
      if (typeof v === 'string') return this.text(v);
      if (Array.isArray(v)) return v.map(walk);
      if (v !== null && typeof v === 'object') {
        return Object.fromEntries(Object.entries(v).map(([k, inner]) => [this.text(k), walk(inner)]));
      }
      return v;
    };
    return walk(JSON.parse(JSON.stringify(value))) as T;
  }
}
