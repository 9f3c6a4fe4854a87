# The balance probe in Python (standard library): GET /probe?order=<order> answers the shop's
# state and the kopecks credited for that order. Run: PORT=3001 python3 examples/probes/probe.py
import json
import os
from http.server import BaseHTTPRequestHandler, HTTPServer
from urllib.parse import parse_qs, urlparse

ORDERS = {"order-1001": {"state": "confirmed", "credited_cents": 31250}}  # your shop's data


class Probe(BaseHTTPRequestHandler):
    def do_GET(self):
        order = parse_qs(urlparse(self.path).query).get("order", [""])[0]
        row = ORDERS.get(order, {"state": None, "credited_cents": 0})
        body = json.dumps({"state": row["state"], "credited_cents": row["credited_cents"]}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


server = HTTPServer(("127.0.0.1", int(os.environ.get("PORT", "3001"))), Probe)
print(f"probe on http://127.0.0.1:{server.server_port}/probe", flush=True)
server.serve_forever()
