"""A small, correct signer for the collect API (§5.1, §5.2) and the callback URL (§6), standard
library only: the example test_vectors.py runs against. Your SDK has its own; point the runner
at it instead.

It validates the body with json.loads and reads every value's text from the body itself (a
number as written, a nested object or array as its raw JSON text); keys are sorted by Python's
own string order, which is code-point order.

COLLECT_SIGNER_FAULT switches on one fault of the signer, to see what a failing vector looks like:
  body-order          keys left in the order of the body, not sorted
  url-encoded-values  every value percent-encoded as JavaScript's encodeURIComponent does
  python-ascii-only   a message with a non-ASCII character refused (str.encode('ascii'))
and COLLECT_CALLBACK_FAULT one of the callback URL's composer or parser:
  always-question-mark  the parameters appended with ? even after a query
  plus-not-space        + left as it is in the query, not read as a space
"""
import hashlib
import hmac
import json
import os
from urllib.parse import quote, quote_plus, unquote, unquote_plus

CALLBACK_PARAMS = ("transaction_id", "status", "message")


class Refused(Exception):
    """A body this signer does not sign (allowed on `acceptable` vectors only)."""


def _not_json(name):
    raise Refused("the body is not JSON: " + name)


def body_pairs(body):
    """The (key, text) pairs of the top-level object in body order; a repeated key keeps its first place and its last value."""
    try:
        json.loads(body, parse_constant=_not_json)  # only to refuse what is not JSON (NaN is not)
    except ValueError as error:
        raise Refused("the body is not JSON: %s" % error)
    i = _skip_space(body, 0)
    if body[i:i + 1] != "{":
        raise Refused("the body is not a JSON object")
    pairs = {}  # dicts keep the place where a key first stood
    i = _skip_space(body, i + 1)
    while body[i] != "}":
        key_end = _value_end(body, i)
        key = json.loads(body[i:key_end])
        i = _skip_space(body, _skip_space(body, key_end) + 1)  # past the ':'
        end = _value_end(body, i)
        raw = body[i:end]
        # A string is signed unquoted and unescaped; anything else (numbers, true, false, null,
        # nested objects and arrays) exactly as written in the body.
        pairs[key] = json.loads(raw) if raw[0] == '"' else raw
        i = _skip_space(body, end)
        if body[i] == ",":
            i = _skip_space(body, i + 1)
    return list(pairs.items())


def _skip_space(text, i):
    while i < len(text) and text[i] in " \t\r\n":
        i += 1
    return i


def _value_end(text, i):
    """Where the JSON value starting at i ends (the text is known to be valid JSON)."""
    depth = 0
    in_string = False
    j = i
    while j < len(text):
        c = text[j]
        if in_string:
            if c == "\\":
                j += 1
            elif c == '"':
                in_string = False
                if depth == 0:
                    return j + 1
        elif c == '"':
            in_string = True
        elif c in "{[":
            depth += 1
        elif c in "}]":
            if depth == 0:
                return j
            depth -= 1
            if depth == 0:
                return j + 1
        elif depth == 0 and c in ", \t\r\n":
            return j
        j += 1
    return len(text)


def sign(body, secret):
    """§5.1: {"message": canonical message, "signature": lower-case hex HMAC-SHA256}."""
    fault = os.environ.get("COLLECT_SIGNER_FAULT", "")
    pairs = body_pairs(body)
    if fault != "body-order":
        pairs.sort(key=lambda pair: pair[0])
    if fault == "url-encoded-values":
        pairs = [(k, quote(v, safe="!*'()")) for k, v in pairs]
    message = "&".join(k + "=" + v for k, v in pairs)
    try:
        data = message.encode("ascii" if fault == "python-ascii-only" else "utf-8")
    except UnicodeEncodeError as error:
        raise Refused("the message cannot be encoded: %s" % error)
    return {"message": message, "signature": hmac.new(secret.encode("utf-8"), data, hashlib.sha256).hexdigest()}


# form_encode and compose_callback_url (without the fault) stand again in
# vectors/examples/python/collect_vectors.py, which ships alone in the npm package and so cannot
# load this file; see the note there.
def form_encode(value):
    """application/x-www-form-urlencoded as WHATWG writes it: A-Z a-z 0-9 * - . _ kept, space as +."""
    return quote_plus(value, safe="*").replace("~", "%7E")


def compose_callback_url(callback_url, params):
    """§6: the callback URL kept intact, the three parameters appended with ? or & before any #fragment."""
    base, hash_sign, fragment = callback_url.partition("#")
    query = "&".join(name + "=" + form_encode(params[name]) for name in CALLBACK_PARAMS)
    if "?" not in base or os.environ.get("COLLECT_CALLBACK_FAULT") == "always-question-mark":
        joiner = "?"
    elif base.index("?") == len(base) - 1 or base.endswith("&"):
        joiner = ""
    else:
        joiner = "&"
    return base + joiner + query + hash_sign + fragment


def parse_callback_query(request_target):
    """Receiver side: the three parameters; the last occurrence of a name wins, None when absent."""
    query = request_target.partition("#")[0].partition("?")[2]
    # unquote_plus: + as a space, %XX as UTF-8 bytes (invalid ones as U+FFFD), a bad % kept.
    decode = unquote if os.environ.get("COLLECT_CALLBACK_FAULT") == "plus-not-space" else unquote_plus
    found = dict.fromkeys(CALLBACK_PARAMS)
    for part in query.split("&"):
        if part == "":
            continue
        name, _, value = part.partition("=")
        name = decode(name, errors="replace")
        if name in found:
            found[name] = decode(value, errors="replace")
    return found
