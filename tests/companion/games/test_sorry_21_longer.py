"""Sorry! Revenge, the longer game: a round's flips say which pawns went HOME and which
went back to START (the scoreboard words the last round from ``last_round``)."""

from __future__ import annotations

from companion.games import sorry_21 as game
from tests.support.rules import replay


def play(state, *actions):
    return replay(game, state, list(actions), at=None)


def card(c):
    return {"type": "play", "card": c}


def test_a_bust_flip_names_who_went_back_to_start_and_who_went_home():
    state = game.new_game(["Ann", "Ben", "Cy"], {"longer": True})
    state = play(state, {"type": "correct", "player": 1, "delta": 4, "reason": "all HOME"})
    state = play(state, card("number-10"), card("number-10"), card("number-5"))  # Cy busts
    last = game.public_state(state)["last_round"]
    assert last["flipped"] == ["Ann", "Ben"]
    assert last["to_start"] == ["Ben"]  # Ben had all 4 HOME: his flip sends one back
    assert [p["home"] for p in game.public_state(state)["players"]] == [1, 3, 0]


def test_in_the_normal_game_no_flip_goes_back_to_start():
    state = game.new_game(["Ann", "Ben"])
    state = play(state, {"type": "correct", "player": 0, "delta": 3, "reason": "three HOME"})
    state = play(state, card("number-10"), card("number-5"), card("number-5"),
                 card("number-5"))  # Ben busts at 25
    last = game.public_state(state)["last_round"]
    assert last["flipped"] == ["Ann"] and last["to_start"] == []
    assert game.public_state(state)["over"]


def test_with_all_four_home_in_the_longer_game_the_pawns_are_on_their_way_back():
    # "returning" was false at exactly 4: the board could not tell 4 on the way up
    # from 4 about to go back
    state = game.new_game(["Ann", "Ben"], {"longer": True})
    state = play(state, {"type": "correct", "player": 1, "delta": 4, "reason": "all HOME"},
                 {"type": "correct", "player": 0, "delta": 3, "reason": "three HOME"})
    players = game.public_state(state)["players"]
    assert [(p["home"], p["returning"]) for p in players] == [(3, False), (4, True)]
    state = game.new_game(["Ann", "Ben"])  # the normal game: 4 HOME wins, nothing returns
    state = play(state, {"type": "correct", "player": 0, "delta": 3, "reason": "three HOME"},
                 card("number-10"), card("number-10"), card("number-5"))
    assert game.public_state(state)["players"][0]["returning"] is False
