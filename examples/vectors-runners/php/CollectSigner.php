<?php
// A small, correct signer for the collect API (§5.1, §5.2) and the callback URL (§6) in plain
// PHP (php-cli, no extension beyond the default json): the example VectorsTest.php runs against.
// Your SDK has its own; point the runner at it instead.
//
// PHP's json_decode() cannot give a number back as written (15.0 becomes 15), and PHP arrays
// turn keys like "10" into integers that ksort() compares as numbers. So this signer validates
// the body with json_decode() but reads every value's text from the body itself, and sorts
// [key, value] pairs with strcmp (byte order of UTF-8, which is code-point order).
//
// COLLECT_SIGNER_FAULT switches on one fault of the signer, to see what a failing vector looks like:
//   body-order          keys left in the order of the body, not sorted
//   url-encoded-values  every value percent-encoded as JavaScript's encodeURIComponent does
//   python-ascii-only   a message with a non-ASCII character refused (str.encode('ascii'))
// and COLLECT_CALLBACK_FAULT one of the callback URL's composer or parser:
//   always-question-mark  the parameters appended with ? even after a query
//   plus-not-space        + left as it is in the query, not read as a space

/** Thrown for a body this signer does not sign (allowed on `acceptable` vectors only). */
final class CollectSignerRefused extends RuntimeException
{
}

final class CollectSigner
{
    private const CALLBACK_PARAMS = ['transaction_id', 'status', 'message'];

    /** §5.1: ['message' => canonical message, 'signature' => lower-case hex HMAC-SHA256]. */
    public static function sign(string $body, string $secret): array
    {
        $fault = (string) getenv('COLLECT_SIGNER_FAULT');
        $pairs = self::bodyPairs($body);
        if ($fault !== 'body-order') {
            usort($pairs, static fn (array $a, array $b): int => strcmp($a[0], $b[0]));
        }
        $parts = [];
        foreach ($pairs as [$key, $value]) {
            $parts[] = $key . '=' . ($fault === 'url-encoded-values' ? self::encodeUriComponent($value) : $value);
        }
        $message = implode('&', $parts);
        if ($fault === 'python-ascii-only' && preg_match('/[^\x00-\x7f]/', $message)) {
            throw new CollectSignerRefused('the message is not ASCII');
        }
        return ['message' => $message, 'signature' => hash_hmac('sha256', $message, $secret)];
    }

    /** The [key, text] pairs of the top-level object in body order; a repeated key keeps its first place and its last value. */
    public static function bodyPairs(string $body): array
    {
        json_decode($body, true, 512, JSON_BIGINT_AS_STRING);
        if (json_last_error() !== JSON_ERROR_NONE) {
            throw new CollectSignerRefused('the body is not JSON: ' . json_last_error_msg());
        }
        $i = self::skipSpace($body, 0);
        if (($body[$i] ?? '') !== '{') {
            throw new CollectSignerRefused('the body is not a JSON object');
        }
        $pairs = [];
        $place = []; // key => index in $pairs (a PHP array key, only for looking up)
        $i = self::skipSpace($body, $i + 1);
        while ($body[$i] !== '}') {
            $keyEnd = self::valueEnd($body, $i);
            $key = json_decode(substr($body, $i, $keyEnd - $i));
            $i = self::skipSpace($body, self::skipSpace($body, $keyEnd) + 1); // past the ':'
            $end = self::valueEnd($body, $i);
            $raw = substr($body, $i, $end - $i);
            // A string is signed unquoted and unescaped; anything else (numbers, true, false,
            // null, nested objects and arrays) exactly as written in the body.
            $value = $raw[0] === '"' ? json_decode($raw) : $raw;
            if (array_key_exists($key, $place)) {
                $pairs[$place[$key]][1] = $value;
            } else {
                $place[$key] = count($pairs);
                $pairs[] = [$key, $value];
            }
            $i = self::skipSpace($body, $end);
            if ($body[$i] === ',') {
                $i = self::skipSpace($body, $i + 1);
            }
        }
        return $pairs;
    }

    private static function skipSpace(string $text, int $i): int
    {
        $n = strlen($text);
        while ($i < $n && strpos(" \t\r\n", $text[$i]) !== false) {
            $i++;
        }
        return $i;
    }

    /** Where the JSON value starting at $i ends (the text is known to be valid JSON). */
    private static function valueEnd(string $text, int $i): int
    {
        $depth = 0;
        $inString = false;
        $n = strlen($text);
        for ($j = $i; $j < $n; $j++) {
            $c = $text[$j];
            if ($inString) {
                if ($c === '\\') {
                    $j++;
                } elseif ($c === '"') {
                    $inString = false;
                    if ($depth === 0) {
                        return $j + 1;
                    }
                }
            } elseif ($c === '"') {
                $inString = true;
            } elseif ($c === '{' || $c === '[') {
                $depth++;
            } elseif ($c === '}' || $c === ']') {
                if ($depth === 0) {
                    return $j;
                }
                if (--$depth === 0) {
                    return $j + 1;
                }
            } elseif ($depth === 0 && strpos(", \t\r\n", $c) !== false) {
                return $j;
            }
        }
        return $n;
    }

    private static function encodeUriComponent(string $value): string
    {
        return strtr(rawurlencode($value), ['%21' => '!', '%2A' => '*', '%27' => "'", '%28' => '(', '%29' => ')']);
    }

    /** application/x-www-form-urlencoded as WHATWG writes it: urlencode() but * kept. */
    public static function formEncode(string $value): string
    {
        return str_replace('%2A', '*', urlencode($value));
    }

    /** §6: the callback URL kept intact, the three parameters appended with ? or & before any #fragment. */
    public static function composeCallbackUrl(string $callbackUrl, array $params): string
    {
        $hash = strpos($callbackUrl, '#');
        $base = $hash === false ? $callbackUrl : substr($callbackUrl, 0, $hash);
        $fragment = $hash === false ? '' : substr($callbackUrl, $hash);
        $query = [];
        foreach (self::CALLBACK_PARAMS as $name) {
            $query[] = $name . '=' . self::formEncode((string) $params[$name]);
        }
        $q = strpos($base, '?');
        $joiner = $q === false || getenv('COLLECT_CALLBACK_FAULT') === 'always-question-mark' ? '?' : ($q === strlen($base) - 1 || substr($base, -1) === '&' ? '' : '&');
        return $base . $joiner . implode('&', $query) . $fragment;
    }

    /** Receiver side: the three parameters of a request target; the last occurrence wins, null when absent. */
    public static function parseCallbackQuery(string $requestTarget): array
    {
        $found = ['transaction_id' => null, 'status' => null, 'message' => null];
        $q = strpos($requestTarget, '?');
        if ($q === false) {
            return $found;
        }
        $query = explode('#', substr($requestTarget, $q + 1))[0];
        // Not parse_str(): it turns "a.b" into "a_b", reads "a[]" as arrays and keeps the first of nothing.
        foreach (explode('&', $query) as $part) {
            if ($part === '') {
                continue;
            }
            [$name, $value] = array_pad(explode('=', $part, 2), 2, '');
            $name = self::formDecode($name);
            if (array_key_exists($name, $found)) {
                $found[$name] = self::formDecode($value);
            }
        }
        return $found;
    }

    /** + as a space, %XX as a byte (a % without two hex digits stays), invalid UTF-8 as U+FFFD. */
    private static function formDecode(string $text): string
    {
        $bytes = getenv('COLLECT_CALLBACK_FAULT') === 'plus-not-space' ? rawurldecode($text) : urldecode($text);
        return json_decode(json_encode($bytes, JSON_INVALID_UTF8_SUBSTITUTE));
    }
}
