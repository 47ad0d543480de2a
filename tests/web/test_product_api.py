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
