"""What a new user met over HTTP on a real local server: refusals that read as sentences
(never Python's ``None``), and nothing changed by them."""

from __future__ import annotations

from typing import Any

import pytest

GAMES = ["toss-up", "paper-toss", "toss-your-cookies", "paper-tales", "sorry-21"]
PLAYERS = ["Ann", "Ben", "Cy"]


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("action", [{}, {"type": None}, {"type": ""}, {"type": 7},
                                    {"type": ["roll"]}, {"green": 3}])
def test_an_action_without_a_type_is_refused_in_words(live_server, game, action: dict[str, Any]):
    assert live_server.request("POST", "/api/games", {"game": game, "players": PLAYERS})[0] == 201
    before = live_server.request("GET", "/api/state")[1]
    status, body = live_server.request("POST", "/api/actions", action)
    assert status == 400
    error = body["error"]
    assert error.startswith('An action needs a "type", one of: '), error
    assert "None" not in error and "[" not in error
    assert "correct" in error, "the list names the actions this game takes"
    assert live_server.request("GET", "/api/state")[1]["version"] == before["version"]


@pytest.mark.parametrize("game", GAMES)
def test_a_missing_or_null_field_is_named_in_words(live_server, game):
    # Paper Toss said "None is not a Counter", Sorry! "None is not a card for this pile"
    assert live_server.request("POST", "/api/games", {"game": game, "players": PLAYERS})[0] == 201
    spec = live_server.request("GET", "/api/openapi.json")[1]
    examples = [schema["examples"][0] for name, schema in spec["components"]["schemas"].items()
                if name.startswith(game + ".") and schema.get("examples")
                and "type" in schema["examples"][0]]
    assert examples, "the OpenAPI description gives an example of each action"
    version = live_server.request("GET", "/api/state")[1]["version"]
    said = []
    for example in examples:
        fields = [k for k in example if k != "type"]
        for body in [{"type": example["type"]}] + [{**example, k: None} for k in fields]:
            status, answer = live_server.request("POST", "/api/actions", body)
            if status == 200:  # e.g. a virtual roll, or a timer started: the game moves on
                version = answer["version"]
                continue
            assert status in (400, 409), (body, answer)
            said.append((body, answer["error"]))
            assert live_server.request("GET", "/api/state")[1]["version"] == version, body
    for body, error in said:
        assert "None" not in error and "\n" not in error, (body, error)
    assert said
