"""Signatures under a provider profile (docs/provider-profile.md), written from each built-in
profile's rules with the standard library only (hashlib, hmac, base64): how a request is signed
and where the signature travels, how a callback is signed, and what acknowledges one.
DEPOSIT_SANDBOX_PROFILE names the profile the client and the receiver follow (default sandbox)."""
import base64
import hashlib
import hmac
import json
import os
from dataclasses import dataclass
from typing import Optional

# The signature parameters of each endpoint, in the interface document's order.
SIGNATURE_FIELDS = {
    "create": ("amount_cents", "amount_currency", "callback_url", "cusotmer", "merchant", "order", "return_url", "type"),
    "build": ("amount_cents", "amount_currency", "callback_url", "cusotmer", "merchant", "order", "return_url", "type"),
    "get": ("merchant", "uuid"),
}
# The header that carries the merchant's token (and the signature, unless the profile names its own).
TOKEN_HEADER = {"create": "X-Auth", "build": "X-Auth", "get": "X-Token"}
# What a request-style callback signature covers: the body's top-level values in the Trade object's order.
CALLBACK_FIELDS = ("id", "order", "merchant", "state", "amount_cents", "amount_currency", "rate")


@dataclass(frozen=True)
class Profile:
    name: str
    algorithm: str  # hmac-sha256 | hmac-sha512 | sha256 | sha512 | sha1 | md5
    separator: str
    secret: str  # key (the HMAC key) | last-slot | first-slot (plain hashes)
    encoding: str  # hex | base64
    header: Optional[str]  # None: the endpoint's token header
    callbacks: str  # sandbox | request-style | standard-webhooks
    acknowledge: str  # 2xx | ok-text | code-zero


BUILTIN = {p.name: p for p in (
    Profile("sandbox", "hmac-sha256", "::", "key", "hex", None, "sandbox", "2xx"),
    Profile("sha256-secret-last", "sha256", "::", "last-slot", "hex", None, "request-style", "2xx"),
    Profile("hmac-sha512-base64", "hmac-sha512", "::", "key", "base64", "X-Signature", "request-style", "2xx"),
    Profile("md5-colon", "md5", ":", "last-slot", "hex", None, "request-style", "ok-text"),
    Profile("standard-webhooks", "hmac-sha256", "::", "key", "hex", None, "standard-webhooks", "code-zero"),
    Profile("strict", "hmac-sha256", "::", "key", "hex", None, "sandbox", "2xx"),
)}


def profile_from_env() -> Profile:
    """The built-in profile DEPOSIT_SANDBOX_PROFILE names; sandbox when it is unset."""
    name = os.environ.get("DEPOSIT_SANDBOX_PROFILE") or "sandbox"
    if name not in BUILTIN:
        raise ValueError(f"DEPOSIT_SANDBOX_PROFILE={name!r} is not a built-in profile: {', '.join(BUILTIN)}")
    return BUILTIN[name]


def slot(value) -> str:
    """A value as the string to sign writes it: absent or null empty, true/false in lowercase."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def string_to_sign(profile: Profile, endpoint: str, values: dict, secret: str = "<secret>") -> str:
    """The endpoint's values in the document's order joined with the profile's separator, the
    secret one more slot for a plain hash (shown as <secret> unless given); the body's `customer`
    fills the document's `cusotmer` slot."""
    def value(name):
        if name == "cusotmer" and values.get("cusotmer") is None:
            return values.get("customer")
        return values.get(name)
    slots = [slot(value(name)) for name in SIGNATURE_FIELDS[endpoint]]
    return _join(profile, slots, secret)


def _join(profile: Profile, slots: list, secret: str) -> str:
    if profile.secret == "last-slot":
        slots = [*slots, secret]
    elif profile.secret == "first-slot":
        slots = [secret, *slots]
    return profile.separator.join(slots)


def _digest(profile: Profile, secret: str, message: str) -> str:
    if profile.algorithm.startswith("hmac-"):
        raw = hmac.new(secret.encode(), message.encode(), profile.algorithm[len("hmac-"):]).digest()
    else:
        raw = hashlib.new(profile.algorithm, message.encode()).digest()
    return raw.hex() if profile.encoding == "hex" else base64.b64encode(raw).decode()


def sign_request(profile: Profile, secret: str, endpoint: str, values: dict) -> str:
    """The request's signature under the profile."""
    return _digest(profile, secret, string_to_sign(profile, endpoint, values, secret))


def signature_header(profile: Profile, endpoint: str) -> str:
    """Where the signature travels: the profile's own header, or the endpoint's token header."""
    return profile.header or TOKEN_HEADER[endpoint]


def request_headers(profile: Profile, secret: str, endpoint: str, values: dict, token: str = "") -> dict:
    """The auth headers of a signed request: the signature in its header; when that is a header
    of its own, the merchant's token in X-Auth / X-Token beside it."""
    headers = {TOKEN_HEADER[endpoint]: token} if profile.header else {}
    headers[signature_header(profile, endpoint)] = sign_request(profile, secret, endpoint, values)
    return headers


def verify_callback(profile: Profile, secret: str, headers, raw: bytes) -> bool:
    """True when the callback's signature is the one the profile's scheme makes, compared in
    constant time (hex in either case). `headers` is case-insensitive (http.server's are)."""
    if profile.callbacks == "sandbox":
        expected = hmac.new(secret.encode(), raw, hashlib.sha256).hexdigest()
        return hmac.compare_digest(expected, (headers.get("X-Signature") or "").lower())
    if profile.callbacks == "request-style":
        # Numbers keep the text they have in the body: parse_int/parse_float leave it as it is.
        body = json.loads(raw, parse_int=str, parse_float=str)
        expected = _digest(profile, secret, _join(profile, [slot(body.get(name)) for name in CALLBACK_FIELDS], secret))
        received = (headers.get(profile.header or "X-Signature") or "").strip()
        return hmac.compare_digest(expected, received.lower() if profile.encoding == "hex" else received)
    if profile.callbacks == "standard-webhooks":
        key = base64.b64decode(secret[len("whsec_"):]) if secret.startswith("whsec_") else secret.encode()
        signed = f"{headers.get('webhook-id')}.{headers.get('webhook-timestamp')}.".encode() + raw
        expected = "v1," + base64.b64encode(hmac.new(key, signed, hashlib.sha256).digest()).decode()
        return any(hmac.compare_digest(expected, sent) for sent in (headers.get("webhook-signature") or "").split())
    return False


def acknowledgement(profile: Profile):
    """What a receiver answers to acknowledge a callback: (status, body)."""
    if profile.acknowledge == "ok-text":
        return 200, b"OK"  # exactly OK: no newline, no other case
    if profile.acknowledge == "code-zero":
        return 200, b'{"code":0}'
    return 204, b""
