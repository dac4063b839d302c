// Named parameters (`:transaction_id`, `:amount`) in SQL text, turned into the driver's own
// positional form (`$1` for PostgreSQL, `?` for MySQL/MariaDB), so that values are always
// bound, never pasted into the text. Only the names a caller allows are parameters: a cast
// (`::uuid`), a colon inside a string literal, a quoted name or a comment, an assignment (`:=`)
// or a regular expression's `{8}` stay SQL text. A name may appear several times.
import type { Dialect } from './url.ts';

export interface CompiledStatement {
  /** The statement as written (for evidence and messages). */
  source: string;
  /** What the driver is given. */
  text: string;
  /** The parameter name of each driver placeholder, in order (`$n` → names[n-1]; each `?` in turn). */
  names: string[];
  /** The allowed names the statement uses, in order of first use. */
  uses: string[];
}

export type Compiled = { ok: true; statement: CompiledStatement } | { ok: false; problem: string };

const IDENT_START = /[A-Za-z_]/;
const IDENT = /[A-Za-z0-9_]/;

/**
 * Walks the text as the database's lexer would, far enough to know what is a literal, a quoted
 * name or a comment, and replaces each allowed `:name` outside them: with the driver's
 * placeholder, or, for a name in `inline`, with that SQL text (a column of an enclosing query:
 * how a batch read runs the target's one-id statement for each id of a list).
 */
export function compileStatement(source: string, dialect: Dialect, allowed: readonly string[], inline: Readonly<Record<string, string>> = {}): Compiled {
  const out: string[] = [];
  const names: string[] = [];
  const uses: string[] = [];
  const numbers = new Map<string, number>();
  let i = 0;
  const n = source.length;
  const copyUntil = (end: number) => {
    out.push(source.slice(i, end));
    i = end;
  };
  while (i < n) {
    const ch = source[i]!;
    const next = source[i + 1];
    // String literals and quoted names: copied whole.
    if (ch === "'" || ch === '"' || (ch === '`' && dialect === 'mysql')) {
      const backslashes = dialect === 'mysql' ? ch !== '`' : ch === "'" && /[eE]/.test(source[i - 1] ?? '') && !IDENT.test(source[i - 2] ?? '');
      const end = quotedEnd(source, i, ch, backslashes);
      if (end < 0) return { ok: false, problem: `a ${ch === "'" ? 'string literal' : 'quoted name'} opened at character ${i + 1} is never closed` };
      copyUntil(end);
      continue;
    }
    if (ch === '-' && next === '-' && (dialect === 'postgres' || /[\s]/.test(source[i + 2] ?? ' '))) {
      const end = source.indexOf('\n', i);
      copyUntil(end < 0 ? n : end);
      continue;
    }
    if (ch === '#' && dialect === 'mysql') {
      const end = source.indexOf('\n', i);
      copyUntil(end < 0 ? n : end);
      continue;
    }
    if (ch === '/' && next === '*') {
      const end = blockCommentEnd(source, i, dialect === 'postgres');
      if (end < 0) return { ok: false, problem: `a comment opened at character ${i + 1} is never closed` };
      copyUntil(end);
      continue;
    }
    if (ch === '$' && dialect === 'postgres' && !IDENT.test(source[i - 1] ?? ' ')) {
      if (/[0-9]/.test(next ?? '')) return { ok: false, problem: `$${/^[0-9]+/.exec(source.slice(i + 1))![0]} at character ${i + 1}: write :${allowed.join(' or :')} instead of positional parameters` };
      const tag = /^\$([A-Za-z_][A-Za-z0-9_]*)?\$/.exec(source.slice(i));
      if (tag) {
        const close = source.indexOf(tag[0], i + tag[0].length);
        if (close < 0) return { ok: false, problem: `a dollar-quoted string opened at character ${i + 1} is never closed` };
        copyUntil(close + tag[0].length);
        continue;
      }
    }
    if (ch === '?' && dialect === 'mysql') {
      return { ok: false, problem: `"?" at character ${i + 1}: write :${allowed.join(' or :')} instead of positional parameters` };
    }
    if (ch === ':') {
      if (next === ':') {
        out.push('::');
        i += 2;
        continue;
      }
      if (next !== undefined && IDENT_START.test(next)) {
        let end = i + 1;
        while (end < n && IDENT.test(source[end]!)) end++;
        const name = source.slice(i + 1, end);
        if (allowed.includes(name)) {
          if (!uses.includes(name)) uses.push(name);
          if (Object.hasOwn(inline, name)) {
            out.push(inline[name]!);
          } else if (dialect === 'postgres') {
            let number = numbers.get(name);
            if (number === undefined) {
              number = numbers.size + 1;
              numbers.set(name, number);
              names.push(name);
            }
            out.push(`$${number}`);
          } else {
            names.push(name);
            out.push('?');
          }
          i = end;
          continue;
        }
        copyUntil(end);
        continue;
      }
    }
    out.push(ch);
    i++;
  }
  return { ok: true, statement: { source, text: out.join(''), names, uses } };
}

/** Index after the closing quote, or -1. A doubled quote is an escaped one; so is a backslash's next character where it escapes. */
function quotedEnd(text: string, start: number, quote: string, backslashes: boolean): number {
  let i = start + 1;
  while (i < text.length) {
    const ch = text[i]!;
    if (backslashes && ch === '\\') {
      i += 2;
      continue;
    }
    if (ch === quote) {
      if (text[i + 1] === quote) {
        i += 2;
        continue;
      }
      return i + 1;
    }
    i++;
  }
  return -1;
}

/** Index after the comment's end, or -1; PostgreSQL's block comments nest, MySQL's do not. */
function blockCommentEnd(text: string, start: number, nests: boolean): number {
  let depth = 0;
  let i = start;
  while (i < text.length - 1) {
    if (text[i] === '/' && text[i + 1] === '*') {
      depth = nests ? depth + 1 : 1;
      i += 2;
    } else if (text[i] === '*' && text[i + 1] === '/') {
      depth--;
      i += 2;
      if (depth === 0) return i;
    } else {
      i++;
    }
  }
  return -1;
}

/** The values in the driver's order. */
export function boundValues(statement: CompiledStatement, values: Readonly<Record<string, string>>): string[] {
  return statement.names.map((name) => {
    const value = values[name];
    if (value === undefined) throw new Error(`no value for :${name}`);
    return value;
  });
}
