"""Renaming a player: one action, the same in every game (companion/games/table_actions.py)."""

from __future__ import annotations

import pytest

from companion.errors import IllegalAction, InvalidAction, NotNow
from companion.games import GAMES
from companion.history import replay_result
from companion.journal import Journal
from companion.session import Session

PLAYERS = {"toss-up": ["Ann", "Bea"], "paper-toss": ["Ann", "Bea"],
           "toss-your-cookies": ["Ann", "Bea", "Cy"], "paper-tales": ["Ann", "Bea"],
           "sorry-21": ["Ann", "Bea"]}


@pytest.mark.parametrize("game_id", sorted(PLAYERS))
@pytest.mark.parametrize("ref", [1, "bea"])
def test_a_player_is_renamed_by_seat_or_name_in_every_game(tmp_path, clock, game_id, ref):
    assert set(PLAYERS) == set(GAMES)
    journal = Journal(tmp_path)
    session = Session(journal, clock=clock)
    session.start(game_id, PLAYERS[game_id])
    state = session.act({"type": "rename", "player": ref, "name": " Ben "})
    assert [p["name"] for p in state["players"]][:2] == ["Ann", "Ben"]
    assert state["events"] == [{"kind": "rename", "seat": 1, "was": "Bea", "name": "Ben"}]
    assert session.act({"type": "correct", "player": "ben", "delta": 1,
                        "reason": "x"})["players"][1]["score"] == 1, "the new name is known"
    journal.close()
    with Journal(tmp_path) as again:  # the journal replays the rename
        assert Session(again, clock=clock).state()["players"][1]["name"] == "Ben"
        record = again.current_game()
        assert replay_result(record, [d for _, d in again.actions(record.id)]).players[1] == "Ben"


def test_undo_takes_a_rename_back(empty_session):
    empty_session.start("toss-up", ["Ann", "Bea"])
    empty_session.act({"type": "rename", "player": 1, "name": "Ben"})
    assert [p["name"] for p in empty_session.undo()["players"]] == ["Ann", "Bea"]


@pytest.mark.parametrize("data, error, match", [
    ({"player": 1, "name": "ann"}, IllegalAction, "^Ann is already at this table; choose "),
    ({"player": 1, "name": "A\u200bnn"}, IllegalAction, "Ann is already at this table"),
    ({"player": 1, "name": "Bea"}, IllegalAction, "^Bea is already called that.$"),
    ({"player": 1, "name": "x" * 41}, InvalidAction, "too long .40 characters at most"),
    ({"player": 1, "name": "  "}, InvalidAction, "^Every player needs a name.$"),
    ({"player": 1, "name": "B\nen"}, InvalidAction, "control characters"),
    ({"player": 1, "name": 7}, InvalidAction, "^'name' must be the player's new name.$"),
    ({"player": 5, "name": "Ben"}, IllegalAction, "^There is no seat 5"),
    ({"player": "Zed", "name": "Ben"}, IllegalAction, "^Nobody at this table is called"),
    ({"name": "Ben"}, InvalidAction, "'player' must be"),
    ({"player": 1, "name": "Ben", "nick": "B"}, InvalidAction, "has no field 'nick'"),
])
def test_a_new_name_follows_the_rules_of_a_name_at_the_start(empty_session, data, error,
                                                              match):
    empty_session.start("toss-up", ["Ann", "Bea"])
    before = empty_session.state()
    with pytest.raises(error, match=match):
        empty_session.act({"type": "rename", **data})
    assert empty_session.state() == before


def test_a_family_emoji_counts_as_one_character_of_forty(empty_session):
    empty_session.start("toss-up", ["Ann", "Bea"])
    family = "\U0001F468\u200D\U0001F469\u200D\U0001F467"
    name = "x" * 39 + family
    assert empty_session.act({"type": "rename", "player": 0, "name": name}
                             )["players"][0]["name"] == name


def test_no_rename_once_the_game_is_over(empty_session):
    empty_session.start("toss-up", ["Ann", "Bea"], {"target": 5})
    empty_session.act({"type": "roll", "green": 6, "yellow": 4, "red": 0})
    assert empty_session.act({"type": "bank"})["over"] is False
    empty_session.act({"type": "roll", "green": 1, "yellow": 9, "red": 0})
    assert empty_session.act({"type": "bank"})["over"] is True
    with pytest.raises(NotNow, match="The game is over"):
        empty_session.act({"type": "rename", "player": 0, "name": "Anna"})


@pytest.mark.parametrize("ref", [1, "bea"])
def test_the_recent_list_keeps_the_name_a_rename_replaced(tmp_path, clock, ref):
    # The host's Recent line read "Renamed seat 2 to Ben": by then seat 2 was Ben.
    journal = Journal(tmp_path)
    session = Session(journal, clock=clock)
    session.start("toss-up", ["Ann", "Bea"])
    session.act({"type": "rename", "player": ref, "name": "Ben"})
    live = session.state()["recent"][-1]
    assert (live["player"], live["was"], live["name"]) == (ref, "Bea", "Ben")
    journal.close()
    with Journal(tmp_path) as again:  # a restart lists it the same
        assert Session(again, clock=clock).state()["recent"][-1] == live
