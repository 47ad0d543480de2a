"""The Flask application factory and the per-app objects every view reaches.

``create_app`` loads defaults, then ``COMPANION_*`` environment variables, then the
caller's config (tests), and wires the blueprints, the error handlers and one
:class:`Companion` holder in ``app.extensions["companion"]``.
"""

from __future__ import annotations

import logging
import os
import secrets
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Mapping

from flask import Flask, Response, jsonify, render_template, request
from werkzeug.exceptions import HTTPException

from companion.errors import ActionError
from companion.journal import Journal
from companion.session import Session
from web.streams import StreamSlots

log = logging.getLogger(__name__)

DEFAULTS: dict[str, Any] = {
    "DATA_DIR": "companion-data",
    "PIN": None,  # None: a random 6-digit PIN kept in the data folder (app.config["PIN"])
    "SSE_KEEPALIVE": 15.0,  # seconds between keep-alive comments on an idle stream
    "SSE_MAX_SECONDS": None,  # None: streams run until the client leaves or the app stops
    "SSE_POLL": 0.5,  # seconds a stream waits at most before checking for shutdown
    "SSE_MAX_STREAMS": 60,  # live streams open at once (web/streams.py), well below the
    "SSE_HOST_STREAMS": 8,  # server's 96 threads; the host's own may use this many more
    "MAX_CONTENT_LENGTH": 64 * 1024,  # bytes of a request body (413 beyond)
    "MAX_FORM_MEMORY_SIZE": 16 * 1024,  # bytes of a form field (the PIN form)
    "MAX_FORM_PARTS": 50,
    "PIN_MAX_FAILURES": 5,  # wrong PINs a client may make before it has to wait ...
    "PIN_DELAY_BASE": 1.0,  # ... this many seconds, doubling with every next wrong PIN ...
    "PIN_DELAY_MAX": 60.0,  # ... up to this
    "PIN_FAILURE_WINDOW": 60.0,  # a count is forgotten this long after its last wait
    "PIN_COOKIE_DAYS": 30,
    "JSON_SORT_KEYS": False,
}

SECRET_FILE = "web-secret.key"
PIN_FILE = "host-pin.txt"


@dataclass
class Companion:
    """Per-app objects: the session, the camera side, the stream shutdown, the PIN throttle.

    ``camera`` is the recognition loop (``companion.recognition.Recognizer``) or None
    when the companion runs without a camera; views use its ``snapshot()`` (preview)
    and ``confirm()`` (apply what the camera offers).
    """

    session: Session
    camera: Any = None
    stop: threading.Event = field(default_factory=threading.Event)
    failures: dict[str, Any] = field(default_factory=dict)  # client -> web.auth.Failures
    lock: threading.Lock = field(default_factory=threading.Lock)
    clock: Callable[[], float] = time.monotonic  # the PIN throttle's clock (tests: fake)
    streams: StreamSlots = field(default_factory=StreamSlots)  # open /api/events streams

    def shutdown(self) -> None:
        """Ask every open event stream to end (called when the server closes)."""
        self.stop.set()


def create_app(config: Mapping[str, Any] | None = None, *,
               session: Session | None = None, camera: Any = None) -> Flask:
    """Build the companion's Flask app.

    Parameters
    ----------
    config : overrides applied last (tests): DATA_DIR, PIN, SSE_KEEPALIVE, ...
    session : the running session; if None, one is built on ``DATA_DIR``'s journal.
    camera : the recognition loop, or None without a camera.
    """
    app = Flask(__name__)
    app.config.from_mapping(DEFAULTS)
    app.config.from_prefixed_env("COMPANION", loads=str)
    if config:
        app.config.from_mapping(config)
    _coerce_numbers(app)
    data_dir = Path(app.config["DATA_DIR"])
    data_dir.mkdir(parents=True, exist_ok=True)
    app.config["SECRET_KEY"] = _secret_key(data_dir)
    app.config["PIN"] = _pin(app.config["PIN"], data_dir)
    if session is None:
        session = Session(Journal(data_dir))
    app.extensions["companion"] = Companion(session=session, camera=camera)
    app.json.sort_keys = False  # type: ignore[attr-defined]

    from web import api, auth, calibrate, decks, history, pages, preview

    app.register_blueprint(api.bp)
    app.register_blueprint(decks.bp)
    app.register_blueprint(auth.bp)
    app.register_blueprint(pages.bp)
    app.register_blueprint(history.bp)
    app.register_blueprint(preview.bp)
    app.register_blueprint(calibrate.bp)
    _register_errors(app)
    app.after_request(_secure_headers)
    return app


def get_companion(app: Flask) -> Companion:
    """The per-app holder created by :func:`create_app`."""
    holder: Companion = app.extensions["companion"]
    return holder


def _coerce_numbers(app: Flask) -> None:
    """Environment values arrive as strings; turn the numeric settings into numbers.

    :raises ValueError: naming the setting, when one is not a number.
    """
    for key, kind in (("SSE_KEEPALIVE", float), ("SSE_MAX_SECONDS", float), ("SSE_POLL", float),
                      ("PIN_FAILURE_WINDOW", float), ("MAX_CONTENT_LENGTH", int),
                      ("PIN_DELAY_BASE", float), ("PIN_DELAY_MAX", float),
                      ("MAX_FORM_MEMORY_SIZE", int), ("MAX_FORM_PARTS", int),
                      ("PIN_MAX_FAILURES", int), ("PIN_COOKIE_DAYS", int),
                      ("SSE_MAX_STREAMS", int), ("SSE_HOST_STREAMS", int)):
        value = app.config.get(key)
        if not isinstance(value, str):
            continue
        if value.strip().lower() in ("", "none") and key == "SSE_MAX_SECONDS":
            app.config[key] = None
            continue
        try:
            app.config[key] = kind(value)
        except ValueError:
            raise ValueError(f"COMPANION_{key} must be a number, not {value!r}.") from None
    pin = app.config.get("PIN")
    if pin is not None:
        app.config["PIN"] = str(pin).strip() or None


def _secret_key(data_dir: Path) -> bytes:
    """The cookie-signing key of this data folder, created once (never a fixed "dev")."""
    path = data_dir / SECRET_FILE
    try:
        key = path.read_bytes()
        if len(key) >= 32:
            return key
    except FileNotFoundError:
        pass
    key = secrets.token_bytes(32)
    _write_private(path, key)
    return key


def _pin(pin: str | None, data_dir: Path) -> str:
    """The host PIN: the configured one, else a random one kept in the data folder."""
    if pin:
        return pin
    path = data_dir / PIN_FILE
    try:
        stored = path.read_text(encoding="utf-8").strip()
        if stored:
            return stored
    except FileNotFoundError:
        pass
    stored = f"{secrets.randbelow(10**6):06d}"
    _write_private(path, stored.encode())
    return stored


def _write_private(path: Path, data: bytes) -> None:
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "wb") as handle:
        handle.write(data)


#: Every page only loads its own scripts, styles and images, and may not be framed.
_HTML_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; style-src 'self'; "
                               "script-src 'self'; connect-src 'self'; frame-ancestors 'none'; "
                               "form-action 'self'; base-uri 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
}


def _secure_headers(response: Response) -> Response:
    """Add the page security headers to every HTML answer."""
    if response.mimetype == "text/html":
        for key, value in _HTML_HEADERS.items():
            response.headers.setdefault(key, value)
    else:
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
    return response


def _register_errors(app: Flask) -> None:
    """ActionError -> its status; any HTTPException -> JSON on /api, a page elsewhere."""

    @app.errorhandler(ActionError)
    def action_error(exc: ActionError) -> Any:
        return jsonify(error=str(exc)), getattr(exc, "status", 400)

    @app.errorhandler(HTTPException)
    def http_error(exc: HTTPException) -> Any:
        # keep the exception's own headers (Allow, Retry-After, Location), not its HTML type
        headers = [(k, v) for k, v in exc.get_headers() if k.lower() != "content-type"]
        if _wants_page():  # a mistyped address in a phone's browser: a page, not raw JSON
            page = render_template("error.html", sentence=_sentence(exc),
                                   heading=_HEADINGS.get(exc.code or 500, "Sorry"))
            return page, exc.code or 500, headers
        return jsonify(error=_sentence(exc)), exc.code or 500, headers

    @app.errorhandler(Exception)
    def unexpected(exc: Exception) -> Any:  # a safety net, not a substitute for validation
        log.exception("Unexpected error while answering a request")
        return jsonify(error="Something went wrong inside the companion; "
                             "nothing was changed. Please try again."), 500


_SENTENCES = {
    400: "The companion could not understand that request.",
    401: "Enter the host PIN first.",
    403: "That is not allowed.",
    404: "There is nothing at this address.",
    405: "That address does not accept this kind of request.",
    413: "That request is too large.",
    415: "Send the request as JSON.",
}


_HEADINGS = {404: "Not here", 405: "Not here"}


def _wants_page() -> bool:
    """A browser opening an address outside the API (it prefers HTML to JSON)."""
    if request.path.startswith("/api/") or request.method not in ("GET", "HEAD"):
        return False
    best = request.accept_mimetypes.best_match(["application/json", "text/html"])
    return best == "text/html"


def _sentence(exc: HTTPException) -> str:
    code = exc.code or 500
    if exc.description and code not in _SENTENCES:
        return str(exc.description)
    default_description = type(exc).description
    if exc.description and exc.description != default_description:
        return str(exc.description)
    return _SENTENCES.get(code, exc.name)
