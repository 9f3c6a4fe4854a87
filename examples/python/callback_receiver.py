"""A callback endpoint: verifies X-Signature in constant time and credits each trade once."""
import hashlib
import hmac
import json
import threading
from http.server import BaseHTTPRequestHandler


class Ledger:
    """Balances per customer account; a trade is credited at most once."""

    def __init__(self):
        self.balance_cents = 0
        self.credited = set()
        self.deliveries = {}  # trade id -> signed callbacks received, repeats included
        self.changed = threading.Condition()

    def record(self, trade: dict) -> None:
        with self.changed:
            self.deliveries[trade["id"]] = self.deliveries.get(trade["id"], 0) + 1
            if trade["state"] == "confirmed" and trade["id"] not in self.credited:
                self.credited.add(trade["id"])
                self.balance_cents += trade["amount_cents"]
            self.changed.notify_all()

    def wait_for(self, predicate, timeout: float = 10) -> bool:
        with self.changed:
            return self.changed.wait_for(predicate, timeout)


def callback_handler(secret: str, ledger: Ledger):
    """A request handler class for http.server that feeds `ledger`."""

    class CallbackHandler(BaseHTTPRequestHandler):
        def do_POST(self):
            raw = self.rfile.read(int(self.headers.get("Content-Length", 0)))
            expected = hmac.new(secret.encode(), raw, hashlib.sha256).hexdigest()
            # Sign the raw bytes, never re-encoded JSON; compare in constant time.
            if not hmac.compare_digest(expected, self.headers.get("X-Signature", "").lower()):
                self.send_response(401)
                self.end_headers()
                return
            ledger.record(json.loads(raw))
            self.send_response(204)  # any 2xx: delivered; repeats are answered 2xx as well
            self.end_headers()

        def log_message(self, *args):
            pass

    return CallbackHandler
