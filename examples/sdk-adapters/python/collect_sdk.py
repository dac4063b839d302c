"""A small SDK for the collect operation (§4.1, §5) and the status query (§4.2, as
collect-conformance takes it: docs/status.md), standard library only.

It signs what it sends: the body is encoded first, and the signature is computed over the
pairs of that body (strings as they stand, any other value as its JSON text), keys sorted by
code point (Python's own string order).

COLLECT_SDK_FAULT=amount-2dp switches on one deviation, the kind the client cases exist to
catch: the body carries the amount as money with two decimals ("15.00") while the signature
still covers the amount as the caller passed it (15.0): it signs one text and sends another.
"""
import hashlib
import hmac
import json
import os
import socket
import urllib.error
import urllib.request

COLLECT_PATH = "/api/v1.0/collect/"
STATUS_PATH = "/api/v1.0/transaction_status/"
STATUSES = ("PENDING", "SUCCESS", "FAILED")


class CollectError(Exception):
    """The call's outcome is unknown: the service failed, or did not answer in time."""


class CollectClient:
    def __init__(self, base_url, client_id, client_key, secret_key, timeout=2.0):
        self.base_url = base_url.rstrip("/")
        self.client_id = client_id
        self.client_key = client_key
        self.secret_key = secret_key
        self.timeout = timeout
        self.fault = os.environ.get("COLLECT_SDK_FAULT", "")

    def collect(self, fields):
        """Returns ("accepted" | "rejected", detail); raises CollectError when the outcome is unknown."""
        sent = dict(fields)
        if self.fault == "amount-2dp" and isinstance(sent.get("amount"), (int, float)):
            sent["amount"] = "%.2f" % sent["amount"]
        signed = fields if self.fault == "amount-2dp" else sent
        status, raw = self._post(COLLECT_PATH, sent, signed)
        return self._read(status, raw)

    def transaction_status(self, transaction_id):
        """Returns ("status", "PENDING" | "SUCCESS" | "FAILED", detail) or ("rejected", None, detail);
        raises CollectError when the service failed, did not answer, or answered what it cannot read."""
        body = {"transaction_id": transaction_id, "client_id": self.client_id}
        status, raw = self._post(STATUS_PATH, body, body)
        answer = self._json(raw)
        detail = f"HTTP {status}" + (f": {answer['error_message']}" if isinstance(answer.get("error_message"), str) else "")
        if status >= 500:
            raise CollectError(f"the service failed: {detail}")
        if not 200 <= status < 300 or answer.get("success") is False or answer.get("error_code") is not None:
            return "rejected", None, detail
        # Either letter case: real services answer "success" as well as "SUCCESS" (docs/positions.md).
        status = answer.get("status").upper() if isinstance(answer.get("status"), str) else None
        if status not in STATUSES:
            raise CollectError(f"the status answer holds no status: {detail}")
        return "status", status, detail

    def _post(self, path, sent, signed):
        """Sends `sent` as JSON, signed over the pairs of `signed`; returns (status, raw body)."""
        body = json.dumps(sent, ensure_ascii=False, separators=(",", ":"))
        message = "&".join(f"{key}={self._text(value)}" for key, value in sorted(signed.items()))
        signature = hmac.new(self.secret_key.encode(), message.encode(), hashlib.sha256).hexdigest()
        request = urllib.request.Request(
            self.base_url + path,
            data=body.encode(),
            method="POST",
            headers={"Content-Type": "application/json", "Authorization": f"HMAC {self.client_key}:{signature}"},
        )
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as response:
                return response.status, response.read()
        except urllib.error.HTTPError as error:
            return error.code, error.read()
        except (urllib.error.URLError, socket.timeout, TimeoutError, ConnectionError) as error:
            raise CollectError(f"no answer from the service: {error}") from error

    @staticmethod
    def _text(value):
        # A string is signed as it stands; anything else as the JSON text the body carries.
        return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, separators=(",", ":"))

    @staticmethod
    def _json(raw):
        try:
            answer = json.loads(raw.decode("utf-8"))
        except ValueError:
            answer = None
        return answer if isinstance(answer, dict) else {}

    @classmethod
    def _read(cls, status, raw):
        answer = cls._json(raw)
        detail = f"HTTP {status}" + (f": {answer['message']}" if isinstance(answer.get("message"), str) else "")
        if status >= 500:
            raise CollectError(f"the service failed: {detail}")
        if not 200 <= status < 300 or answer.get("success") is False or answer.get("error_code") is not None:
            return "rejected", detail
        return "accepted", detail
