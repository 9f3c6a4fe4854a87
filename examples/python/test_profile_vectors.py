"""Each built-in provider profile's request signing, computed here with the standard library
(profile_signing.py: hashlib, hmac, base64), must match the sandbox's byte for byte: the string to
sign, the signature, and the headers it travels in, as `deposit-sandbox sign --batch` prints them
(every case in one process; each line is what `sign --profile <p> --json` prints). Three requests
per profile: a create with every field (a Cyrillic customer among them), a create with the
optional fields left out (empty slots), and a get."""
import json
import os
import shlex
import subprocess
from pathlib import Path

import pytest

from profile_signing import BUILTIN, TOKEN_HEADER, signature_header, sign_request, string_to_sign

REPO = Path(__file__).resolve().parents[2]
MERCHANT = "6f1c2a9e-3b7d-4c52-9a1e-2d4b8f0c7e51"  # the bundled demo merchant
SECRET = "sandbox-secret-demo"
VECTORS = (
    ("create", {"amount_cents": "31250", "amount_currency": "RUB", "callback_url": "https://shop.example/callbacks/deposit",
                "customer": "Иван Петров", "merchant": MERCHANT, "order": "order-1001",
                "return_url": "https://shop.example/thanks", "type": "any_bank"}),
    ("create", {"amount_cents": "100", "amount_currency": "RUB", "merchant": MERCHANT, "order": "a::b:c", "type": "nspk"}),
    ("get", {"merchant": MERCHANT, "uuid": "3f2a4b1c-5d6e-4f70-8a9b-0c1d2e3f4a5b"}),
)
CASES = [(name, endpoint, values) for name in BUILTIN for endpoint, values in VECTORS]


def cli_sign_all(cases):
    """`deposit-sandbox sign --batch` for every case in one process: one request per line in, its
    --json result on one line out, in order (DEPOSIT_SANDBOX_COMMAND replaces the command)."""
    command = shlex.split(os.environ.get("DEPOSIT_SANDBOX_COMMAND", f"node {REPO / 'bin' / 'deposit-sandbox.js'}"))
    env = {k: v for k, v in os.environ.items() if not k.startswith("DEPOSIT_SANDBOX_")}
    requests = "".join(json.dumps({"profile": name, "endpoint": endpoint, "fields": values}) + "\n" for name, endpoint, values in cases)
    done = subprocess.run(command + ["sign", "--batch", "--secret", SECRET], input=requests, capture_output=True, text=True, env=env, timeout=60)
    assert done.returncode == 0, done.stderr + done.stdout
    results = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(results) == len(cases), done.stdout
    return results


@pytest.fixture(scope="module")
def signed_by_cli():
    return dict(enumerate(cli_sign_all(CASES)))


@pytest.mark.parametrize("index", range(len(CASES)), ids=[f"{name}-{endpoint}-{i % 3}" for i, (name, endpoint, _) in enumerate(CASES)])
def test_the_profile_signs_as_the_sandbox_does(signed_by_cli, index):
    name, endpoint, values = CASES[index]
    profile = BUILTIN[name]
    cli = signed_by_cli[index]
    assert cli["profile"] == name
    assert cli["string_to_sign"] == string_to_sign(profile, endpoint, values)
    assert cli["signature"] == sign_request(profile, SECRET, endpoint, values)
    assert cli["header"] == signature_header(profile, endpoint)
    assert cli["token_header"] == (TOKEN_HEADER[endpoint] if profile.header else None)
