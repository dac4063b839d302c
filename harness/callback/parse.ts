// The receiver's side of §6: raw request target (or full URL) → callback parameters.
import type { ParsedCallbackQuery } from '../results/index.ts';

// A callback vector's evidence shows the query as parsed: its shape is named there (harness/results).
export type { ParsedCallbackQuery };

/** Decodes one form-urlencoded component: `+` is a space, `%XX` a UTF-8 byte; bad `%` stays literal. */
export function formDecode(component: string): string {
  const spaced = component.replace(/\+/g, ' ');
  const bytes: number[] = [];
  let out = '';
  const flush = () => {
    if (bytes.length) out += Buffer.from(bytes).toString('utf8');
    bytes.length = 0;
  };
  for (let i = 0; i < spaced.length; i++) {
    const ch = spaced[i]!;
    if (ch === '%' && /^[0-9a-fA-F]{2}$/.test(spaced.slice(i + 1, i + 3))) {
      bytes.push(parseInt(spaced.slice(i + 1, i + 3), 16));
      i += 2;
      continue;
    }
    flush();
    out += ch;
  }
  flush();
  return out;
}

/** The query part of a request target or URL: after the first `?`, before any `#`. */
export function queryOf(target: string): string {
  const hashAt = target.indexOf('#');
  const withoutFragment = hashAt === -1 ? target : target.slice(0, hashAt);
  const qAt = withoutFragment.indexOf('?');
  return qAt === -1 ? '' : withoutFragment.slice(qAt + 1);
}

/** Parses the query of `target` (`/cb?x=1&transaction_id=…` or an absolute URL). */
export function parseCallbackQuery(target: string): ParsedCallbackQuery {
  return splitQuery(queryOf(target), formDecode, formDecode);
}

/**
 * Splits a query on `&` and the first `=`, decoding names and values with the functions given;
 * the last occurrence of a callback parameter wins. The suite's parser and the labelled wrong
 * parsers (alternatives.ts) differ only in what they pass here.
 */
export function splitQuery(
  query: string, decodeName: (s: string) => string, decodeValue: (s: string) => string,
): ParsedCallbackQuery {
  const result: ParsedCallbackQuery = { all: [] };
  for (const part of query.split('&')) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    const name = decodeName(eq === -1 ? part : part.slice(0, eq));
    const value = decodeValue(eq === -1 ? '' : part.slice(eq + 1));
    result.all.push([name, value]);
    if (name === 'transaction_id' || name === 'status' || name === 'message') result[name] = value;
  }
  return result;
}
