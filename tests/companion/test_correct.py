"""The ``correct`` action every game shares: a score correction with a reason, journaled."""

from __future__ import annotations

import pytest

from companion.errors import IllegalAction, InvalidAction, NotNow
from companion.games import GAMES, find_game
from companion.games.base import Correct, parse_correct
from companion.journal import Journal
from companion.session import Session

PLAYERS = {"toss-up": ["Ann", "Ben"], "paper-toss": ["Ann", "Ben"], "sorry-21": ["Ann", "Ben"],
           "toss-your-cookies": ["Ann", "Ben", "Cy"], "paper-tales": ["Ann", "Ben"]}
#: the score at which a correction is refused because it would win (None: no such score)
LIMIT = {"toss-up": None, "paper-toss": 10, "sorry-21": 4, "toss-your-cookies": 2,
         "paper-tales": None}


def scores(state: dict) -> list[int]:
    return [p["score"] for p in state["players"]]


def correct(player: int, delta: int, reason: str = "miscounted") -> dict:
    return {"type": "correct", "player": player, "delta": delta, "reason": reason}


def test_every_game_documents_correct():
    for game_id in GAMES:
        doc = find_game(game_id).ACTIONS["correct"]
        assert doc.required == ("player", "delta", "reason")


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_correction_changes_one_score_and_undo_takes_it_back(empty_session, game):
    empty_session.start(game, PLAYERS[game])
    state = empty_session.act(correct(1, 1, "forgot Ben's point"))
    assert scores(state)[:2] == [0, 1]
    assert state["events"] == [{"kind": "correct", "player": "Ben", "seat": 1, "delta": 1,
                                "reason": "forgot Ben's point", "total": 1}]
    assert state["recent"][-1]["reason"] == "forgot Ben's point"
    assert not state["over"]
    # the journal replays to the same state (a restart), and undo removes it
    again = Session(Journal(empty_session.journal.path.parent))
    assert scores(again.state()) == scores(state)
    again.journal.close()
    assert scores(empty_session.undo())[:2] == [0, 0]


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_correction_never_goes_below_zero_and_refusals_change_nothing(empty_session, game):
    before = empty_session.start(game, PLAYERS[game])
    with pytest.raises(IllegalAction, match="cannot go below 0"):
        empty_session.act(correct(0, -1))
    with pytest.raises(IllegalAction, match="no seat 7"):
        empty_session.act(correct(7, 1))
    assert empty_session.state()["version"] == before["version"]


@pytest.mark.parametrize("game", sorted(g for g in GAMES if LIMIT[g]))
def test_a_correction_cannot_win_the_game(empty_session, game):
    empty_session.start(game, PLAYERS[game])
    limit = LIMIT[game]
    with pytest.raises(IllegalAction, match="would win the game for Ann"):
        empty_session.act(correct(0, limit))
    assert scores(empty_session.act(correct(0, limit - 1)))[0] == limit - 1


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_correction_names_the_player_as_leave_does(empty_session, game):
    # correct took only a seat number while leave took a name too: now both take either.
    empty_session.start(game, PLAYERS[game])
    state = empty_session.act({**correct(0, 1), "player": "ben"})
    assert scores(state)[:2] == [0, 1] and state["events"][0]["seat"] == 1
    with pytest.raises(IllegalAction, match="Nobody at this table is called 'Zed'"):
        empty_session.act({**correct(0, 1), "player": "Zed"})


def test_no_correction_once_the_game_is_over(empty_session):
    empty_session.start("toss-up", ["Ann", "Ben"], {"target": 5})
    empty_session.act({"type": "roll", "green": 6, "yellow": 4, "red": 0})
    empty_session.act({"type": "bank"})
    assert empty_session.act({"type": "roll", "green": 0, "yellow": 5, "red": 5})["over"]
    with pytest.raises(NotNow, match="undo the last action first"):
        empty_session.act(correct(1, 3))


@pytest.mark.parametrize("data, sentence", [
    ({"player": 0, "delta": 0, "reason": "x"}, "changes nothing"),
    ({"player": 0, "delta": 2}, "Say why"),
    ({"player": 0, "delta": 2, "reason": "   "}, "Say why"),
    ({"player": 0, "delta": 2, "reason": "x" * 201}, "200 characters"),
    ({"player": "  ", "delta": 2, "reason": "x"}, "'player' must be a player's name or seat"),
    ({"player": 1.5, "delta": 2, "reason": "x"}, "'player' must be a player's name or seat"),
    ({"player": 0, "delta": 1.5, "reason": "x"}, "'delta' must be a whole number"),
    ({"player": 0, "delta": 5000, "reason": "x"}, "'delta' must be between"),
])
def test_malformed_corrections_are_refused_with_a_sentence(data, sentence):
    with pytest.raises(InvalidAction, match=sentence):
        parse_correct({"type": "correct", **data})


def test_parse_correct_strips_the_reason():
    assert parse_correct(correct(2, -3, "  typo  ")) == Correct(2, -3, "typo")
