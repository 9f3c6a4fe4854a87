"""A small client of the Deposit Trade Service (signature mode), standard library only."""
import hashlib
import hmac
import json
import re
import urllib.error
import urllib.request

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
    def __init__(self, base_url: str, merchant: str, secret: str, timeout: float = 10):
        self.base_url = base_url.rstrip("/")
        self.merchant = merchant
        self.secret = secret
        self.timeout = timeout

    def create(self, order: str, amount_cents: int, type_: str = "any_bank", **optional) -> dict:
        """POST /api/v1/trades/deposit/create (P2P: any_bank or nspk). `optional`:
        customer, callback_url, return_url."""
        body = {"merchant": self.merchant, "order": order, "amount_cents": amount_cents,
                "amount_currency": "RUB", "type": type_, **optional}
        signature = sign(self.secret, string_to_sign(CREATE_FIELDS, body))
        return self._call("POST", "/api/v1/trades/deposit/create", {"X-Auth": signature}, body)

    def create_or_recover(self, order: str, amount_cents: int, type_: str = "any_bank", **optional) -> dict:
        """create(), surviving an answer that never comes: the trade may be saved although the
        connection closed (or timed out) without an answer, so retry with the SAME order; a 422
        duplicate_order then names the saved trade, which is read and returned. Never a new order."""
        for attempt in range(3):
            try:
                return self.create(order, amount_cents, type_, **optional)
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                if attempt == 2:
                    raise
                continue  # no answer: saved or not, we cannot tell; ask again with the same order
            except DepositError as error:
                saved = re.search(r"\(id ([0-9a-f-]{36})\)", error.body)
                if error.status != 422 or '"duplicate_order"' not in error.body or not saved:
                    raise
                return self.get(saved.group(1))  # an earlier attempt was saved: that is our trade

    def get(self, trade_id: str) -> dict:
        """GET /api/v1/trades/:merchant/:uuid, signed over merchant::uuid in X-Token."""
        signature = sign(self.secret, string_to_sign(GET_FIELDS, {"merchant": self.merchant, "uuid": trade_id}))
        return self._call("GET", f"/api/v1/trades/{self.merchant}/{trade_id}", {"X-Token": signature})

    def _call(self, method, path, headers, body=None):
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.base_url + path, data=data, method=method,
                                         headers={"Content-Type": "application/json", **headers})
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as response:
                return json.load(response)
        except urllib.error.HTTPError as error:
            raise DepositError(error.code, error.read().decode(errors="replace")) from None
