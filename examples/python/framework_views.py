"""Callback views for Flask, Django and FastAPI: each verifies the signature over the raw body,
the bytes as the sandbox sent them, before it parses anything. A body parsed and serialised again
(request.json, json.loads then json.dumps) may differ from the signed bytes in spacing, key order
or number spelling, and then no signature verifies.

Each view is a plain function of the framework's request object, so it is wired in one line:
    Flask:   app.add_url_rule("/callbacks/deposit", view_func=lambda: flask_view(flask.request), methods=["POST"])
    Django:  path("callbacks/deposit", csrf_exempt(django_view))   # in urls.py
    FastAPI: app.post("/callbacks/deposit")(fastapi_view)           # request: fastapi.Request
They return (status, body); turn that into the framework's response where you wire them."""
import json

from profile_signing import acknowledgement, profile_from_env, verify_callback

SECRET = "sandbox-secret-demo"  # the merchant's secret
PROFILE = profile_from_env()  # the provider profile the sandbox runs with (DEPOSIT_SANDBOX_PROFILE)


def handle(headers, raw: bytes):
    """The part every framework shares: verify the raw bytes, then parse them."""
    if not verify_callback(PROFILE, SECRET, headers, raw):
        return 401, b"bad signature"
    trade = json.loads(raw)
    print(f"trade {trade['id']} is {trade['state']}")  # credit once, by trade id and state
    return acknowledgement(PROFILE)


def flask_view(request):
    raw = request.get_data()  # Flask: the raw bytes (not request.json, which re-serialises)
    return handle(request.headers, raw)


def django_view(request):
    raw = request.body  # Django: the raw bytes (read it before request.POST or a JSON parser)
    return handle(request.headers, raw)


async def fastapi_view(request):
    raw = await request.body()  # FastAPI / Starlette: the raw bytes (not await request.json())
    return handle(request.headers, raw)
