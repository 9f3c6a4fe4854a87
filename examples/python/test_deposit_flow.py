"""The merchant flow against a sandbox this test starts: create (signature), read back,
pay on the hosted page, receive the signed callback, credit once."""
import json
import os
import re
import shlex
import subprocess
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from http.server import ThreadingHTTPServer
from pathlib import Path

import pytest

from callback_receiver import Ledger, callback_handler
from deposit_client import CREATE_FIELDS, GET_FIELDS, DepositClient, DepositError, sign, string_to_sign
from profile_signing import BUILTIN, profile_from_env

MERCHANT = "6f1c2a9e-3b7d-4c52-9a1e-2d4b8f0c7e51"  # the bundled demo merchant
SECRET = "sandbox-secret-demo"
TOKEN = "sandbox-token-demo"  # sent beside the signature under a profile whose signature has a header of its own
# DEPOSIT_SANDBOX_PROFILE=md5-colon (or another built-in) runs the flow under that provider
# profile: the sandbox starts with --profile, the client and the receiver follow it.
PROFILE = profile_from_env()
REPO = Path(__file__).resolve().parents[2]


def start_sandbox(*extra):
    """Starts `deposit-sandbox --port 0 --in-memory --auth signature` (and `extra`); yields its URL.
    DEPOSIT_SANDBOX_COMMAND replaces the command (e.g. "npx deposit-sandbox")."""
    command = shlex.split(os.environ.get("DEPOSIT_SANDBOX_COMMAND", f"node {REPO / 'bin' / 'deposit-sandbox.js'}"))
    env = {k: v for k, v in os.environ.items() if not k.startswith("DEPOSIT_SANDBOX_") and k != "PORT"}
    process = subprocess.Popen(command + ["--port", "0", "--in-memory", "--auth", "signature", *extra],
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env)
    try:
        first_line = process.stdout.readline()
        match = re.match(r"deposit-sandbox listening on (\S+)", first_line)
        assert match, f"unexpected first line: {first_line!r}"
        # Keep reading stdout so the sandbox never blocks on a full pipe.
        threading.Thread(target=process.stdout.read, daemon=True).start()
        yield match.group(1)
    finally:
        process.terminate()
        process.wait(timeout=10)


@pytest.fixture(scope="module")
def sandbox_url():
    yield from start_sandbox("--profile", PROFILE.name)


@pytest.fixture(scope="module")
def strict_sandbox_url():
    """A sandbox under the strict provider profile: every sandbox-only helper off, so the 422
    duplicate_order names no trade and callbacks carry no X-Sandbox-* headers."""
    yield from start_sandbox("--profile", "strict")


def start_receiver(profile):
    """A callback endpoint on a free port, following `profile`; yields (url, ledger)."""
    ledger = Ledger()
    server = ThreadingHTTPServer(("127.0.0.1", 0), callback_handler(SECRET, ledger, profile))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_port}/callbacks/deposit", ledger
    server.shutdown()
    server.server_close()


@pytest.fixture()
def receiver():
    yield from start_receiver(PROFILE)


@pytest.fixture()
def strict_receiver():
    yield from start_receiver(BUILTIN["strict"])


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


def pay_on_page(payment_url: str) -> urllib.error.HTTPError:
    """What the payer does: open payment_data.url and submit its form ("I have paid")."""
    with urllib.request.urlopen(payment_url, timeout=10) as page:
        html = page.read().decode()
    action = re.search(r'<form[^>]*action="([^"]+)"', html).group(1)
    opener = urllib.request.build_opener(NoRedirect)
    with pytest.raises(urllib.error.HTTPError) as redirect:  # the 303 to return_url is not followed
        opener.open(urllib.request.Request(urllib.parse.urljoin(payment_url, action), data=b"", method="POST"), timeout=10)
    return redirect.value


def test_signatures_match_the_documented_vectors():
    body = {"amount_cents": 31250, "amount_currency": "RUB", "callback_url": "https://shop.example/callbacks/deposit",
            "customer": "customer-42", "merchant": MERCHANT, "order": "order-1001",
            "return_url": "https://shop.example/thanks", "type": "any_bank"}
    assert sign(SECRET, string_to_sign(CREATE_FIELDS, body)) == "e0868e2bda73093a3f6e8ce9e647abd07f3ad08c764fadac8c29670ac2034692"
    bare = {"amount_cents": 31250, "amount_currency": "RUB", "merchant": MERCHANT, "order": "order-1002", "type": "nspk"}
    assert string_to_sign(CREATE_FIELDS, bare) == f"31250::RUB::::::{MERCHANT}::order-1002::::nspk"
    get = {"merchant": MERCHANT, "uuid": "3f2a4b1c-5d6e-4f70-8a9b-0c1d2e3f4a5b"}
    assert sign(SECRET, string_to_sign(GET_FIELDS, get)) == "79023940317975039deef5b850b859979a9eea265611847f71d5236cbf9762a5"


def test_create_pay_and_credit_once(sandbox_url, receiver):
    callback_url, ledger = receiver
    client = DepositClient(sandbox_url, MERCHANT, SECRET, token=TOKEN)
    order = f"py-{uuid.uuid4()}"

    trade = client.create(order, 31250, "any_bank", customer="customer-42",
                          callback_url=callback_url, return_url="https://shop.example/thanks")
    assert trade["state"] == "created" and trade["order"] == order
    assert client.get(trade["id"]) == trade

    redirect = pay_on_page(trade["payment_data"]["url"])
    assert redirect.code == 303 and redirect.headers["Location"] == "https://shop.example/thanks"

    assert ledger.wait_for(lambda: trade["id"] in ledger.credited), "no signed callback credited the trade"
    assert ledger.balance_cents == 31250
    assert client.get(trade["id"])["state"] == "confirmed"

    # The receiver acknowledged the callback as the profile asks (OK under md5-colon): delivered at once.
    admin = f"{sandbox_url}/_sandbox/callbacks"
    for _ in range(100):
        with urllib.request.urlopen(f"{admin}?trade={trade['id']}", timeout=10) as answer:
            event = json.load(answer)["callbacks"][0]
        if event["status"] != "pending":
            break
        time.sleep(0.05)
    assert event["status"] == "delivered" and len(event["attempts"]) == 1, event

    # The provider may deliver a callback again: replay it, and the balance stays the same.
    urllib.request.urlopen(urllib.request.Request(f"{admin}/{event['id']}/replay", data=b"", method="POST"), timeout=10)
    assert ledger.wait_for(lambda: ledger.deliveries.get(trade["id"]) == 2), "the replayed callback did not arrive"
    assert ledger.balance_cents == 31250


def test_a_forged_callback_is_refused(receiver):
    callback_url, ledger = receiver
    forged = json.dumps({"id": str(uuid.uuid4()), "state": "confirmed", "amount_cents": 100}).encode()
    request = urllib.request.Request(callback_url, data=forged, method="POST",
                                     headers={"Content-Type": "application/json", "X-Signature": sign("wrong-secret", forged.decode())})
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(request, timeout=10)
    assert refused.value.code == 401
    assert ledger.balance_cents == 0 and ledger.deliveries == {}


def test_a_bad_signature_is_explained(sandbox_url):
    client = DepositClient(sandbox_url, MERCHANT, "not-the-secret", token=TOKEN)
    with pytest.raises(Exception) as refused:
        client.create(f"py-{uuid.uuid4()}", 5000, "nspk")
    assert refused.value.status == 401
    assert "string to sign" in refused.value.body.lower()


def test_a_lost_create_answer_is_recovered_with_the_same_order(sandbox_url):
    client = DepositClient(sandbox_url, MERCHANT, SECRET, token=TOKEN)
    order = f"sbx-lost-{uuid.uuid4()}"  # the bundled lost-answer scenario: saved, then no answer at all
    with pytest.raises((urllib.error.URLError, ConnectionError)):
        client.create(order, 31250)
    # The retry gets duplicate_order, which names the trade under the sandbox profile: no new order is needed.
    trade = client.create_or_recover(order, 31250, new_order=f"py-{uuid.uuid4()}")
    assert trade["order"] == order and trade["state"] == "created"
    assert client.get(trade["id"]) == trade


def test_a_lost_create_answer_is_recovered_under_the_strict_profile(strict_sandbox_url, strict_receiver):
    callback_url, ledger = strict_receiver
    client = DepositClient(strict_sandbox_url, MERCHANT, SECRET, profile=BUILTIN["strict"])
    order = f"sbx-lost-{uuid.uuid4()}"
    with pytest.raises((urllib.error.URLError, ConnectionError)):
        client.create(order, 31250, callback_url=callback_url)
    with pytest.raises(DepositError) as taken:  # saved, but the error does not say which trade
        client.create(order, 31250, callback_url=callback_url)
    assert taken.value.status == 422 and '"duplicate_order"' in taken.value.body and "(id " not in taken.value.body

    new_order = f"py-{uuid.uuid4()}"
    trade = client.create_or_recover(order, 31250, new_order=new_order, callback_url=callback_url)
    assert trade["order"] == new_order and trade["state"] == "created"
    assert client.get(trade["id"]) == trade

    # The first trade is never paid, so the provider ends it (here the sandbox's admin API plays
    # the provider): its callback carries its order and id, and the receiver learns the trade.
    admin = f"{strict_sandbox_url}/_sandbox/trades"
    with urllib.request.urlopen(f"{admin}?order={urllib.parse.quote(order)}", timeout=10) as listed:
        lost_id = json.load(listed)["trades"][0]["id"]
    expire = urllib.request.Request(f"{admin}/{lost_id}/transition", data=b'{"state":"expired"}', method="POST",
                                    headers={"Content-Type": "application/json"})
    urllib.request.urlopen(expire, timeout=10).close()
    assert ledger.wait_for(lambda: ledger.balance(order)["state"] == "expired"), "no callback for the lost order"
    assert ledger.balance(order) == {"state": "expired", "credited_cents": 0}
    with ledger.changed:
        assert ledger.db.execute("SELECT trade_id FROM trades WHERE order_id = ?", (order,)).fetchone() == (lost_id,)


def test_overlapping_deliveries_credit_once():
    ledger = Ledger()
    trade = {"id": str(uuid.uuid4()), "state": "confirmed", "amount_cents": 31250}
    start = threading.Barrier(8)

    def deliver():
        start.wait()  # all eight at the same moment, as a retry racing the first attempt
        ledger.record(trade)

    workers = [threading.Thread(target=deliver) for _ in range(8)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    assert ledger.balance_cents == 31250 and ledger.credited == {trade["id"]}
