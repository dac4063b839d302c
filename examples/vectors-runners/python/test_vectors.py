"""The collect-conformance golden vectors as a pytest parametrized test: copy this one file into
your SDK's tests, point the three callables below at your SDK, and run

    python3 -m pytest test_vectors.py

One test per vector, named `vectors.<file>.<tcId> <result> <flags>`. Judging (vectors/README.md):
a `valid` vector passes when your output equals the suite's; an `invalid` one when your signer
does not produce the presented signature; an `acceptable` one (the spec is silent) passes when
it equals the suite's position or your code refuses the input (raises), and is otherwise
SKIPPED with a reason that starts with WARN: the spec allows it, the service may differ.
"""
import json
import os

import pytest

# ---- point these at your SDK ---------------------------------------------------------------
from collect_signer import compose_callback_url, parse_callback_query, sign

# (raw_json_body, secret) -> {"message": ..., "signature": ...} or the hex signature alone; raises to refuse.
SIGNER = sign
# (callback_url, {"transaction_id", "status", "message"}) -> the URL the service requests; None skips callback-url.json.
COMPOSER = compose_callback_url
# (request_target) -> {"transaction_id", "status", "message"} (None for an absent one); None skips callback-query.json.
PARSER = parse_callback_query
# The folder holding signature.json, callback-url.json and callback-query.json.
VECTORS = os.environ.get("COLLECT_VECTORS_DIR") or os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "vectors")
# ----------------------------------------------------------------------------------------------


def vectors(file, callable_, what):
    if callable_ is None:
        reason = "no %s given: set %s in test_vectors.py to your SDK's function" % (what, what.upper())
        return [pytest.param(None, id="vectors." + file, marks=pytest.mark.skip(reason=reason))]
    path = os.path.join(VECTORS, file + ".json")
    if not os.path.isfile(path):
        raise FileNotFoundError("no vector file at %s: set COLLECT_VECTORS_DIR to the folder holding signature.json" % path)
    with open(path, encoding="utf-8") as handle:
        tests = json.load(handle)["tests"]
    return [pytest.param(t, id="vectors.%s.%d %s %s" % (file, t["tcId"], t["result"], ",".join(t["flags"]))) for t in tests]


def shown(value):
    return json.dumps(value, ensure_ascii=False)


def judge(t, check):
    """Runs one vector: check returns (same, labels of the alternatives it fits, evidence lines)."""
    try:
        same, labels, lines = check(t)
    except Exception as refused:  # noqa: BLE001 (any exception is a refusal)
        if t["result"] == "acceptable":
            return  # refusing the input is allowed where the spec is silent
        pytest.fail("%s: refused the input of a %s vector: %s" % (t["comment"], t["result"], refused), pytrace=False)
    if same:
        return
    follows = "follows `%s`" % "`, `".join(labels) if labels else "follows no listed alternative"
    source = ", source: %s" % t["source"] if "source" in t else ""
    reason = "\n".join(["%s (%s%s): %s" % (t["comment"], t["specRef"], source, follows)] + lines)
    if t["result"] == "acceptable":
        pytest.skip("WARN acceptable vector (the spec is silent): " + reason.replace("\n", "; "))
    pytest.fail(reason, pytrace=False)


def check_signature(t):
    got = SIGNER(t["body"], t["secret"])
    signature = got if isinstance(got, str) else got["signature"]
    message = None if isinstance(got, str) else got.get("message")
    labels = [a["label"] for a in t["alternatives"] if a["signature"] == signature or (message is not None and a["message"] == message)]
    yours = [] if message is None else ["your message:       " + shown(message)]
    if t["result"] == "invalid":
        return signature != t["presentedSignature"], labels, [
            "your signer produced the presented signature %s, which the service must refuse" % signature,
            "expected message:   " + shown(t["message"])] + yours
    same = signature == t["signature"] and (message is None or message == t["message"])
    return same, labels, ["expected message:   " + shown(t["message"])] + yours + [
        "expected signature: " + t["signature"], "your signature:     " + signature]


def check_callback_url(t):
    url = COMPOSER(t["callbackUrl"], t["params"])
    labels = [a["label"] for a in t["alternatives"] if a["url"] == url]
    return url == t["url"], labels, ["callback_url: " + shown(t["callbackUrl"]), "expected: " + shown(t["url"]), "yours:    " + shown(url)]


def check_callback_query(t):
    found = PARSER(t["requestTarget"])

    def three(o):
        return [(o or {}).get(k) for k in ("transaction_id", "status", "message")]

    labels = [a["label"] for a in t["alternatives"] if three(a["expected"]) == three(found)]
    return three(found) == three(t["expected"]), labels, [
        "request target: " + shown(t["requestTarget"]), "expected: " + shown(t["expected"]), "yours:    " + shown(found)]


@pytest.mark.parametrize("t", vectors("signature", SIGNER, "signer"))
def test_signature(t):
    judge(t, check_signature)


@pytest.mark.parametrize("t", vectors("callback-url", COMPOSER, "composer"))
def test_callback_url(t):
    judge(t, check_callback_url)


@pytest.mark.parametrize("t", vectors("callback-query", PARSER, "parser"))
def test_callback_query(t):
    judge(t, check_callback_query)
