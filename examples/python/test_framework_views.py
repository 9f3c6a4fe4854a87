"""The Flask, Django and FastAPI views of docs/callbacks.md, run on a real callback of a sandbox
this test starts: each takes the raw bytes the way its framework hands them over (request objects
with the same reads stand in for the frameworks, which the standard library cannot install), and
a body parsed and serialised again is refused."""
import asyncio
import json
import threading
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from deposit_client import DepositClient
from framework_views import django_view, fastapi_view, flask_view
from profile_signing import acknowledgement
from test_deposit_flow import MERCHANT, PROFILE, SECRET, TOKEN, start_sandbox


class FlaskRequest:
    def __init__(self, headers, raw):
        self.headers, self._raw = headers, raw

    def get_data(self):
        return self._raw


class DjangoRequest:
    def __init__(self, headers, raw):
        self.headers, self.body = headers, raw


class FastApiRequest:
    def __init__(self, headers, raw):
        self.headers, self._raw = headers, raw

    async def body(self):
        return self._raw


VIEWS = {
    "flask": lambda headers, raw: flask_view(FlaskRequest(headers, raw)),
    "django": lambda headers, raw: django_view(DjangoRequest(headers, raw)),
    "fastapi": lambda headers, raw: asyncio.run(fastapi_view(FastApiRequest(headers, raw))),
}


@pytest.fixture(scope="module")
def callback():
    """One real callback of a confirmed trade, as the sandbox sent it: (headers, raw bytes)."""
    received = []
    arrived = threading.Event()

    class Capture(BaseHTTPRequestHandler):
        def do_POST(self):
            raw = self.rfile.read(int(self.headers["Content-Length"]))
            received.append((self.headers, raw))
            status, body = acknowledgement(PROFILE)
            self.send_response(status)
            self.end_headers()
            self.wfile.write(body)
            arrived.set()

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Capture)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    for url in start_sandbox("--profile", PROFILE.name):
        client = DepositClient(url, MERCHANT, SECRET, token=TOKEN, profile=PROFILE)
        trade = client.create(f"framework-{id(server)}", 31250, callback_url=f"http://127.0.0.1:{server.server_port}/cb")
        confirm = urllib.request.Request(f"{url}/_sandbox/trades/{trade['id']}/transition", data=b'{"state":"confirmed"}',
                                         method="POST", headers={"Content-Type": "application/json"})
        urllib.request.urlopen(confirm, timeout=10).close()
        assert arrived.wait(15), "no callback within 15 s"
    server.shutdown()
    server.server_close()
    return received[0]


@pytest.mark.parametrize("framework", VIEWS)
def test_the_view_verifies_the_raw_bytes(framework, callback):
    headers, raw = callback
    assert VIEWS[framework](headers, raw) == acknowledgement(PROFILE)


@pytest.mark.skipif(PROFILE.callbacks == "request-style", reason="a request-style signature covers the body's values, which a re-serialised body keeps")
@pytest.mark.parametrize("framework", VIEWS)
def test_a_body_parsed_and_serialised_again_is_refused(framework, callback):
    headers, raw = callback
    again = json.dumps(json.loads(raw)).encode()  # what request.json and a re-dump hand over
    assert again != raw
    assert VIEWS[framework](headers, again) == (401, b"bad signature")
