"""The OpenAPI 3.1 description of the HTTP API, generated from the game registry.

Every registered game contributes one schema and one example per action (from its
``ACTIONS``), an options schema (from ``OPTIONS``), and an example state (its
``public_state`` right after ``new_game``). Nothing here knows a particular game.
"""

from __future__ import annotations

import logging
from types import ModuleType
from typing import Any, Iterable, Mapping

from companion.games import GAMES, find_game
from companion.games.table_actions import actions

log = logging.getLogger(__name__)

SAMPLE_NAMES = ("Ann", "Ben", "Cleo", "Dev", "Eve", "Finn", "Gus", "Hana")


def loaded_games(ids: Iterable[str] | None = None) -> list[ModuleType]:
    """The rules modules of the registry (those that import cleanly), in registry order."""
    modules = []
    for game_id in (GAMES if ids is None else ids):
        try:
            modules.append(find_game(game_id))
        except Exception:  # a half-written module must not take the API description down
            log.exception("Game module %r could not be loaded", game_id)
    return modules


def json_type(value: Any) -> str:
    """The JSON Schema type name of a Python default value."""
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, (list, tuple)):
        return "array"
    if value is None:
        return "null"
    return "object"


def schema_key(module: ModuleType, action_type: str) -> str:
    """Component name of one action's schema, e.g. ``toss-up.roll``."""
    return f"{module.ID}.{action_type}"


def action_schema(module: ModuleType, action_type: str) -> dict[str, Any]:
    """JSON Schema of one action of a game, with its example."""
    doc = actions(module)[action_type]
    return {
        "title": f"{module.NAME}: {action_type}",
        "description": doc.summary,
        "type": "object",
        "properties": {"type": {"const": action_type}, "at": _STAMPED_AT,
                       **dict(doc.properties), "version": _SEEN_VERSION},  # COMMON_FIELDS
        "required": ["type", *doc.required],
        "additionalProperties": False,  # a misspelt field is refused (base.check_fields)
        "examples": [dict(doc.example)],
    }


#: The time stamp any action may carry and the companion replaces (companion/session.py act).
_STAMPED_AT = {"type": "number",
               "description": "Optional and ignored: the companion stamps every action with "
                              "its own clock (epoch seconds) when it takes it."}

#: The optional guard every action and undo may carry (companion/session.py check_version).
_SEEN_VERSION = {"type": "integer", "minimum": 0,
                 "description": "Optional: the state version the sender saw. When the game has "
                                "moved on since (another host, a double tap), nothing changes "
                                "and the reply is 409 with what moved it on: 'Ann's roll was "
                                "just recorded: look again before you tap.'"}


#: The optional guard of a camera confirmation (companion/camera_link.py confirm).
_SHOWN_OFFER = {"type": "object",
                "description": "Optional: the offer the host's screen showed, as the state gave "
                               "it. When the camera has read the table again since and offers "
                               "something else, nothing is applied and the reply is 409 "
                               "\"The camera's reading changed: look again ...\". Without it "
                               "the camera's offer of the moment is applied."}


def options_schema(module: ModuleType) -> dict[str, Any]:
    """JSON Schema of a game's options object (every option optional, with its default)."""
    options = getattr(module, "OPTIONS", {}) or {}
    return {
        "title": f"{module.NAME} options",
        "type": "object",
        "properties": {name: _option_schema(default) for name, default in options.items()},
        "additionalProperties": False,
    }


def _option_schema(default: Any) -> dict[str, Any]:
    """An option's schema from its default; a None default (automatic) allows any value."""
    if default is None:
        return {"default": None, "description": "null: worked out by the game"}
    return {"type": json_type(default), "default": default}


def new_game_schema(module: ModuleType) -> dict[str, Any]:
    """JSON Schema of the body that starts ``module``'s game."""
    low, high = getattr(module, "MIN_PLAYERS", 1), getattr(module, "MAX_PLAYERS", 99)
    return {
        "title": f"Start {module.NAME}",
        "type": "object", "required": ["game", "players"],
        "properties": {
            "game": {"const": module.ID},
            "players": {"type": "array", "minItems": low, "maxItems": high,
                        "items": {"type": "string", "minLength": 1, "maxLength": 40},
                        "description": "Names in seat order; the first seat starts."},
            "options": {"$ref": f"#/components/schemas/{module.ID}.options"},
        },
    }


def example_state(module: ModuleType) -> dict[str, Any] | None:
    """The public state of a new game with the fewest players, as an example."""
    names = list(SAMPLE_NAMES[:max(int(getattr(module, "MIN_PLAYERS", 2)), 1)])
    try:
        state = dict(module.public_state(module.new_game(names, {})))
    except Exception:
        log.exception("Could not build an example state for %s", module.ID)
        return None
    state.update(name=module.NAME, version=1, events=[{"kind": "new-game", "game": module.ID}],
                 recent=[])
    return state


def build_spec(modules: list[ModuleType] | None = None) -> dict[str, Any]:
    """The whole OpenAPI 3.1 document for ``modules`` (default: every registered game)."""
    if modules is None:
        modules = loaded_games()
    schemas: dict[str, Any] = {**_base_schemas(modules)}
    action_refs = []
    action_examples: dict[str, Any] = {}
    game_examples: dict[str, Any] = {}
    state_examples: dict[str, Any] = {}
    for module in modules:
        schemas[f"{module.ID}.options"] = options_schema(module)
        schemas[f"{module.ID}.new-game"] = new_game_schema(module)
        low, high = getattr(module, "MIN_PLAYERS", 1), getattr(module, "MAX_PLAYERS", 99)
        game_examples[module.ID] = {
            "summary": f"{module.NAME} ({low}-{high} players)",
            "value": {"game": module.ID, "players": list(SAMPLE_NAMES[:low]),
                      "options": dict(getattr(module, "OPTIONS", {}) or {})}}
        state = example_state(module)
        if state is not None:
            state_examples[module.ID] = {"summary": f"A new game of {module.NAME}",
                                         "value": state}
        for action_type, doc in actions(module).items():
            key = schema_key(module, action_type)
            schemas[key] = action_schema(module, action_type)
            action_refs.append({"$ref": f"#/components/schemas/{key}"})
            action_examples[key] = {"summary": f"{module.NAME}: {doc.summary}",
                                    "value": dict(doc.example)}
    schemas["Action"] = {"description": "One action of the running game (the games' "
                                        "actions may share a shape, hence anyOf).",
                         "anyOf": action_refs or [{"type": "object"}]}
    return {
        "openapi": "3.1.0",
        "info": {"title": "Play companion API", "version": "1",
                 "description": _INTRO},
        "servers": [{"url": "/"}],
        "paths": _paths(game_examples, action_examples, state_examples),
        "components": {
            "schemas": schemas,
            "securitySchemes": {
                "pin": {"type": "http", "scheme": "bearer",
                        "description": "The host PIN as a bearer token."},
                "pinCookie": {"type": "apiKey", "in": "cookie", "name": "companion_host",
                              "description": "Set by POST /login on the host page."}},
            "responses": _responses(),
        },
    }


_INTRO = (
    "The table's state as JSON and as a live Server-Sent Events stream. Anyone on the "
    "network may read; host calls need the PIN. Refusals carry {\"error\": sentence}: "
    "400 malformed or against the rules, 401 no or wrong PIN, 409 valid but not now, "
    "503 the companion could not save. The state is unchanged after any refusal."
)


def _base_schemas(modules: list[ModuleType]) -> dict[str, Any]:
    ids = [m.ID for m in modules]
    return {
        "Error": {"type": "object", "required": ["error"],
                  "properties": {"error": {"type": "string",
                                           "description": "A sentence a player understands."}}},
        "Player": {"type": "object", "required": ["name", "score"],
                   "properties": {"name": {"type": "string"}, "score": {"type": "integer"}}},
        "State": {
            "type": "object",
            "description": "The whole public state. Each game adds its own fields "
                           "(see the examples per game).",
            "required": ["game", "version", "players", "current", "over", "winners"],
            "properties": {
                "game": {"type": ["string", "null"], "enum": [*ids, None]},
                "name": {"type": "string", "description": "The game's display name."},
                "version": {"type": "integer", "minimum": 0,
                            "description": "Grows by one with every change."},
                "players": {"type": "array",
                            "items": {"$ref": "#/components/schemas/Player"}},
                "current": {"type": ["integer", "null"],
                            "description": "Seat of the player to act; null when all act."},
                "over": {"type": "boolean"},
                "winners": {"type": "array", "items": {"type": "string"}},
                "result": {"type": ["object", "null"],
                           "description": "Null until over: {winners, order: [{name, score, "
                                          "won, left}] winners first, why: sentence or null}."},
                "events": {"type": "array", "items": {"type": "object"},
                           "description": "Cues of the change that made this version."},
                "recent": {"type": "array", "items": {"type": "object"},
                           "description": "The latest actions, oldest first (for undo)."},
            },
        },
        "NewGame": {"description": "Start a game: its id, the players in seat order, "
                               "and options (defaults apply to those left out).",
                    "oneOf": [{"$ref": f"#/components/schemas/{i}.new-game"} for i in ids]
                    or [{"type": "object"}]},
    }


def _json(schema: str, examples: Mapping[str, Any] | None = None) -> dict[str, Any]:
    body: dict[str, Any] = {"schema": {"$ref": f"#/components/schemas/{schema}"}}
    if examples:
        body["examples"] = dict(examples)
    return {"application/json": body}


def _error(text: str) -> dict[str, Any]:
    """A response described by ``text`` whose body is the ``Error`` schema."""
    return {"description": text, "content": _json("Error")}


def _responses() -> dict[str, Any]:
    return {"BadRequest": _error("Malformed, or against the rules; nothing changed."),
            "Unauthorized": _error("No PIN or a wrong PIN; nothing changed."),
            "NotNow": _error("Valid, but not at this moment; nothing changed."),
            "Unavailable": _error("The companion could not save; nothing changed.")}


def _paths(game_examples: dict[str, Any], action_examples: dict[str, Any],
           state_examples: dict[str, Any]) -> dict[str, Any]:
    refusals = {code: {"$ref": f"#/components/responses/{name}"} for code, name in
                (("400", "BadRequest"), ("401", "Unauthorized"), ("409", "NotNow"),
                 ("503", "Unavailable"))}
    host: list[dict[str, list[str]]] = [{"pin": []}, {"pinCookie": []}]

    def host_call(summary: str, ok: str, body: dict[str, Any] | None) -> dict[str, Any]:
        op: dict[str, Any] = {"summary": summary, "security": host, "responses": {
            ok: {"description": "The new state.", "content": _json("State", state_examples)},
            **refusals}}
        if body is not None:
            op["requestBody"] = {"required": True, "content": body}
        return op

    stream = ("Server-Sent Events. At connect and on every change: `event: state`, "
              "`id: <version>`, `data: <state JSON>`; `: keep-alive` comments on a quiet "
              "stream. Send Last-Event-ID to skip the state you already have.")
    return {
        "/api/state": {"get": {"summary": "The whole public state of the table.",
                               "responses": {"200": {"description": "The state.",
                                                     "content": _json("State",
                                                                      state_examples)}}}},
        "/api/events": {"get": {
            "summary": "Live state stream.", "description": stream,
            "parameters": [{"name": "Last-Event-ID", "in": "header", "required": False,
                            "schema": {"type": "string"}}],
            "responses": {"200": {"description": "An endless event stream.",
                                  "content": {"text/event-stream": {
                                      "schema": {"type": "string"}}}},
                          "503": _error(_BUSY)}}},
        "/api/games": {"post": host_call("Start a new game.", "201",
                                         _json("NewGame", game_examples))},
        "/api/actions": {"post": host_call("Apply one action of the running game.", "200",
                                           _json("Action", action_examples))},
        "/api/undo": {"post": {**host_call("Undo the last action.", "200", None),
                               "requestBody": {"required": False, "content": {
                                   "application/json": {"schema": {
                                       "type": "object",
                                       "properties": {"version": _SEEN_VERSION}}}}}}},
        "/api/camera/confirm": {"post": {**host_call(
            "Apply the action the camera offers (state.dice.offer, or state.cards.offer in a "
            "card game); 409 when none is offered.", "200", None),
            "requestBody": {"required": False, "content": {"application/json": {"schema": {
                "type": "object", "properties": {"offer": _SHOWN_OFFER}}}}}}},
        **_calibrate_path(host),
        **_preview_paths(host),
        **_deck_paths(host),
        **_history_paths(),
        "/api/openapi.json": {"get": {"summary": "This description.",
                                      "responses": {"200": {"description": "OpenAPI 3.1"}}}},
    }


def _history_paths() -> dict[str, Any]:
    """Finished and running games' results, and their exports (web/history.py)."""
    def get(summary: str, media: str) -> dict[str, Any]:
        body = {"schema": {"type": "object"}} if media == "application/json" else \
            {"schema": {"type": "string"}}
        return {"get": {"summary": summary,
                        "responses": {"200": {"description": summary, "content": {media: body}}}}}

    return {
        "/api/history": get("Every game's result (newest first) and per-player statistics "
                            "per game.", "application/json"),
        "/api/history.json": get("The same as /api/history, as a file to download.",
                                 "application/json"),
        "/api/history.csv": get("One row per player per game, as CSV.", "text/csv"),
        "/api/history/players.csv": get("Per game and player: played, wins, win rate, "
                                        "average and best score, as CSV.", "text/csv"),
    }


#: Past the cap on open streams (event streams and camera previews together).
_BUSY = ("Too many streams are open (web/streams.py: event streams and camera previews "
         "together); try again after Retry-After seconds.")


def _calibrate_path(host: list[dict[str, list[str]]]) -> dict[str, Any]:
    """The host page's "Calibrate from the camera" button (web/calibrate.py); host only."""
    return {"/api/camera/calibrate": {"post": {
        "summary": "Learn this table's dice from the camera's latest picture (host only).",
        "description": "The same check and sentence as `companion calibrate IMAGE`; the "
                       "calibration is stored in the data folder's companion.toml and the "
                       "running reader uses it at once.",
        "security": host, "responses": {
            "200": _answer("What was learnt.", {
                "type": "object", "required": ["message"],
                "properties": {"message": {"type": "string"}}}),
            "400": _error("The picture cannot teach (too few dice, not Toss Up! dice), or "
                          "the calibration could not be stored; the sentence says what to do."),
            "401": {"$ref": "#/components/responses/Unauthorized"},
            "404": _error("The companion runs without a camera."),
            "409": _error("The camera has not delivered a picture yet.")}}}}


def _preview_paths(host: list[dict[str, list[str]]]) -> dict[str, Any]:
    """The host's live camera preview (web/preview.py): one JPEG, or an MJPEG stream."""
    refusals = {"401": {"$ref": "#/components/responses/Unauthorized"},
                "404": _error("The companion runs without a camera.")}
    picture = ("The latest camera frame, shrunk to 480 pixels wide, with the latest reading "
               "drawn on it: dice outlined in the colour read, cards outlined and named.")
    return {
        "/api/camera/preview.jpg": {"get": {
            "summary": "One preview picture (host only).", "description": picture,
            "security": host, "responses": {
                "200": {"description": "A JPEG.",
                        "content": {"image/jpeg": {"schema": {"type": "string",
                                                              "format": "binary"}}}},
                **refusals,
                "409": _error("The camera has not delivered a picture yet.")}}},
        "/api/camera/preview.mjpeg": {"get": {
            "summary": "Live preview stream (host only).",
            "description": picture + " A JPEG part for every new picture, at most 5 a "
                                     "second; the same again once a second when still.",
            "security": host,
            "parameters": [{"name": "frames", "in": "query", "required": False,
                            "description": "End the stream after this many pictures.",
                            "schema": {"type": "integer", "minimum": 1,
                                       "maximum": 100000}}],
            "responses": {
                "200": {"description": "multipart/x-mixed-replace; boundary=frame",
                        "content": {"multipart/x-mixed-replace": {
                            "schema": {"type": "string", "format": "binary"}}}},
                "400": {"$ref": "#/components/responses/BadRequest"},
                **refusals, "503": _error(_BUSY)}}},
    }


def _deck_paths(host: list[dict[str, list[str]]]) -> dict[str, Any]:
    """Teaching a game's deck from the host page (web/decks.py); host only."""
    from companion.deck_teach import card_faces, card_games

    ids = [game for game, _ in card_games()]
    game = {"name": "game", "in": "path", "required": True,
            "description": "A game that reads cards.", "schema": {"type": "string", "enum": ids}}
    cards = sorted({f.id for g in ids for f in card_faces(g)})
    card = {"name": "card", "in": "path", "required": True,
            "description": "One of the game's card ids (its module's CARDS); another "
                           "game's card, or anything else, is 404.",
            "schema": {"type": "string", "enum": cards}}
    face, deck = _face_and_deck_schemas()
    refusals = {"401": {"$ref": "#/components/responses/Unauthorized"},
                "404": _error("No such game with cards, or no such card in it.")}
    capture = ("Learn the card from the camera's latest picture: exactly one card must lie "
               "in view. The card is found, rectified upright (400 pixels high) and saved as "
               "<card>.png in the game's deck folder, replacing an earlier face of it.")
    return {
        "/api/decks": {"get": {
            "summary": "Each game that reads cards, and how many faces are taught (host only).",
            "security": host, "responses": {
                "200": _answer("The card games.", {"type": "object", "properties": {
                    "games": {"type": "array", "items": {"type": "object"}}}}),
                "401": refusals["401"]}}},
        "/api/decks/{game}": {"get": {
            "summary": "A game's card faces, each taught or not (host only).",
            "security": host, "parameters": [game],
            "responses": {"200": _answer("The deck.", deck), **refusals}}},
        "/api/decks/{game}/{card}/capture": {"post": {
            "summary": "Teach one card from the camera (host only).", "description": capture,
            "security": host, "parameters": [game, card], "responses": {
                "201": _answer("The face saved, and the deck.", {"type": "object", "properties": {
                    "card": face, "deck": deck}}),
                **refusals,
                "409": _error("No camera or no picture yet, no card in view, or more than "
                              "one card in view (one sentence says which)."),
                "503": _error("The deck folder could not be written.")}}},
        "/api/decks/{game}/{card}/face.png": {"get": {
            "summary": "The card's saved face (host only).", "security": host,
            "parameters": [game, card], "responses": {
                "200": {"description": "A PNG.", "content": {"image/png": {
                    "schema": {"type": "string", "format": "binary"}}}},
                **refusals}}},
        "/api/decks/{game}/{card}": {"get": {
            "summary": "One card face: taught or not, and its picture (host only).",
            "security": host, "parameters": [game, card],
            "responses": {"200": _answer("The face.", face), **refusals}}, "delete": {
            "summary": "Forget the card's face (host only).", "security": host,
            "parameters": [game, card], "responses": {
                "200": _answer("The deck.", deck), **refusals,
                "503": _error("The deck folder could not be written.")}}},
    }


def _face_and_deck_schemas() -> tuple[dict[str, Any], dict[str, Any]]:
    """The JSON schemas of one taught face and of a game's deck (web/decks.py)."""
    face = {"type": "object", "required": ["id", "name", "taught", "photos", "image"],
            "properties": {"id": {"type": "string"}, "name": {"type": "string"},
                           "taught": {"type": "boolean"},
                           "photos": {"type": "integer", "minimum": 0},
                           "image": {"type": ["string", "null"],
                                     "description": "Address of the saved face (PNG)."}}}
    deck = {"type": "object", "required": ["game", "name", "total", "taught", "faces", "camera"],
            "properties": {"game": {"type": "string"}, "name": {"type": "string"},
                           "total": {"type": "integer"}, "taught": {"type": "integer"},
                           "faces": {"type": "array", "items": face},
                           "camera": {"type": "boolean"},
                           "learn_command": {
                               "type": "string",
                               "description": "The command that teaches this game's faces "
                                              "from a folder of photos into this "
                                              "companion's data folder."}}}
    return face, deck


def _answer(text: str, schema: dict[str, Any]) -> dict[str, Any]:
    """A 2xx response described by ``text`` whose JSON body follows ``schema``."""
    return {"description": text, "content": {"application/json": {"schema": schema}}}
