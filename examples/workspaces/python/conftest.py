"""One workspace of a running sandbox per pytest-xdist worker (standard library only).
DEPOSIT_SANDBOX_URL is the sandbox, started with --clock manual."""
import json
import os
import urllib.error
import urllib.request

import pytest

SANDBOX = os.environ.get("DEPOSIT_SANDBOX_URL", "http://127.0.0.1:4242")


def call(method, url, body=None, headers=None):
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method=method, headers={"Content-Type": "application/json", **(headers or {})})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, json.loads(response.read() or b"null")
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"null")


@pytest.fixture(scope="session")
def base_url():
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    return f"{SANDBOX}/w/{worker}"


@pytest.fixture(autouse=True)
def clean_workspace(base_url):
    status, _ = call("POST", f"{base_url}/_sandbox/reset")
    assert status == 200
    yield
