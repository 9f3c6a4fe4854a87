"""A small client of the Deposit Trade Service (signature mode), standard library only."""
import hashlib
import hmac
import json
import re
import urllib.error
import urllib.request

from profile_signing import Profile, profile_from_env, request_headers

# The signature parameters of each endpoint, in the interface document's order.
CREATE_FIELDS = ("amount_cents", "amount_currency", "callback_url", "cusotmer",
                 "merchant", "order", "return_url", "type")
GET_FIELDS = ("merchant", "uuid")


def sign(secret: str, string_to_sign: str) -> str:
    """Lowercase hex HMAC-SHA256 of the string to sign, keyed with the merchant's secret."""
    return hmac.new(secret.encode(), string_to_sign.encode(), hashlib.sha256).hexdigest()


def string_to_sign(fields, values: dict) -> str:
    """The values of the signature fields joined with '::'; an absent field is empty.
    The document spells the payer field `cusotmer`; the body's `customer` fills it."""
    def slot(name):
        value = values.get(name)
        if name == "cusotmer" and value is None:
            value = values.get("customer")
        return "" if value is None else str(value)
    return "::".join(slot(name) for name in fields)


class DepositError(Exception):
    def __init__(self, status: int, body: str):
        super().__init__(f"the provider answered {status}: {body[:300]}")
        self.status = status
        self.body = body


class DepositClient:
    """Signs as `profile` does (default: the one DEPOSIT_SANDBOX_PROFILE names, else sandbox's
    HMAC-SHA256 hex in X-Auth / X-Token); `token` goes beside a signature that has a header of its own."""

    def __init__(self, base_url: str, merchant: str, secret: str, timeout: float = 10,
                 profile: Profile | None = None, token: str = ""):
        self.base_url = base_url.rstrip("/")
        self.merchant = merchant
        self.secret = secret
        self.timeout = timeout
        self.profile = profile or profile_from_env()
        self.token = token

    def create(self, order: str, amount_cents: int, type_: str = "any_bank", **optional) -> dict:
        """POST /api/v1/trades/deposit/create (P2P: any_bank or nspk). `optional`:
        customer, callback_url, return_url."""
        body = {"merchant": self.merchant, "order": order, "amount_cents": amount_cents,
                "amount_currency": "RUB", "type": type_, **optional}
        headers = request_headers(self.profile, self.secret, "create", body, self.token)
        return self._call("POST", "/api/v1/trades/deposit/create", headers, body)

    def create_or_recover(self, order: str, amount_cents: int, type_: str = "any_bank", *,
                          new_order: str | None = None, **optional) -> dict:
        """create(), surviving an answer that never comes (the connection closed, or a timeout): the
        trade may be saved all the same, so the create is retried with the SAME order first.
        A 201 is the trade. A 422 duplicate_order says an earlier attempt saved it. Its id is then
        read from the error where the provider names it; where it does not, that trade's requisites
        never reached us, so the payer cannot pay it: it is left to expire (its callbacks carry its
        order and id, so the receiver still learns it) and the payer gets a trade under new_order.
        Returns the trade to show the payer: its "order" says which order that is."""
        for attempt in range(3):
            try:
                return self.create(order, amount_cents, type_, **optional)
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                if attempt == 2:
                    raise
                continue  # no answer: saved or not, we cannot tell; ask again with the same order
            except DepositError as error:
                if error.status != 422 or '"duplicate_order"' not in error.body:
                    raise
                # An earlier attempt was saved. The sandbox names it in the message: a convenience of
                # its own, which a provider profile turns off (duplicate_order_names_trade: false).
                saved = re.search(r"\(id ([0-9a-f-]{36})\)", error.body)
                if saved:
                    return self.get(saved.group(1))
                if new_order is None or new_order == order:
                    raise
                # The document gives no way to find a trade by its order: a new order for the payer.
                return self.create_or_recover(new_order, amount_cents, type_, **optional)

    def get(self, trade_id: str) -> dict:
        """GET /api/v1/trades/:merchant/:uuid, signed over merchant::uuid in X-Token."""
        headers = request_headers(self.profile, self.secret, "get", {"merchant": self.merchant, "uuid": trade_id}, self.token)
        return self._call("GET", f"/api/v1/trades/{self.merchant}/{trade_id}", headers)

    def _call(self, method, path, headers, body=None):
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.base_url + path, data=data, method=method,
                                         headers={"Content-Type": "application/json", **headers})
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as response:
                return json.load(response)
        except urllib.error.HTTPError as error:
            raise DepositError(error.code, error.read().decode(errors="replace")) from None
