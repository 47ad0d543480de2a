"""Every action that names a player takes a name (any case) or a seat number, the same way.

One schema (``base.PLAYER``) and one resolver (``base.seat_of``) serve every game, so a host
page or script may send ``"player": "Cy"`` wherever it could send ``"player": 2``.
"""

from __future__ import annotations

import re

import pytest

from companion.errors import IllegalAction
from companion.games import GAMES, find_game
from companion.games import paper_tales, toss_your_cookies
from companion.games.base import PLAYER
from tests.support.rules import T0, apply_action, refused, replay

#: The action fields that name a player, in any game.
PLAYER_FIELDS = ("player", "target", "by")


def _fields() -> list[tuple[str, str, str]]:
    return [(game_id, kind, key) for game_id in GAMES
            for kind, doc in find_game(game_id).ACTIONS.items()
            for key in doc.properties if key in PLAYER_FIELDS]


@pytest.mark.parametrize(("game_id", "kind", "key"), _fields())
def test_every_field_that_names_a_player_takes_a_name_or_a_seat(game_id, kind, key):
    assert find_game(game_id).ACTIONS[kind].properties[key] == PLAYER


def test_the_games_that_took_only_seats_are_among_those_checked():
    checked = {(game_id, kind) for game_id, kind, _ in _fields()}
    assert {("toss-your-cookies", "claim"), ("toss-your-cookies", "snickerdoodle"),
            ("paper-tales", "deploy"), ("paper-tales", "build"), ("paper-tales", "gold"),
            ("paper-tales", "lp")} <= checked


WIN = ["chocolate-chip"] * 4 + ["wild", "milk", "half-eaten"]


@pytest.mark.parametrize("actions", [
    [{"type": "claim"}],
    [{"type": "snickerdoodle", "hand": WIN}],
    [{"type": "claim"}, {"type": "snickerdoodle"}],
])
@pytest.mark.parametrize("name", ["Cy", "cy", " CY "])
def test_toss_your_cookies_claims_take_a_name(actions, name):
    start = toss_your_cookies.new_game(["Ann", "Bob", "Cy", "Di"], {})
    by_seat = [{**a, "player": 2} for a in actions]
    by_name = [{**a, "player": name} for a in actions]
    assert replay(toss_your_cookies, start, by_name) == replay(toss_your_cookies, start,
                                                               by_seat)


def _paper_tales_at(phase: str) -> paper_tales.State:
    state = paper_tales.new_game(["Ann", "Bob", "Cy"], {})
    while paper_tales.PHASES[state.phase] != phase:
        state, _ = apply_action(paper_tales, state, {"type": "next"})
    return state


@pytest.mark.parametrize(("phase", "action"), [
    ("deployment", {"type": "deploy", "front": ["knight"], "back": ["archer"]}),
    ("construction", {"type": "build", "building": "mine"}),
    ("recruitment", {"type": "gold", "amount": 2}),
    ("recruitment", {"type": "lp", "amount": 3}),
])
def test_paper_tales_ledger_actions_take_a_name(phase, action):
    start = _paper_tales_at(phase)
    by_name, _ = apply_action(paper_tales, start, {**action, "player": "bob"})
    by_seat, _ = apply_action(paper_tales, start, {**action, "player": 1})
    assert by_name == by_seat != start


NAMED = "Nobody at this table is called 'Zed'; the players are Ann, Bob and Cy."


@pytest.mark.parametrize(("game_id", "action"), [
    ("toss-your-cookies", {"type": "claim", "player": "Zed"}),
    ("toss-your-cookies", {"type": "snickerdoodle", "player": "Zed"}),
    ("paper-tales", {"type": "gold", "player": "Zed", "amount": 1}),
    ("paper-tales", {"type": "deploy", "player": "Zed", "front": ["knight"]}),
    ("toss-up", {"type": "leave", "player": "Zed"}),
    ("sorry-21", {"type": "correct", "player": "Zed", "delta": 1, "reason": "slip"}),
    ("paper-toss", {"type": "bully", "target": "Zed"}),
])
def test_an_unknown_name_is_refused_with_a_line_naming_the_players(game_id, action):
    game = find_game(game_id)
    refused(game, game.new_game(["Ann", "Bob", "Cy"], {}), action, IllegalAction,
            f"^{re.escape(NAMED)}$")
