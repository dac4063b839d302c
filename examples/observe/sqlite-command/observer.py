#!/usr/bin/env python3
"""An observe command for a receiver that keeps its orders in SQLite (receiver.py), with nothing
but Python's standard library. collect-conformance starts it once (the target file's
"observe": {"command": "python3 observer.py orders.sqlite3"}, run in the target file's folder, so
orders.sqlite3 is the file beside it) and writes one JSON object per line; it answers one line
each (docs/observe.md):

    {"id": "o1", "op": "seed", "transaction_id": "cc-…", "amount": "10.00"}  -> {"id": "o1", "state": "pending", "actions": 0}
    {"id": "o2", "op": "read", "transaction_id": "cc-…"}                     -> {"id": "o2", "state": "paid", "actions": 1}
                                                                              or {"id": "o2", "found": false}
anything that fails                                                          -> {"id": …, "error": "…"}

`state` is the receiver's own word (the target file's "states" maps it); `actions` counts the
order_events rows: the outcomes the receiver applied.
"""
import json
import sqlite3
import sys

db = sqlite3.connect(sys.argv[1] if len(sys.argv) > 1 else "orders.sqlite3", timeout=10, isolation_level=None)


def record(reference):
    row = db.execute(
        "SELECT o.status, (SELECT count(*) FROM order_events e WHERE e.order_id = o.id) FROM orders o WHERE o.reference = ?",
        (reference,),
    ).fetchone()
    return {"state": row[0], "actions": row[1]} if row else {"found": False}


def answer(request):
    if request["op"] == "seed":
        db.execute("INSERT INTO orders (reference, amount, status) VALUES (?, ?, 'pending')", (request["transaction_id"], request["amount"]))
    elif request["op"] != "read":
        raise ValueError(f"unknown op {request['op']!r}")
    return record(request["transaction_id"])


for line in sys.stdin:
    request = json.loads(line)
    try:
        reply = {"id": request["id"], **answer(request)}
    except Exception as error:  # the harness shows it; the next request is answered as usual
        reply = {"id": request["id"], "error": str(error)}
    print(json.dumps(reply), flush=True)
