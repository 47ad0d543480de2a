"""The host PIN: bearer header or signed cookie, the login and logout pages, a throttle.

Host requests carry ``Authorization: Bearer <PIN>`` or the ``companion_host`` cookie the
login page sets (signed with the data folder's secret, HttpOnly, SameSite=Strict). A
cookie request from another site's page is refused: its ``Origin`` must be this host.
After ``PIN_MAX_FAILURES`` wrong PINs within ``PIN_FAILURE_WINDOW`` seconds a client is
refused (still 401) until the window passes.
"""

from __future__ import annotations

import hashlib
import hmac
import time
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
    origin = request.headers.get("Origin")
    if origin is None or (origin == "null" and request.method == "GET"):
        return True
    return urlsplit(origin).netloc == request.host


def _client() -> str:
    return request.remote_addr or "?"


def _throttled(now: float) -> bool:
    holder = get_companion(current_app)
    window = float(current_app.config["PIN_FAILURE_WINDOW"])
    with holder.lock:
        recent = [t for t in holder.failures.get(_client(), []) if now - t < window]
        holder.failures[_client()] = recent
        return len(recent) >= int(current_app.config["PIN_MAX_FAILURES"])


def _note_failure(now: float) -> None:
    holder = get_companion(current_app)
    with holder.lock:
        if len(holder.failures) > 1000:  # forget the oldest clients
            holder.failures.clear()
        holder.failures.setdefault(_client(), []).append(now)


def is_host() -> bool:
    """True when this request carries the right PIN (bearer header or login cookie)."""
    header = request.headers.get("Authorization", "")
    scheme, _, value = header.partition(" ")
    if scheme.lower() == "bearer" and value.strip():
        return _pin_matches(value.strip())
    return _cookie_ok() and _same_origin()


def check_host() -> None:
    """Abort with 401 unless the request is the host's; wrong PINs count towards the throttle.

    :raises Unauthorized: no PIN, a wrong PIN, or too many wrong PINs lately.
    """
    now = time.monotonic()
    if _throttled(now):
        raise Unauthorized("Too many wrong PINs from this device; wait a minute and try again.")
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
    """Check the PIN from the form and set the host cookie."""
    now = time.monotonic()
    pin = request.form.get("pin", "")
    if _throttled(now):
        error = "Too many wrong PINs from this device; wait a minute and try again."
        return render_template("login.html", error=error, next=_next_page()), 401
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
