"""The callback receiver of callback_receiver.py with a balance probe reading the same ledger, on one
port: POST /callback takes callbacks, GET /probe?order=<order> answers the shop's state and the
kopecks credited. Run it, then fuzz it with overlapping deliveries:

    PORT=3001 MERCHANT_SECRET=<secret> python3 examples/python/receiver_with_probe.py
    npx deposit-sandbox check-callback http://127.0.0.1:3001/callback --secret <secret> \\
        --probe http://127.0.0.1:3001/probe --runs 50 --seed 1
"""
import json
import os
from http.server import ThreadingHTTPServer
from urllib.parse import parse_qs, urlparse

from callback_receiver import Ledger, callback_handler

ledger = Ledger()


class ReceiverWithProbe(callback_handler(os.environ.get("MERCHANT_SECRET", "sandbox-secret-demo"), ledger)):
    def do_GET(self):
        url = urlparse(self.path)
        if url.path != "/probe":
            self.send_response(404)
            self.end_headers()
            return
        body = json.dumps(ledger.balance(parse_qs(url.query).get("order", [""])[0])).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


# A thread per request, so overlapping deliveries really run at the same time.
server = ThreadingHTTPServer(("127.0.0.1", int(os.environ.get("PORT", "3001"))), ReceiverWithProbe)
print(f"receiver on http://127.0.0.1:{server.server_port}/callback, probe on http://127.0.0.1:{server.server_port}/probe", flush=True)
server.serve_forever()
