"""The JSON API of the contract: state, the SSE stream, games, actions, undo, OpenAPI.

Views parse with ``request.get_json(silent=True)``, call one session method and return
the new state. Refusals are raised as ``ActionError`` and turned into
``{"error": sentence}`` with their status by the app's error handler.
"""

from __future__ import annotations

from typing import Any, Iterator

from flask import Blueprint, current_app, jsonify, request

from companion.errors import InvalidAction, NotNow
from web.app import get_companion
from web.auth import host_required, is_host
from web.openapi import build_spec
from web.sse import parse_last_event_id, state_stream
from web.streams import open_capped

bp = Blueprint("api", __name__, url_prefix="/api")

_NO_STORE = {"Cache-Control": "no-store"}


def _body() -> dict[str, Any]:
    """The request's JSON object, or InvalidAction with a sentence."""
    try:
        data = request.get_json(silent=True)
    except RecursionError:  # absurdly deep nesting
        raise InvalidAction("That request is nested too deeply to be an action.") from None
    if data is None:
        if not request.is_json:
            raise InvalidAction("Send the request as JSON (Content-Type: application/json).")
        raise InvalidAction("That request is not valid JSON.")
    if not isinstance(data, dict):
        raise InvalidAction("The request must be a JSON object.")
    return data


def _session() -> Any:
    return get_companion(current_app).session


@bp.get("/state")
def state() -> Any:
    """The whole public state of the table."""
    return jsonify(_session().state()), 200, _NO_STORE


@bp.get("/events")
def events() -> Any:
    """The live state stream (Server-Sent Events); 503 + Retry-After when too many are open."""
    holder = get_companion(current_app)
    config = current_app.config
    last_seen = parse_last_event_id(request.headers.get("Last-Event-ID")
                                    or request.args.get("lastEventId"))

    def stream() -> Iterator[str]:
        return state_stream(holder.session, last_seen=last_seen,
                            keepalive=float(config["SSE_KEEPALIVE"]),
                            max_seconds=config["SSE_MAX_SECONDS"], stop=holder.stop,
                            poll=float(config["SSE_POLL"]))

    return open_capped(holder.streams, config, host=is_host(), stream=stream,
                       mimetype="text/event-stream",
                       headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})


@bp.post("/games")
@host_required
def start_game() -> Any:
    """Start a game: ``{"game": id, "players": [names], "options": {...}}``."""
    data = _body()
    if "game" not in data:
        raise InvalidAction("Say which game to start ('game').")
    if "players" not in data:
        raise InvalidAction("List the players in seat order ('players').")
    new = _session().start(data["game"], data["players"], data.get("options"))
    return jsonify(new), 201, _NO_STORE


@bp.post("/actions")
@host_required
def act() -> Any:
    """Apply one action of the running game."""
    return jsonify(_session().act(_body())), 200, _NO_STORE


@bp.post("/undo")
@host_required
def undo() -> Any:
    """Undo the last action of the running game; an optional ``{"version": n}`` body is the
    state the host saw (a stale one is refused with 409, so one mistake is undone once)."""
    data = request.get_json(silent=True) if request.content_length else None
    version = data.get("version") if isinstance(data, dict) else None
    return jsonify(_session().undo(version)), 200, _NO_STORE


@bp.post("/camera/confirm")
@host_required
def confirm_camera() -> Any:
    """Apply the action the camera offers (state["dice"]["offer"] or state["cards"]["offer"]):
    the host's one tap. An optional ``{"offer": {...}}`` body is the offer the host's screen
    showed; when the camera's offer is another by now, 409 and nothing is applied."""
    camera = get_companion(current_app).camera
    shown = _body().get("offer") if request.content_length else None
    if shown is not None and not isinstance(shown, dict):
        raise InvalidAction("'offer' must be the action the Confirm button showed (a JSON object).")
    if camera is None:
        raise NotNow("This companion runs without a camera.")
    return jsonify(camera.confirm(shown)), 200, _NO_STORE


@bp.get("/openapi.json")
def openapi() -> Any:
    """The OpenAPI 3.1 description of this API, every registered game included."""
    return jsonify(build_spec())
