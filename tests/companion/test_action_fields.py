"""Every game refuses an action field it does not have (a typo is not silently dropped)."""

from __future__ import annotations

import pytest

from companion.errors import InvalidAction
from companion.games import GAMES, find_game
from companion.games.base import check_fields

PLAYERS = {"toss-up": ["Ann", "Ben"], "paper-toss": ["Ann", "Ben"],
           "toss-your-cookies": ["Ann", "Ben", "Cy"], "paper-tales": ["Ann", "Ben"],
           "sorry-21": ["Ann", "Ben"]}


def test_a_misspelt_field_is_refused_in_one_line_and_changes_nothing(empty_session):
    # {"type": "roll", "acton": "toss", "number": 2} was taken as a virtual "Swap 2"
    empty_session.start("toss-your-cookies", ["Ann", "Ben", "Cy"])
    before = empty_session.state()
    with pytest.raises(InvalidAction) as caught:
        empty_session.act({"type": "roll", "acton": "toss", "number": 2})
    assert str(caught.value) == ("A 'roll' action has no field 'acton' (its fields: "
                                 "'action', 'number', 'virtual').")
    assert empty_session.state() == before


@pytest.mark.parametrize("game_id", sorted(PLAYERS))
def test_every_game_refuses_a_field_its_action_does_not_have(empty_session, game_id):
    assert set(PLAYERS) == set(GAMES)
    empty_session.start(game_id, PLAYERS[game_id])
    before = empty_session.state()
    with pytest.raises(InvalidAction, match="has no field 'colour'"):
        empty_session.act({"type": "correct", "player": 0, "delta": 1, "reason": "x",
                           "colour": "red"})
    assert empty_session.state() == before


@pytest.mark.parametrize("game_id", sorted(PLAYERS))
def test_every_documented_example_and_the_common_fields_pass(game_id):
    module = find_game(game_id)
    for doc in module.ACTIONS.values():
        check_fields({**doc.example, "at": 1.0, "version": 3}, module.ACTIONS)
        check_fields({**doc.example, **{k: None for k in doc.properties}}, module.ACTIONS)


def test_an_unknown_type_is_left_for_the_game_to_name(empty_session):
    empty_session.start("toss-up", ["Ann", "Ben"])
    with pytest.raises(InvalidAction, match="Unknown action 'fly'"):
        empty_session.act({"type": "fly", "speed": 3})
