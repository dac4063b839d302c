#!/usr/bin/env python3
"""Runs the collect-conformance golden vectors with Python's standard library only.

Default mode: checks every `valid` vector of signature.json (pairs, message, signature,
Authorization header), callback-url.json (composed URL) and callback-query.json (parsed
parameters), prints a summary, and exits 0 only if all pass.

--serve mode: a signer for `collect-conformance vectors --signer "CMD"`. Reads one JSON object
per line on stdin ({"id", "body", "secret"}) and answers one line per request:
{"id", "message", "signature"}, or {"id", "error"} for a body it refuses (nested objects and
arrays, lone surrogates, bodies that are not a JSON object).

--vectors DIR: where the vector files are (default: two folders up from this file).
"""

import argparse
import hashlib
import hmac
import json
import os
import sys
from urllib.parse import parse_qsl, quote_plus

CALLBACK_PARAMS = ("transaction_id", "status", "message")


class Refused(Exception):
    """A body this signer does not sign (allowed for `acceptable` vectors only)."""


class _Object(list):
    """The (key, value) pairs of one JSON object, in body order, duplicates kept."""


def _reject_constant(name):
    # NaN, Infinity and -Infinity are not JSON.
    raise Refused("not JSON: " + name)


def canonical_pairs(body):
    """§5.1 steps 1-3: the sorted (key, value-text) pairs of a raw JSON body.

    parse_int/parse_float=str keep every number exactly as written (15.0 stays "15.0");
    object_pairs_hook keeps the pairs so a duplicated key can be resolved as the suite does.
    """
    try:
        top = json.loads(body, parse_float=str, parse_int=str,
                         parse_constant=_reject_constant, object_pairs_hook=_Object)
    except ValueError as error:
        raise Refused("body is not JSON: %s" % error)
    if not isinstance(top, _Object):
        raise Refused("body is not a JSON object")
    values = {}
    for key, value in top:          # the last of a duplicated key wins
        values[key] = value
    pairs = []
    for key, value in values.items():
        pairs.append((key, _text_of(key, value)))
    # Python compares str by code point, which is the suite's order (not locale, not UTF-16).
    pairs.sort(key=lambda pair: pair[0])
    return pairs


def _text_of(key, value):
    if value is True:
        return "true"
    if value is False:
        return "false"
    if value is None:
        return "null"
    if isinstance(value, str):      # strings, and numbers kept as their text
        return value
    # The suite signs nested values as their raw JSON text; json.loads cannot give that back.
    raise Refused("value of %r is an object or array; this example does not sign nested values" % key)


def canonical_message(pairs):
    return "&".join(key + "=" + value for key, value in pairs)


def sign(body, secret):
    message = canonical_message(canonical_pairs(body))
    try:
        data = message.encode("utf-8")
    except UnicodeEncodeError:
        raise Refused("the message holds a lone surrogate and has no UTF-8 form")
    signature = hmac.new(secret.encode("utf-8"), data, hashlib.sha256).hexdigest()
    return message, signature


# form_encode and compose_callback_url stand again in examples/vectors-runners/python/collect_signer.py
# (there with its fault switches). Left twice on purpose: this runner ships in the npm package
# (package.json "files": vectors/, not examples/) as one standard-library file a team copies or
# runs from node_modules, so it loads nothing else of the repository.
def form_encode(value):
    """application/x-www-form-urlencoded as WHATWG URL writes it: keeps A-Z a-z 0-9 * - . _,
    spaces as +. quote_plus alone keeps ~ and encodes * (both decode the same)."""
    return quote_plus(value, safe="*").replace("~", "%7E")


def compose_callback_url(callback_url, params):
    """§6: the URL kept intact, parameters appended with ? or & (before any #fragment)."""
    base, hash_sign, fragment = callback_url.partition("#")
    query = "&".join(name + "=" + form_encode(params[name]) for name in CALLBACK_PARAMS)
    # Only the query's own first ? can be bare: "?next=/done?" is a query ending in a literal ?.
    if "?" not in base:
        joiner = "?"
    elif base.index("?") == len(base) - 1 or base.endswith("&"):
        joiner = ""
    else:
        joiner = "&"
    return base + joiner + query + hash_sign + fragment


def parse_callback_query(request_target):
    """Receiver side: every parameter decoded; the last occurrence of each name wins."""
    query = request_target.partition("#")[0].partition("?")[2]
    every = parse_qsl(query, keep_blank_values=True, errors="replace")
    chosen = {}
    for name, value in every:
        if name in CALLBACK_PARAMS:
            chosen[name] = value
    return chosen, [list(pair) for pair in every]


# --- default mode: check the valid vectors -------------------------------------------------

def load(directory, name):
    with open(os.path.join(directory, name), encoding="utf-8") as handle:
        return json.load(handle)


def check_signature(test):
    problems = []
    try:
        pairs = canonical_pairs(test["body"])
        message, signature = sign(test["body"], test["secret"])
    except Refused as error:
        return ["refused: %s" % error]
    if [list(p) for p in pairs] != test["pairs"]:
        problems.append("pairs %r != %r" % (pairs, test["pairs"]))
    if message != test["message"]:
        problems.append("message %r != %r" % (message, test["message"]))
    if signature != test["signature"]:
        problems.append("signature %s != %s" % (signature, test["signature"]))
    authorization = "HMAC %s:%s" % (test["clientKey"], signature)
    if authorization != test["authorization"]:
        problems.append("authorization differs")
    return problems


def check_callback_url(test):
    url = compose_callback_url(test["callbackUrl"], test["params"])
    return [] if url == test["url"] else ["url %r != %r" % (url, test["url"])]


def check_callback_query(test):
    chosen, every = parse_callback_query(test["requestTarget"])
    problems = []
    if chosen != test["expected"]:
        problems.append("parameters %r != %r" % (chosen, test["expected"]))
    if every != test["all"]:
        problems.append("all %r != %r" % (every, test["all"]))
    return problems


def run_checks(directory):
    checks = (("signature.json", check_signature),
              ("callback-url.json", check_callback_url),
              ("callback-query.json", check_callback_query))
    failed = 0
    for name, check in checks:
        data = load(directory, name)
        stem = name[:-len(".json")]
        passed = 0
        valid = [t for t in data["tests"] if t["result"] == "valid"]
        for test in valid:
            problems = check(test)
            if problems:
                failed += 1
                print("FAIL vectors.%s.%d (%s): %s" % (stem, test["tcId"], test["comment"], "; ".join(problems)))
            else:
                passed += 1
        print("%s: %d/%d valid vectors pass" % (name, passed, len(valid)))
    print("all valid vectors pass" if failed == 0 else "%d valid vectors fail" % failed)
    return 0 if failed == 0 else 1


# --- --serve mode: the line protocol --------------------------------------------------------

def serve(stdin, stdout):
    for raw in stdin:
        if not raw.strip():
            continue
        request_id = None
        try:
            request = json.loads(raw.decode("utf-8"))
            request_id = request.get("id")
            message, signature = sign(request["body"], request["secret"])
            answer = {"id": request_id, "message": message, "signature": signature}
        except Refused as error:
            answer = {"id": request_id, "error": str(error)}
        except (ValueError, KeyError, TypeError, AttributeError) as error:
            answer = {"id": request_id, "error": "bad request line: %s" % error}
        stdout.write(json.dumps(answer).encode("ascii") + b"\n")
        stdout.flush()
    return 0


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--serve", action="store_true", help="act as a signer over the line protocol")
    parser.add_argument("--vectors", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."),
                        help="folder holding signature.json, callback-url.json, callback-query.json")
    args = parser.parse_args(argv)
    if args.serve:
        return serve(sys.stdin.buffer, sys.stdout.buffer)
    return run_checks(args.vectors)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
