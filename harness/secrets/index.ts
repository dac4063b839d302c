// Secrets never reach output, logs or reports: every writer passes text through a Redactor
// that knows the secret values of the run.

export const REDACTED = '[REDACTED]';

export class Redactor {
  private readonly secrets: string[];
  constructor(secrets: Iterable<string | undefined>) {
    // Longest first, so a secret that contains another is replaced whole.
    this.secrets = [...new Set([...secrets].filter((s): s is string => typeof s === 'string' && s.length >= 4))]
      .sort((a, b) => b.length - a.length);
  }

  /** Adds secrets learned later (e.g. test credentials generated at start). */
  with(...more: Array<string | undefined>): Redactor {
    return new Redactor([...this.secrets, ...more]);
  }

  text(value: string): string {
    let out = value;
    for (const secret of this.secrets) {
      if (out.includes(secret)) out = out.split(secret).join(REDACTED);
      // Percent-encoded and form-encoded renderings leak the same secret.
      const encoded = encodeURIComponent(secret);
      if (encoded !== secret && out.includes(encoded)) out = out.split(encoded).join(REDACTED);
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
