#!/usr/bin/env python3
"""A callback receiver as a small Django-style app writes one, with nothing but Python's standard
library: its orders in SQLite, no test hooks. It is what the SQLite example of docs/observe.md
observes through a command (observer.py), and what the tests run it against.

    COLLECT_CALLBACK_TOKEN=... python3 receiver.py orders.sqlite3 --port 8081 [--fault read-then-write]

GET /payments/callback?transaction_id=...&status=SUCCESS|FAILED&message=... (§4.3, §6):
  403 when X-Callback-Token is absent, wrong or sent twice; 400 without transaction_id or with a
  status other than SUCCESS/FAILED; 404 for an order it does not hold; 200 otherwise, the outcome
  applied only while the order is pending (UPDATE ... WHERE status = 'pending'), one order_events
  row per outcome applied. `--fault read-then-write` reads the status, works a while, then writes
  it without a condition: concurrent duplicates all apply (the race a real app has).
"""
import argparse
import hmac
import json
import os
import signal
import sqlite3
import sys
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qsl, urlsplit

SCHEMA = """
CREATE TABLE IF NOT EXISTS orders (
  id INTEGER PRIMARY KEY,
  reference TEXT NOT NULL UNIQUE,
  amount TEXT NOT NULL,
  status TEXT NOT NULL DEFAULT 'pending',
  paid_at TEXT
);
CREATE TABLE IF NOT EXISTS order_events (
  id INTEGER PRIMARY KEY,
  order_id INTEGER NOT NULL REFERENCES orders (id),
  event TEXT NOT NULL,
  created_at TEXT NOT NULL DEFAULT (datetime('now'))
);
"""
WORDS = {"SUCCESS": "paid", "FAILED": "failed"}


def connect(path):
    db = sqlite3.connect(path, timeout=10, isolation_level=None)
    db.execute("PRAGMA busy_timeout = 10000")
    return db


def apply(db, reference, status, racy):
    """The order's new state, or None for an order it does not hold; applied only while pending."""
    word = WORDS[status]
    if racy:
        row = db.execute("SELECT id, status FROM orders WHERE reference = ?", (reference,)).fetchone()
        if row is None:
            return None, False
        time.sleep(0.05)  # the work between reading and writing: a payment API call, a template
        if row[1] != "pending":
            return row[1], False
        db.execute("UPDATE orders SET status = ? WHERE id = ?", (word, row[0]))
        db.execute("INSERT INTO order_events (order_id, event) VALUES (?, ?)", (row[0], word))
        return word, True
    db.execute("BEGIN IMMEDIATE")
    try:
        changed = db.execute(
            "UPDATE orders SET status = ?, paid_at = CASE WHEN ? = 'paid' THEN datetime('now') END "
            "WHERE reference = ? AND status = 'pending'",
            (word, word, reference),
        ).rowcount
        row = db.execute("SELECT id, status FROM orders WHERE reference = ?", (reference,)).fetchone()
        if changed == 1:
            db.execute("INSERT INTO order_events (order_id, event) VALUES (?, ?)", (row[0], word))
        db.execute("COMMIT")
    except BaseException:
        db.execute("ROLLBACK")
        raise
    return (row[1] if row else None), changed == 1


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def answer(self, code, body):
        data = json.dumps(body).encode()
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        url = urlsplit(self.path)
        if url.path != "/payments/callback":
            return self.answer(404, {"error": "not found"})
        tokens = self.headers.get_all("X-Callback-Token") or []
        # One header, equal byte for byte (no trimming, no case folding), compared in constant time.
        if len(tokens) != 1 or not hmac.compare_digest(tokens[0].encode("latin-1"), self.server.token.encode("latin-1")):
            return self.answer(403, {"error": "forbidden"})
        params = dict(parse_qsl(url.query, keep_blank_values=True))  # the last of a name wins
        reference = params.get("transaction_id")
        status = params.get("status")
        if not reference:
            return self.answer(400, {"error": "transaction_id is missing"})
        if status not in WORDS:
            return self.answer(400, {"error": "status must be SUCCESS or FAILED"})
        db = connect(self.server.db_path)
        try:
            state, applied = apply(db, reference, status, self.server.racy)
        finally:
            db.close()
        if state is None:
            return self.answer(404, {"error": "unknown order"})
        return self.answer(200, {"result": "applied" if applied else "duplicate", "status": state})

    def do_POST(self):
        self.send_response(405)
        self.send_header("Allow", "GET")
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, format, *args):
        pass


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("db")
    parser.add_argument("--port", type=int, default=8081)
    parser.add_argument("--fault", choices=["read-then-write"])
    args = parser.parse_args()
    token = os.environ.get("COLLECT_CALLBACK_TOKEN")
    if not token:
        sys.exit("COLLECT_CALLBACK_TOKEN must be set")
    db = connect(args.db)
    db.execute("PRAGMA journal_mode = WAL")
    db.executescript(SCHEMA)
    db.close()
    server = ThreadingHTTPServer(("127.0.0.1", args.port), Handler)
    server.daemon_threads = True
    server.token, server.db_path, server.racy = token, args.db, args.fault == "read-then-write"
    print(f"listening on http://127.0.0.1:{server.server_address[1]}", flush=True)
    # SIGTERM (kill) ends it as Ctrl-C does: cleanly, exit status 0.
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
