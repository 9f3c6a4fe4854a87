"""Each test creates the same orders: every xdist worker has a workspace of its own."""
import pytest

from conftest import call

DEMO = {"merchant": "6f1c2a9e-3b7d-4c52-9a1e-2d4b8f0c7e51", "token": "sandbox-token-demo"}


def create(base_url, order, type_="any_bank"):
    return call("POST", f"{base_url}/api/v1/trades/deposit/create",
                {"merchant": DEMO["merchant"], "order": order, "amount_cents": 31250,
                 "amount_currency": "RUB", "type": type_},
                {"X-Auth": DEMO["token"]})


@pytest.mark.parametrize("type_", ["any_bank", "nspk"])
def test_confirm_after_timeline(base_url, type_):
    status, trade = create(base_url, "sbx-confirm-1", type_)
    assert status == 201
    assert trade["payment_data"]["url"].startswith(base_url + "/pay/")
    status, _ = call("POST", f"{base_url}/_sandbox/clock/advance", {"by": "10s"})
    assert status == 200
    status, detail = call("GET", f"{base_url}/_sandbox/trades/{trade['id']}")
    assert detail["trade"]["state"] == "confirmed"


@pytest.mark.parametrize("type_", ["any_bank", "nspk"])
def test_cancel_after_timeline(base_url, type_):
    status, trade = create(base_url, "sbx-cancel-1", type_)
    assert status == 201
    call("POST", f"{base_url}/_sandbox/clock/advance", {"by": "10s"})
    status, detail = call("GET", f"{base_url}/_sandbox/trades/{trade['id']}")
    assert detail["trade"]["state"] == "canceled"


def test_only_this_workers_trades(base_url):
    status, trade = create(base_url, "order-1")
    assert status == 201
    status, listed = call("GET", f"{base_url}/_sandbox/trades")
    assert status == 200
    assert [t["id"] for t in listed["trades"]] == [trade["id"]]
    status, again = create(base_url, "order-1")
    assert status == 422  # the order is taken in this workspace, and only here
