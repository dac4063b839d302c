// Deliberately WRONG query parsers, used only by the parsing fault switches. Each reproduces a
// mistake seen in real receivers. The correct path uses parseCallbackQuery (harness/callback)
// and nothing else.
import { formDecode, queryOf, type ParsedCallbackQuery } from '../callback/index.ts';

function parseWith(target: string, decode: (component: string) => string): ParsedCallbackQuery {
  return splitQuery(queryOf(target), decode);
}

function splitQuery(query: string, decode: (component: string) => string): ParsedCallbackQuery {
  const result: ParsedCallbackQuery = { all: [] };
  for (const part of query.split('&')) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    const name = decode(eq === -1 ? part : part.slice(0, eq));
    const value = decode(eq === -1 ? '' : part.slice(eq + 1));
    result.all.push([name, value]);
    if (name === 'transaction_id' || name === 'status' || name === 'message') result[name] = value;
  }
  return result;
}

/** Fault `no-percent-decoding`: values exactly as they stand in the request target. */
export function parseWithoutDecoding(target: string): ParsedCallbackQuery {
  return parseWith(target, (component) => component);
}

/** Fault `plus-not-space`: decodeURIComponent, which leaves `+` as a plus. */
export function parseWithoutPlus(target: string): ParsedCallbackQuery {
  return parseWith(target, (component) => {
    try {
      return decodeURIComponent(component);
    } catch {
      return component;
    }
  });
}

/**
 * Fault `decode-before-split`: the whole query is decoded first (e.g. `urldecode($_SERVER
 * ['QUERY_STRING'])` then `explode('&', …)`), so `%26` and `%3D` inside a value become
 * separators: `message=a%26status%3DFAILED` yields a `status` of its own, and the last one wins.
 */
export function parseDecodedBeforeSplit(target: string): ParsedCallbackQuery {
  return splitQuery(formDecode(queryOf(target)), (component) => component);
}
