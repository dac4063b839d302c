// Secrets never reach output, logs or reports: every writer passes text through a Redactor
// that knows the secret values of the run.

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

interface Needle {
  text: string;
  lower: string;
  /** Any letter case: a target may echo the secret upper-cased, or the harness's swapped-case variant. */
  anyCase: RegExp;
}

export class Redactor {
  private readonly secrets: string[];
  /** Every rendering of every secret, longest first, so a rendering that contains another is replaced whole. */
  private readonly needles: Needle[];
  constructor(secrets: Iterable<string | undefined>) {
    this.secrets = [...new Set([...secrets].filter((s): s is string => typeof s === 'string' && s.length >= REDACTOR_MIN_LENGTH))];
    const texts = new Set(this.secrets.flatMap((s) => [...encodingsOf(s), ...nearlyWhole(s).flatMap(encodingsOf)]));
    this.needles = [...texts].sort((a, b) => b.length - a.length).map((text) => ({
      text,
      lower: text.toLowerCase(),
      anyCase: new RegExp(text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'giu'),
    }));
  }

  /** Adds secrets learned later (e.g. test credentials generated at start). */
  with(...more: Array<string | undefined>): Redactor {
    return new Redactor([...this.secrets, ...more]);
  }

  text(value: string): string {
    let out = value;
    let lower = out.toLowerCase();
    for (const needle of this.needles) {
      if (!out.includes(needle.text) && !lower.includes(needle.lower)) continue;
      out = out.replace(needle.anyCase, REDACTED);
      lower = out.toLowerCase();
    }
    return out;
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
