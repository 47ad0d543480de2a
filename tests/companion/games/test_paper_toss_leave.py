"""Paper Toss: a player who leaves the table (the digest is silent; the companion's ruling).

Between tosses only; their tokens stay, their seat is skipped (Flat Tires they were owed
with it), no card is played by or on them any more, and two players must stay.
"""

from __future__ import annotations

from companion.errors import IllegalAction, NotNow
from companion.games import paper_toss as game
from tests.support.rules import refused as refused_by, replay


def play(state, *actions):
    return replay(game, state, list(actions), at=None)


def refused(state, data, error, words):
    refused_by(game, state, data, error, words)


TOSS, PASS = {"type": "toss"}, {"type": "pass"}


def flip(card):
    return {"type": "flip", "cards": [card]}


def leave(who):
    return {"type": "leave", "player": who}


def test_a_player_who_leaves_keeps_their_tokens_and_their_seat_is_skipped():
    state = play(game.new_game(["Ann", "Ben", "Cy"]), TOSS, flip("perfect"), TOSS, flip("good-throw"))
    state = play(state, leave("Ben"))
    view = game.public_state(state)
    assert [p["left"] for p in view["players"]] == [False, True, False]
    assert view["tokens"] == [2, 1, 0] and view["current"] == 2
    state = play(state, PASS, PASS)
    assert game.public_state(state)["current"] == 2, "Ben's seat is skipped"


def test_leaving_on_ones_own_turn_passes_it_and_a_flat_tire_owed_goes_with_the_seat():
    state = play(game.new_game(["Ann", "Ben", "Cy"]), {"type": "flat-tire", "target": "Ben"})
    state = play(state, leave("Ann"))  # Ann's turn: it passes; Ben's Flat Tire skips him
    assert game.public_state(state)["current"] == 2
    state = play(state, PASS)
    assert game.public_state(state)["current"] == 1


def test_nothing_is_played_by_or_on_a_player_who_left():
    state = play(game.new_game(["Ann", "Ben", "Cy"]), leave("Cy"), TOSS)
    refused(state, {"type": "hazard", "player": "Cy", "card": "dog"}, IllegalAction,
            "Cy has left the table")
    refused(state, {"type": "bully", "target": "Cy"}, IllegalAction, "Cy has left")
    refused(state, {"type": "flat-tire", "target": "Ben", "by": "Cy"}, IllegalAction, "Cy has left")


def test_nobody_leaves_mid_toss_nor_twice_and_two_must_stay():
    state = play(game.new_game(["Ann", "Ben", "Cy"]), TOSS)
    refused(state, leave("Ben"), NotNow, "Ann's toss is being played")
    state = play(state, flip("bad-throw"), leave("Cy"))
    refused(state, leave("Cy"), NotNow, "Cy has already left")
    refused(state, leave("Ann"), IllegalAction, "Paper Toss needs 2 players")


def test_the_game_still_ends_at_the_first_to_the_target():
    state = play(game.new_game(["Ann", "Ben", "Cy"], {"target": 2}), leave("Ben"),
                 TOSS, flip("perfect"))
    view = game.public_state(state)
    assert view["over"] and view["winners"] == ["Ann"]
