"""Over HTTP: a player is named by name or seat in every game's actions; a name nobody at
the table has is a 400 whose one line names the players."""

from __future__ import annotations

import pytest


def test_paper_tales_gold_by_name_changes_that_players_realm(host):
    assert host.start(["Ann", "Bob", "Cy"], game="paper-tales").status_code == 201
    reply = host.act(type="gold", player="bob", amount=2)
    assert reply.status_code == 200, reply.get_json()
    assert [p["gold"] for p in reply.get_json()["players"]] == [3, 5, 3]


def test_a_toss_your_cookies_claim_by_name_names_that_player(host):
    assert host.start(["Ann", "Bob", "Cy"], game="toss-your-cookies").status_code == 201
    reply = host.act(type="claim", player="CY")
    assert reply.status_code == 200, reply.get_json()
    assert reply.get_json()["claim"]["name"] == "Cy"


@pytest.mark.parametrize(("game", "action"), [
    ("paper-tales", {"type": "deploy", "player": "Zed", "front": []}),
    ("toss-your-cookies", {"type": "snickerdoodle", "player": "Zed"}),
    ("toss-up", {"type": "correct", "player": "Zed", "delta": 1, "reason": "slip"}),
])
def test_an_unknown_name_is_a_400_naming_the_players(host, game, action):
    host.start(["Ann", "Bob", "Cy"], game=game)
    before = host.client.get("/api/state").get_json()["version"]
    reply = host.act(**action)
    assert reply.status_code == 400
    assert reply.get_json() == {"error": "Nobody at this table is called 'Zed'; the players "
                                         "are Ann, Bob and Cy."}
    assert host.client.get("/api/state").get_json()["version"] == before
