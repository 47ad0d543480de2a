"""Sorry! Revenge: a player who leaves the table (the digest is silent; the companion's
ruling). Between cards only; their pawns stay on the board, their seat is skipped in
either direction, a bust flips no pawn for them, no SORRY! is played by or on them, and
two players must stay."""

from __future__ import annotations

from companion.errors import IllegalAction, NotNow
from companion.games import sorry_21 as game
from tests.support.rules import refused as refused_by, replay


def play(state, *actions):
    return replay(game, state, list(actions), at=None)


def refused(state, data, error, words):
    refused_by(game, state, data, error, words)


def card(c):
    return {"type": "play", "card": c}


def leave(who):
    return {"type": "leave", "player": who}


def test_a_seat_that_left_is_skipped_both_ways_and_flips_no_pawn_on_a_bust():
    state = game.new_game(["Ann", "Ben", "Cy", "Dee"])
    state = play(state, card("number-5"), leave("Cy"), card("number-5"))  # Ann, Ben
    view = game.public_state(state)
    assert view["current"] == 3 and view["players"][2]["left"]
    state = play(state, card("switch"))  # Dee: now counterclockwise, back past Cy
    assert game.public_state(state)["current"] == 1
    state = play(state, card("number-10"), card("number-2"))  # Ben 20, Ann 22: bust
    view = game.public_state(state)
    assert view["last_round"]["flipped"] == ["Ben", "Dee"]  # not Cy, who left
    assert [p["home"] for p in view["players"]] == [0, 1, 0, 1]
    assert view["current"] == 3  # the next round starts after Ann, counterclockwise


def test_leaving_on_ones_turn_passes_it_and_the_pile_stays():
    state = play(game.new_game(["Ann", "Ben", "Cy"]), card("number-7"), leave("Ben"))
    view = game.public_state(state)
    assert view["current"] == 2 and view["total"] == 7


def test_no_sorry_by_or_on_a_player_who_left():
    state = game.new_game(["Ann", "Ben", "Cy"])
    state = play(state, {"type": "correct", "player": 2, "delta": 1, "reason": "one HOME"},
                 leave("Cy"))
    refused(state, {"type": "take-back", "target": "Cy"}, IllegalAction, "Cy has left")
    state = play(state, card("slide-21"))  # Ann makes 21
    refused(state, {"type": "steal", "player": "Cy"}, IllegalAction, "Cy has left")


def test_nobody_leaves_while_something_waits_twice_or_below_two():
    state = play(game.new_game(["Ann", "Ben", "Cy"]), card("slide-21"))
    refused(state, leave("Ben"), NotNow, "Settle what waits first")
    state = play(state, {"type": "accept"}, card("play-2"))
    refused(state, leave("Ann"), NotNow, "Play 2")
    state = play(state, card("number-1"), card("number-1"), leave("Cy"))
    refused(state, leave("Cy"), NotNow, "Cy has already left")
    refused(state, leave("Ann"), IllegalAction, "Sorry! Revenge needs 2 players")
