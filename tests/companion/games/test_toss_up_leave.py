"""Toss Up!: a player who leaves the table (the digest is silent; the companion's ruling).

Their total stays on the board, their seat is skipped, they are owed no last turn and
cannot win; leaving on one's own turn loses that turn's points; two players must stay.
"""

from __future__ import annotations

import pytest

from companion.errors import IllegalAction, InvalidAction, NotNow
from companion.games import toss_up as game
from tests.support.rules import replay


def play(state, *actions):
    return replay(game, state, list(actions), at=None)


def roll(g, y, r):
    return {"type": "roll", "green": g, "yellow": y, "red": r}


BANK = {"type": "bank"}


def leave(who):
    return {"type": "leave", "player": who}


def test_a_player_who_leaves_is_skipped_and_keeps_the_total_on_the_board():
    state = play(game.new_game(["Ann", "Ben", "Cy"]), roll(3, 7, 0), BANK, roll(2, 8, 0), BANK)
    state = play(state, leave("Ben"))
    view = game.public_state(state)
    assert [p["left"] for p in view["players"]] == [False, True, False]
    assert [p["score"] for p in view["players"]] == [3, 2, 0]
    assert view["current"] == 2  # Cy's turn is not disturbed
    state = play(state, roll(1, 9, 0), BANK)
    assert game.public_state(state)["current"] == 0
    state = play(state, roll(1, 9, 0), BANK)
    assert game.public_state(state)["current"] == 2, "Ben's seat is skipped"


def test_leaving_on_ones_own_turn_loses_its_points_and_passes_the_dice():
    state = play(game.new_game(["Ann", "Ben", "Cy"]), roll(4, 6, 0))
    state = play(state, leave(0))
    view = game.public_state(state)
    assert view["players"][0]["score"] == 0
    assert view["current"] == 1 and view["turn"]["points"] == 0
    assert view["turn"]["dice_in_hand"] == 10


def test_a_player_who_left_is_owed_no_last_turn_and_cannot_win():
    state = game.new_game(["Ann", "Ben", "Cy"], {"target": 5})
    state = play(state, roll(6, 4, 0), BANK)  # Ann passes 5: Ben and Cy get a last turn
    state = play(state, leave("Cy"))
    assert game.public_state(state)["final_turns"] == ["Ben"]
    state = play(state, roll(2, 8, 0), BANK)
    view = game.public_state(state)
    assert view["over"] and view["winners"] == ["Ann"]


def test_if_the_leader_leaves_the_highest_total_still_at_the_table_wins():
    state = game.new_game(["Ann", "Ben", "Cy"], {"target": 5})
    state = play(state, roll(8, 2, 0), BANK, roll(6, 4, 0), BANK)  # Ann 8, Ben 6: Cy's turn
    state = play(state, leave("Ann"), roll(1, 9, 0), BANK)
    view = game.public_state(state)
    assert view["over"] and view["winners"] == ["Ben"]
    assert view["result"]["why"] == ("Ann left the table with 8; the highest total still "
                                     "at the table wins.")


def test_the_last_player_owed_a_turn_leaving_on_it_ends_the_game():
    state = game.new_game(["Ann", "Ben", "Cy"], {"target": 5})
    state = play(state, roll(6, 4, 0), BANK, roll(1, 9, 0), BANK)  # Cy still to play
    state = play(state, roll(5, 5, 0), leave("Cy"))
    view = game.public_state(state)
    assert view["over"] and view["winners"] == ["Ann"]


def test_a_final_round_opened_after_a_leave_skips_the_seat_that_left():
    state = game.new_game(["Ann", "Ben", "Cy", "Dee"], {"target": 5})
    state = play(state, leave("Cy"), roll(6, 4, 0), BANK)
    assert game.public_state(state)["final_turns"] == ["Ben", "Dee"]


def test_two_players_must_stay_and_nobody_leaves_twice():
    state = game.new_game(["Ann", "Ben", "Cy"])
    state = play(state, leave("Cy"))
    with pytest.raises(NotNow, match="Cy has already left"):
        game.check(state, game.parse_action(leave("cy")))
    with pytest.raises(IllegalAction, match="needs 2 players"):
        game.check(state, game.parse_action(leave("Ann")))
    with pytest.raises(IllegalAction, match="Nobody at this table is called 'Zed'"):
        game.check(state, game.parse_action(leave("Zed")))
    with pytest.raises(InvalidAction, match="'player' must be"):
        game.parse_action({"type": "leave"})


def test_nobody_leaves_a_finished_game():
    state = play(game.new_game(["Ann", "Ben", "Cy"], {"target": 5}), roll(6, 4, 0), BANK,
                 roll(0, 0, 10), roll(0, 0, 10))
    assert state.over
    with pytest.raises(NotNow, match="over"):
        game.check(state, game.parse_action(leave("Ben")))
