"""The collect-conformance adapter for collect_sdk.py: one JSON request per line on stdin, one
JSON answer per line on stdout (the SDK adapter protocol, version 2, harness/sdk/README.md). The
first line is the harness's hello: answered with what this adapter supports and wraps.

    collect-conformance run --target examples/sdk-adapters/python/client.json
"""
import json
import os
import sys

sys.dont_write_bytecode = True  # leave no __pycache__ beside the example
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from collect_sdk import CollectClient, CollectError  # noqa: E402


def hello(request):
    implementation = {"language": f"Python {sys.version.split()[0]}", "library": "collect_sdk.py (example)", "version": "1.0.0"}
    return {"id": request["id"], "protocol": 2, "supports": ["collect", "status"], "implementation": implementation}


def handle(request):
    if request.get("op") == "hello":
        return hello(request)
    credentials = request["credentials"]
    client = CollectClient(request["baseUrl"], credentials["clientId"], credentials["clientKey"], credentials["secretKey"])
    try:
        if request.get("op") == "status":
            kind, status, detail = client.transaction_status(request["transaction_id"])
            if kind == "rejected":
                return {"id": request["id"], "outcome": "rejected", "detail": detail}
            return {"id": request["id"], "status": status, "detail": detail}
        outcome, detail = client.collect(request["fields"])
    except CollectError as error:
        return {"id": request["id"], "error": str(error)}
    return {"id": request["id"], "outcome": outcome, "detail": detail}


for line in sys.stdin:
    if not line.strip():
        continue
    request = json.loads(line)
    # ensure_ascii: the answer line stays one line for any reader.
    sys.stdout.write(json.dumps(handle(request)) + "\n")
    sys.stdout.flush()
