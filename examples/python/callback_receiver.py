"""A callback endpoint: verifies the callback's signature in constant time and credits each trade once."""
import json
import sqlite3
import threading
from http.server import BaseHTTPRequestHandler

from profile_signing import Profile, acknowledgement, profile_from_env, verify_callback


class Ledger:
    """Balances per customer account in SQLite (the standard library's sqlite3). The credits
    table's primary key on the trade id is what credits a trade at most once: two deliveries
    that overlap both run the INSERT, and the database refuses the second (no "already
    credited?" look-up first, which both would pass)."""

    def __init__(self, path: str = ":memory:"):
        self.db = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
        self.db.execute("CREATE TABLE IF NOT EXISTS credits (trade_id TEXT PRIMARY KEY, amount_cents INTEGER NOT NULL)")
        self.db.execute("CREATE TABLE IF NOT EXISTS trades (trade_id TEXT PRIMARY KEY, order_id TEXT NOT NULL, state TEXT NOT NULL)")
        self.deliveries = {}  # trade id -> signed callbacks received, repeats included
        self.changed = threading.Condition()  # also serializes use of the one connection

    def record(self, trade: dict) -> None:
        with self.changed:
            self.deliveries[trade["id"]] = self.deliveries.get(trade["id"], 0) + 1
            self.db.execute(
                "INSERT INTO trades (trade_id, order_id, state) VALUES (?, ?, ?)"
                " ON CONFLICT (trade_id) DO UPDATE SET state = excluded.state",
                (trade["id"], trade.get("order", ""), trade["state"]),
            )
            if trade["state"] == "confirmed":
                # INSERT ... ON CONFLICT DO NOTHING: a repeat, a retry or a replay inserts nothing.
                self.db.execute(
                    "INSERT INTO credits (trade_id, amount_cents) VALUES (?, ?) ON CONFLICT (trade_id) DO NOTHING",
                    (trade["id"], trade["amount_cents"]),
                )
            self.changed.notify_all()

    @property
    def credited(self) -> set:
        with self.changed:
            return {row[0] for row in self.db.execute("SELECT trade_id FROM credits")}

    @property
    def balance_cents(self) -> int:
        with self.changed:
            return self.db.execute("SELECT COALESCE(SUM(amount_cents), 0) FROM credits").fetchone()[0]

    def balance(self, order: str) -> dict:
        """The shop's state and the kopecks credited for one order: what a balance probe answers."""
        with self.changed:
            row = self.db.execute("SELECT state FROM trades WHERE order_id = ?", (order,)).fetchone()
            credited = self.db.execute(
                "SELECT COALESCE(SUM(c.amount_cents), 0) FROM credits c JOIN trades t ON t.trade_id = c.trade_id WHERE t.order_id = ?",
                (order,),
            ).fetchone()[0]
            return {"state": row[0] if row else None, "credited_cents": credited}

    def wait_for(self, predicate, timeout: float = 10) -> bool:
        with self.changed:
            return self.changed.wait_for(predicate, timeout)


def callback_handler(secret: str, ledger: Ledger, profile: Profile | None = None):
    """A request handler class for http.server that feeds `ledger`. Callbacks are verified and
    acknowledged as `profile` says (default: the one DEPOSIT_SANDBOX_PROFILE names, else sandbox's:
    X-Signature, hex HMAC-SHA256 of the raw body, and any 2xx)."""
    profile = profile or profile_from_env()

    class CallbackHandler(BaseHTTPRequestHandler):
        def do_POST(self):
            raw = self.rfile.read(int(self.headers.get("Content-Length", 0)))
            # Sign the raw bytes, never re-encoded JSON; compare in constant time.
            if not verify_callback(profile, secret, self.headers, raw):
                self.send_response(401)
                self.end_headers()
                return
            ledger.record(json.loads(raw))
            status, answer = acknowledgement(profile)  # repeats are acknowledged as well
            self.send_response(status)
            self.send_header("Content-Length", str(len(answer)))
            self.end_headers()
            self.wfile.write(answer)

        def log_message(self, *args):
            pass

    return CallbackHandler
