"""The host PIN: bearer header or signed cookie, the login and logout pages, a throttle.

Host requests carry ``Authorization: Bearer <PIN>`` or the ``companion_host`` cookie the
login page sets (signed with the data folder's secret, HttpOnly, SameSite=Strict). A
cookie request or a form post from another site's page is refused: its ``Origin`` (and
``Sec-Fetch-Site``, where the browser sends it) must say this host.

Throttle: each client (by address) may get the PIN wrong ``PIN_MAX_FAILURES`` times; from
then on every wrong PIN makes it wait, ``PIN_DELAY_BASE`` seconds the first time and
twice as long each next time, up to ``PIN_DELAY_MAX``. While it waits every host request
from it is refused (401 with ``Retry-After``), even with the right PIN, so a guesser
gains nothing by hurrying. A client's count is forgotten ``PIN_FAILURE_WINDOW`` seconds
after its last wait ends.
"""

from __future__ import annotations

import hashlib
import hmac
from dataclasses import dataclass
from functools import wraps
from typing import Any, Callable, TypeVar
from urllib.parse import urlsplit

from flask import (Blueprint, abort, current_app, redirect, render_template, request,
                   url_for)
from itsdangerous import BadSignature, URLSafeTimedSerializer
from werkzeug.exceptions import Unauthorized

from web.app import get_companion

bp = Blueprint("auth", __name__)

COOKIE = "companion_host"
F = TypeVar("F", bound=Callable[..., Any])


def pin_fingerprint(pin: str) -> str:
    """A digest of the PIN for the cookie, so changing the PIN logs every phone out."""
    return hashlib.sha256(("companion-pin:" + pin).encode()).hexdigest()[:32]


def _serializer() -> URLSafeTimedSerializer:
    return URLSafeTimedSerializer(current_app.config["SECRET_KEY"], salt="companion-host")


def _pin_matches(candidate: str) -> bool:
    expected = current_app.config["PIN"].encode()
    return hmac.compare_digest(candidate.encode(), expected)


def _cookie_ok() -> bool:
    token = request.cookies.get(COOKIE)
    if not token:
        return False
    max_age = int(current_app.config["PIN_COOKIE_DAYS"]) * 86400
    try:
        value = _serializer().loads(token, max_age=max_age)
    except BadSignature:
        return False
    if not isinstance(value, str):
        return False
    return hmac.compare_digest(value, pin_fingerprint(current_app.config["PIN"]))


def _same_origin() -> bool:
    """True unless the browser says the request comes from another site's page."""
    if request.headers.get("Sec-Fetch-Site") == "cross-site":
        return False
    origin = request.headers.get("Origin")
    if origin is None or (origin == "null" and request.method == "GET"):
        return True
    return urlsplit(origin).netloc == request.host


def _client() -> str:
    return request.remote_addr or "?"


@dataclass
class Failures:
    """One client's wrong PINs: how many, and until when it is refused."""

    count: int = 0
    until: float = 0.0  # clock time before which every host request is refused


def pin_delay(count: int, *, free: int, base: float, most: float) -> float:
    """Seconds a client waits after its ``count``-th wrong PIN (0 while ``count < free``)."""
    if count < free:
        return 0.0
    return min(base * 2.0 ** min(count - free, 60), most)


def _now() -> float:
    return float(get_companion(current_app).clock())


def retry_after(now: float) -> float:
    """Seconds this client must still wait before its next host request (0: none)."""
    holder = get_companion(current_app)
    with holder.lock:
        record = holder.failures.get(_client())
        return max(0.0, record.until - now) if record is not None else 0.0


def _note_failure(now: float) -> None:
    """Count a wrong PIN from this client and start its wait."""
    holder = get_companion(current_app)
    config = current_app.config
    window = float(config["PIN_FAILURE_WINDOW"])
    with holder.lock:
        if len(holder.failures) > 1000:  # forget clients whose count has expired
            holder.failures = {k: r for k, r in holder.failures.items()
                               if now <= r.until + window}
            if len(holder.failures) > 1000:
                holder.failures.clear()
        record = holder.failures.get(_client())
        if record is None or now > record.until + window:
            record = holder.failures[_client()] = Failures(until=now)
        record.count += 1
        record.until = now + pin_delay(record.count, free=int(config["PIN_MAX_FAILURES"]),
                                       base=float(config["PIN_DELAY_BASE"]),
                                       most=float(config["PIN_DELAY_MAX"]))


def _wait_sentence(seconds: float) -> str:
    wait = max(1, round(seconds + 0.49))
    unit = "second" if wait == 1 else "seconds"
    return f"Too many wrong PINs from this device; wait {wait} {unit} and try again."


class Throttled(Unauthorized):
    """401 for a client that must wait, with ``Retry-After``."""

    def __init__(self, seconds: float) -> None:
        super().__init__(_wait_sentence(seconds))
        self.seconds = max(1, round(seconds + 0.49))

    def get_headers(self, *args: Any, **kwargs: Any) -> list[tuple[str, str]]:
        return [*super().get_headers(*args, **kwargs), ("Retry-After", str(self.seconds))]


def is_host() -> bool:
    """True when this request carries the right PIN (bearer header or login cookie)."""
    header = request.headers.get("Authorization", "")
    scheme, _, value = header.partition(" ")
    if scheme.lower() == "bearer" and value.strip():
        return _pin_matches(value.strip())
    return _cookie_ok() and _same_origin()


def check_host() -> None:
    """Abort with 401 unless the request is the host's; wrong PINs count towards the throttle.

    :raises Unauthorized: no PIN, a wrong PIN, or a client that must wait (``Throttled``).
    """
    now = _now()
    wait = retry_after(now)
    if wait > 0:
        raise Throttled(wait)
    if is_host():
        return
    if _cookie_ok() and not request.headers.get("Authorization"):
        raise Unauthorized("Host actions only come from the companion's own pages.")
    if request.headers.get("Authorization") or request.cookies.get(COOKIE):
        _note_failure(now)
        raise Unauthorized("That PIN is not right.")
    raise Unauthorized("This needs the host PIN: log in on the host page first.")


def host_required(view: F) -> F:
    """Decorator: the view runs only for the host (else 401 and nothing changes)."""

    @wraps(view)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        check_host()
        return view(*args, **kwargs)

    return wrapper  # type: ignore[return-value]


@bp.get("/login")
def login_page() -> Any:
    """The PIN form."""
    return render_template("login.html", error=None, next=_next_page())


@bp.post("/login")
def login() -> Any:
    """Check the PIN from the form and set the host cookie (only from the companion's page)."""
    if not _same_origin():
        abort(403)
    now = _now()
    pin = request.form.get("pin", "")
    wait = retry_after(now)
    if wait > 0:
        page = render_template("login.html", error=_wait_sentence(wait), next=_next_page())
        return page, 401, {"Retry-After": str(max(1, round(wait + 0.49)))}
    if not isinstance(pin, str) or not pin.strip() or not _pin_matches(pin.strip()):
        _note_failure(now)
        return render_template("login.html", error="That PIN is not right.",
                               next=_next_page()), 401
    response = redirect(_next_page(), code=303)
    response.set_cookie(COOKIE, _serializer().dumps(pin_fingerprint(current_app.config["PIN"])),
                        max_age=int(current_app.config["PIN_COOKIE_DAYS"]) * 86400,
                        httponly=True, samesite="Strict", secure=request.is_secure)
    return response


@bp.post("/logout")
def logout() -> Any:
    """Forget the host cookie on this device."""
    if not _same_origin():
        abort(403)
    response = redirect(url_for("pages.scoreboard"), code=303)
    response.delete_cookie(COOKIE, httponly=True, samesite="Strict")
    return response


def _next_page() -> str:
    """Where to go after logging in: a local path only (never another site)."""
    target = request.values.get("next", "/host")
    if not isinstance(target, str) or not target.startswith("/") or target.startswith("//") \
            or "\\" in target:
        return "/host"
    return target
