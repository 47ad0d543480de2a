"""The pages: the phone scoreboard (``/``) and the host page (``/host``, behind the PIN).

Pages are thin shells; the JavaScript in ``static/`` renders the state it receives over
``/api/events``. The host page also gets the game catalogue (every registered game's
players range, options and actions) embedded as JSON, so a new game module is playable
from the host page before it has a panel of its own.
"""

from __future__ import annotations

import json
from pathlib import Path
from types import ModuleType
from typing import Any

from flask import Blueprint, Response, current_app, make_response, render_template, request
from jinja2.utils import htmlsafe_json_dumps

from companion.deck_teach import reads_cards
from companion.games.table_actions import actions
from web.auth import is_host
from web.openapi import loaded_games
from web.qr import join_url, lan_address, qr_svg

bp = Blueprint("pages", __name__)

#: Pages must never be cached: a phone that wakes up should get the current shell.
_HEADERS = {"Cache-Control": "no-cache"}


def game_catalog(modules: list[ModuleType] | None = None) -> list[dict[str, Any]]:
    """What the host page needs to know about each registered game, JSON-ready."""
    catalog = []
    for module in loaded_games() if modules is None else modules:
        catalog.append({
            "id": module.ID,
            "name": module.NAME,
            "min_players": int(getattr(module, "MIN_PLAYERS", 1)),
            "max_players": int(getattr(module, "MAX_PLAYERS", 12)),
            "options": dict(getattr(module, "OPTIONS", {}) or {}),
            "option_hints": dict(getattr(module, "OPTION_HINTS", {}) or {}),
            "camera": camera_reads(module),
            "cards": reads_cards(module),  # a deck to teach ("Teach cards" is offered)
            "actions": [{"type": kind, "summary": doc.summary,
                         "properties": dict(doc.properties), "required": list(doc.required),
                         "example": dict(doc.example)}
                        for kind, doc in actions(module).items()],
        })
    return catalog


def camera_reads(module: ModuleType) -> bool:
    """Whether the camera reads anything in this game: cards through the camera link's
    ``from_cards`` hook, or what it offers for the *next* button to confirm (Toss Up!'s dice)."""
    buttons = getattr(module, "BUTTONS", {}) or {}
    return hasattr(module, "from_cards") or "confirm" in buttons.values()


_STATIC = Path(__file__).parent / "static"


def extension_scripts(folder: str) -> list[str]:
    """Static paths of the per-game scripts in ``static/js/<folder>/`` (panels, host controls).

    Adding a game's panel is adding a file there; the pages load every one.
    """
    return [f"js/{folder}/{p.name}" for p in sorted((_STATIC / "js" / folder).glob("*.js"))]


def _page(template: str, **context: Any) -> Response:
    context.setdefault("panel_scripts", extension_scripts("panels"))
    context.setdefault("host_scripts", extension_scripts("host"))
    response = make_response(render_template(template, **context))
    response.headers.update(_HEADERS)
    return response


def scoreboard_url() -> str:
    """The address phones open: ``PUBLIC_URL`` if configured, else by IP from the Host header."""
    public = current_app.config.get("PUBLIC_URL") or None
    lan = None if public else lan_address()
    return join_url(request.host, scheme=request.scheme, public_url=public, lan=lan)


@bp.get("/")
def scoreboard() -> Response:
    """The phone scoreboard: live over SSE, readable across a table."""
    return _page("scoreboard.html", tv=request.args.get("tv") in ("1", "true", "yes"))


@bp.get("/tv")
def tv() -> Response:
    """The scoreboard for a big screen: larger type, a landscape layout, the join QR code."""
    return _page("scoreboard.html", tv=True)


@bp.get("/join.svg")
def join_svg() -> Response:
    """A QR code (SVG) of the scoreboard's address, to scan with a phone's camera."""
    response = make_response(qr_svg(scoreboard_url()))
    response.mimetype = "image/svg+xml"
    response.headers.update(_HEADERS)
    return response


@bp.get("/host")
def host() -> Response:
    """The host page, or the PIN form when this device has not logged in."""
    if not is_host():
        response = _page("login.html", error=None, next="/host")
        return response
    # in the games' own order (options as a game lists them, Paper Tales' phases in play
    # order), not sorted as the ``tojson`` filter would
    catalog = htmlsafe_json_dumps(game_catalog(), dumps=json.dumps)
    return _page("host.html", catalog=catalog, join=scoreboard_url())
