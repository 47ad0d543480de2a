"""The OpenAPI description: valid structure, and every action example of every registered
game is accepted by that game's own ``parse_action``."""

from __future__ import annotations

import re
from typing import Any

import pytest

from companion.games import GAMES, find_game
from companion.games.base import COMMON_FIELDS
from web.openapi import build_spec, json_type

_TYPES = {"object": dict, "array": list, "string": str, "boolean": bool, "null": type(None),
          "integer": int, "number": (int, float)}


def resolve(spec: dict[str, Any], ref: str) -> Any:
    assert ref.startswith("#/"), ref
    node: Any = spec
    for part in ref[2:].split("/"):
        node = node[part]
    return node


def validate(spec: dict[str, Any], schema: dict[str, Any], value: Any) -> list[str]:
    """Problems of ``value`` against the JSON Schema subset the description uses."""
    if "$ref" in schema:
        return validate(spec, resolve(spec, schema["$ref"]), value)
    if "oneOf" in schema:
        matches = [s for s in schema["oneOf"] if not validate(spec, s, value)]
        return [] if len(matches) == 1 else [f"{value!r} matches {len(matches)} of oneOf"]
    if "anyOf" in schema:
        ok = any(not validate(spec, s, value) for s in schema["anyOf"])
        return [] if ok else [f"{value!r} matches nothing of anyOf"]
    problems = []
    if "type" in schema:
        types = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
        ok = any(isinstance(value, _TYPES[t]) and not (t in ("integer", "number")
                                                       and isinstance(value, bool))
                 for t in types)
        if not ok:
            return [f"{value!r} is not {types}"]
    if "const" in schema and value != schema["const"]:
        problems.append(f"{value!r} != {schema['const']!r}")
    if "enum" in schema and value not in schema["enum"]:
        problems.append(f"{value!r} not in {schema['enum']}")
    if "minimum" in schema and value < schema["minimum"]:
        problems.append(f"{value!r} < minimum")
    if "maximum" in schema and value > schema["maximum"]:
        problems.append(f"{value!r} > maximum")
    if isinstance(value, list) and not schema.get("minItems", 0) <= len(value) <= schema.get(
            "maxItems", len(value)):
        problems.append(f"{len(value)} items is out of range")
    if isinstance(value, dict):
        problems += [f"missing {k}" for k in schema.get("required", []) if k not in value]
        for key, sub in value.items():
            if key in schema.get("properties", {}):
                problems += validate(spec, schema["properties"][key], sub)
            elif schema.get("additionalProperties") is False:
                problems.append(f"unexpected {key}")
    if isinstance(value, list) and "items" in schema:
        for item in value:
            problems += validate(spec, schema["items"], item)
    return problems


def all_refs(node: Any) -> list[str]:
    if isinstance(node, dict):
        found = [node["$ref"]] if "$ref" in node else []
        return found + [r for v in node.values() for r in all_refs(v)]
    if isinstance(node, list):
        return [r for v in node for r in all_refs(v)]
    return []


@pytest.fixture(scope="module")
def spec() -> dict[str, Any]:
    return build_spec()


def test_served_description_is_the_generated_one(client, spec):
    response = client.get("/api/openapi.json")
    assert response.status_code == 200
    assert response.get_json() == spec


def test_structure(spec):
    assert spec["openapi"].startswith("3.1")
    assert spec["info"]["title"] and spec["info"]["version"]
    expected = {"/api/state": {"get"}, "/api/events": {"get"}, "/api/games": {"post"},
                "/api/actions": {"post"}, "/api/undo": {"post"}, "/api/camera/confirm": {"post"},
                "/api/camera/calibrate": {"post"},
                "/api/openapi.json": {"get"}, "/api/camera/preview.jpg": {"get"},
                "/api/camera/preview.mjpeg": {"get"}, "/api/history": {"get"},
                "/api/history.json": {"get"}, "/api/history.csv": {"get"},
                "/api/history/players.csv": {"get"},
                "/api/decks": {"get"}, "/api/decks/{game}": {"get"},
                "/api/decks/{game}/{card}/capture": {"post"},
                "/api/decks/{game}/{card}/face.png": {"get"},
                "/api/decks/{game}/{card}": {"get", "delete"}}
    assert {path: set(ops) for path, ops in spec["paths"].items()} == expected
    for path, ops in spec["paths"].items():
        for op in ops.values():
            assert op["summary"] and op["responses"], path
    for path in ("/api/games", "/api/actions", "/api/undo"):
        op = spec["paths"][path]["post"]
        assert op["security"] and {"400", "401", "409"} <= set(op["responses"])
    for ref in all_refs(spec):
        assert resolve(spec, ref) is not None, ref
    state = spec["components"]["schemas"]["State"]
    assert {"game", "version", "players", "current", "over", "winners"} <= set(state["required"])


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_every_action_example_passes_its_game(spec, game_id):
    module = find_game(game_id)
    examples = spec["paths"]["/api/actions"]["post"]["requestBody"]["content"][
        "application/json"]["examples"]
    action_schema = {"$ref": "#/components/schemas/Action"}
    for action_type, doc in module.ACTIONS.items():
        key = f"{game_id}.{action_type}"
        schema = spec["components"]["schemas"][key]
        assert schema["properties"]["type"] == {"const": action_type}
        example = examples[key]["value"]
        assert example == dict(doc.example) and example["type"] == action_type
        assert validate(spec, schema, example) == []
        assert validate(spec, action_schema, example) == []
        # as the session does: it stamps "at" before parsing; raises if the example is wrong
        module.parse_action({**example, "at": 1_800_000_000.0})


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_every_field_the_server_takes_on_any_action_is_in_its_schema(spec, game_id):
    # "at" (the companion stamps its own) was missing: additionalProperties false refused
    # what the server accepts
    module = find_game(game_id)
    for action_type in module.ACTIONS:
        schema = spec["components"]["schemas"][f"{game_id}.{action_type}"]
        assert COMMON_FIELDS <= set(schema["properties"]), action_type
        example = dict(module.ACTIONS[action_type].example)
        assert validate(spec, schema, {**example, "at": 1_800_000_000.5, "version": 3}) == []


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_new_game_example_and_example_state(spec, client, host, game_id):
    op = spec["paths"]["/api/games"]["post"]
    example = op["requestBody"]["content"]["application/json"]["examples"][game_id]["value"]
    assert validate(spec, {"$ref": "#/components/schemas/NewGame"}, example) == []
    started = host.post("/api/games", example)
    assert started.status_code == 201, started.get_json()
    live = started.get_json()
    assert validate(spec, {"$ref": "#/components/schemas/State"}, live) == []
    documented = op["responses"]["201"]["content"]["application/json"]["examples"][game_id]
    assert set(documented["value"]) == set(live)


def test_validator_catches_mistakes(spec):
    roll = {"$ref": "#/components/schemas/toss-up.roll"}
    assert validate(spec, roll, {"type": "roll", "green": 3, "yellow": 4, "red": 3}) == []
    assert validate(spec, roll, {"type": "roll", "green": 3, "yellow": 4})
    assert validate(spec, roll, {"type": "roll", "green": True, "yellow": 4, "red": 3})
    assert validate(spec, roll, {"type": "roll", "green": 11, "yellow": 0, "red": 0})
    assert validate(spec, roll, {"type": "bank"})


@pytest.mark.parametrize("value,name", [(True, "boolean"), (3, "integer"), (0.5, "number"),
                                        ("x", "string"), ([1], "array"), ({}, "object"),
                                        (None, "null")])
def test_json_type(value, name):
    assert json_type(value) == name


def test_every_api_route_of_the_app_is_described(app, spec):
    """A route added to web/ without its description in web/openapi.py fails here."""
    routes: dict[str, set[str]] = {}
    for rule in app.url_map.iter_rules():
        if rule.rule.startswith("/api/"):
            path = re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", rule.rule)
            routes.setdefault(path, set()).update(
                m.lower() for m in rule.methods - {"HEAD", "OPTIONS"})
    assert "/api/camera/calibrate" in routes
    assert {path: set(ops) for path, ops in spec["paths"].items()} == routes
