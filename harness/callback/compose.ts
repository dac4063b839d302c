// §6 "URL composition": the supplied URL is kept intact; transaction_id, status and message
// are appended with `?`, or with `&` when the URL already has a query string.

export type CallbackStatus = 'SUCCESS' | 'FAILED';

export interface CallbackParams {
  transaction_id: string;
  status: CallbackStatus | string;
  message: string;
}

/** The order the spec's URL pattern gives. */
export const CALLBACK_PARAM_NAMES = ['transaction_id', 'status', 'message'] as const;

/**
 * application/x-www-form-urlencoded serialisation of one value (WHATWG URL §5.2): spaces
 * become `+`, unreserved `*-._` and alphanumerics stay, everything else is %XX of its UTF-8.
 */
export function formEncode(value: string): string {
  return new URLSearchParams([['', value]]).toString().slice(1);
}

/** `transaction_id=…&status=…&message=…`, each value encoded by `encode` (form encoding by default). */
export function encodeCallbackQuery(
  params: CallbackParams, encode: (value: string, name: (typeof CALLBACK_PARAM_NAMES)[number]) => string = formEncode,
): string {
  return CALLBACK_PARAM_NAMES.map((name) => `${name}=${encode(params[name], name)}`).join('&');
}

/** `[everything before the first #, the #fragment or '']`. */
export function splitFragment(url: string): [base: string, fragment: string] {
  const at = url.indexOf('#');
  return at === -1 ? [url, ''] : [url.slice(0, at), url.slice(at)];
}

/**
 * Composes the callback URL. Positions where §6 is silent (see vectors/README.md):
 * - a fragment (`#…`) is never sent over HTTP, so the parameters go before it and it stays;
 * - a URL ending in `?` or `&` already has its separator, so none is added.
 */
export function composeCallbackUrl(callbackUrl: string, params: CallbackParams): string {
  const [base, fragment] = splitFragment(callbackUrl);
  const query = encodeCallbackQuery(params);
  return base + separatorAfter(base) + query + fragment;
}

/** `?` without a query, `&` after one, nothing after a bare trailing `?` or `&`. */
export function separatorAfter(base: string): '?' | '&' | '' {
  // Only the query's own first `?` can be bare: `?next=/done?` is a query ending in a literal `?`.
  const queryAt = base.indexOf('?');
  return queryAt === -1 ? '?' : queryAt === base.length - 1 || base.endsWith('&') ? '' : '&';
}
