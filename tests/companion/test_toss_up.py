"""Toss Up! rules: story tests of turns, every ruling of the digest, and random games."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.errors import IllegalAction, InvalidAction, NotNow
from companion.games import toss_up as game


def play(state: game.State, *actions: dict) -> game.State:
    for data in actions:
        action = game.parse_action(data)
        game.check(state, action)
        state, _ = game.apply(state, action)
    return state


def roll(g: int, y: int, r: int) -> dict:
    return {"type": "roll", "green": g, "yellow": y, "red": r}


BANK = {"type": "bank"}


def test_a_safe_roll_sets_greens_aside_and_scores_them():
    state = play(game.new_game(["Ann", "Bob"]), roll(3, 4, 3))
    view = game.public_state(state)
    assert view["turn"]["points"] == 3
    assert view["turn"]["dice_in_hand"] == 7
    assert view["current"] == 0


def test_banking_adds_the_turn_and_passes_the_dice():
    state = play(game.new_game(["Ann", "Bob"]), roll(3, 4, 3), roll(2, 5, 0), BANK)
    view = game.public_state(state)
    assert [p["score"] for p in view["players"]] == [5, 0]
    assert view["current"] == 1
    assert view["turn"] == {"points": 0, "dice_in_hand": 10, "rolls": 0, "number": 2}


def test_a_red_light_loses_the_turn_but_not_the_bank():
    state = play(game.new_game(["Ann", "Bob"]), roll(4, 3, 3), BANK,  # Ann 4
                 roll(5, 5, 0), BANK,  # Bob 5
                 roll(6, 2, 2))  # Ann has 6 this turn
    state, events = game.apply(state, game.parse_action(roll(0, 2, 2)))
    view = game.public_state(state)
    assert [e.kind for e in events] == ["red-light"]
    assert events[0].data == {"player": "Ann", "lost": 6}
    assert [p["score"] for p in view["players"]] == [4, 5]
    assert view["current"] == 1, "the next player is current at once"


def test_the_last_roll_says_whose_it_was_after_the_turn_passed():
    # the phones showed "Last roll of the previous turn" without saying whose it was
    state = play(game.new_game(["Ann", "Bob", "Cy"]), roll(3, 4, 3))
    assert game.public_state(state)["last_roll"] == {"green": 3, "yellow": 4, "red": 3, "by": 0}
    state = play(state, BANK)  # Bob is up: the last roll is still Ann's
    assert (game.public_state(state)["current"], game.public_state(state)["last_roll"]["by"]) == (1, 0)
    state = play(state, roll(0, 5, 5))  # Bob's red light passes the dice to Cy
    assert (game.public_state(state)["current"], game.public_state(state)["last_roll"]["by"]) == (2, 1)


def test_all_yellow_changes_nothing_and_may_be_banked_for_zero():
    state = play(game.new_game(["Ann", "Bob"]), roll(0, 10, 0))
    assert game.public_state(state)["turn"]["dice_in_hand"] == 10
    assert game.public_state(state)["current"] == 0
    state = play(state, BANK)  # ruling: banking 0 is allowed
    assert [p["score"] for p in game.public_state(state)["players"]] == [0, 0]


def test_one_green_among_reds_is_safe():
    state = play(game.new_game(["Ann", "Bob"]), roll(1, 0, 9))
    assert game.public_state(state)["turn"] == {"points": 1, "dice_in_hand": 9, "rolls": 1,
                                                "number": 1}


def test_all_ten_set_aside_gives_all_ten_back_and_points_keep_growing():
    state = play(game.new_game(["Ann", "Bob"]), roll(6, 4, 0), roll(4, 0, 0))
    turn = game.public_state(state)["turn"]
    assert (turn["points"], turn["dice_in_hand"]) == (10, 10)
    state = play(state, roll(10, 0, 0), roll(3, 7, 0))
    assert game.public_state(state)["turn"]["points"] == 23


@pytest.mark.parametrize("counts", [(3, 4, 2), (3, 4, 4), (0, 0, 0), (11, 0, 0)])
def test_a_roll_must_show_the_dice_in_hand(counts):
    state = game.new_game(["Ann", "Bob"])
    data = roll(*counts)
    with pytest.raises((IllegalAction, InvalidAction)):
        game.check(state, game.parse_action(data))


def test_the_error_names_the_dice_in_hand():
    state = play(game.new_game(["Ann", "Bob"]), roll(3, 4, 3))
    with pytest.raises(IllegalAction, match="Ann has 7 dice in hand, but that roll shows 8: "
                                            "recount, or look for a hidden die.$"):
        game.check(state, game.parse_action(roll(3, 3, 2)))


def test_bank_before_rolling_is_not_now():
    with pytest.raises(NotNow):
        game.check(game.new_game(["Ann", "Bob"]), game.Bank())


@pytest.mark.parametrize("data", [
    {}, {"type": "pass"}, {"type": "roll"}, {"type": "roll", "green": "3", "yellow": 4, "red": 3},
    {"type": "roll", "green": -1, "yellow": 8, "red": 3}, {"type": "roll", "green": True,
                                                          "yellow": 6, "red": 3},
    {"type": "roll", "green": 2.5, "yellow": 4.5, "red": 3}, [], "bank", None,
])
def test_malformed_actions_are_refused(data):
    with pytest.raises(InvalidAction):
        game.parse_action(data)


@pytest.mark.parametrize("players", [["Ann"], ["a", "b", "c", "d", "e", "f", "g"], ["Ann", "ann"],
                                     ["Ann", ""], "Ann,Bob", ["Ann", 3], ["x" * 41, "Bob"]])
def test_bad_player_lists_are_refused(players):
    with pytest.raises(InvalidAction):
        game.new_game(players)


def test_passing_100_opens_a_final_round_for_every_other_player():
    state = game.new_game(["Ann", "Bob", "Cy"], {"target": 10})
    state = play(state, roll(6, 4, 0), roll(4, 0, 0), roll(1, 9, 0), BANK)  # Ann 11 > 10
    view = game.public_state(state)
    assert view["final_round"] is True
    assert view["final_turns"] == ["Bob", "Cy"]
    assert view["current"] == 1
    state = play(state, roll(6, 4, 0), roll(4, 0, 0), roll(2, 8, 0), BANK)  # Bob 12
    view = game.public_state(state)
    assert view["final_turns"] == ["Cy"] and not view["over"]
    state = play(state, roll(1, 0, 9), roll(0, 0, 9))  # Cy: red light, turn over
    view = game.public_state(state)
    assert view["over"] is True
    assert view["current"] is None
    assert view["winners"] == ["Bob"]


def test_equal_highest_totals_share_the_win():
    state = game.new_game(["Ann", "Bob"], {"target": 4})
    state = play(state, roll(5, 5, 0), BANK, roll(5, 5, 0), BANK)
    assert game.public_state(state)["winners"] == ["Ann", "Bob"]


def test_exactly_the_target_does_not_open_the_final_round():
    state = play(game.new_game(["Ann", "Bob"], {"target": 5}), roll(5, 5, 0), BANK)
    assert game.public_state(state)["final_round"] is False


def test_nothing_is_accepted_after_the_end():
    state = play(game.new_game(["Ann", "Bob"], {"target": 4}), roll(5, 5, 0), BANK,
                 roll(0, 5, 5))
    assert game.public_state(state)["over"]
    with pytest.raises(NotNow):
        game.check(state, game.parse_action(roll(5, 5, 0)))


def test_red_light_odds_follow_the_digest():
    odds = game.red_light_odds(3)
    assert odds["red_light"] == pytest.approx(1 / 8 - 1 / 27)
    assert odds["all_yellow"] == pytest.approx(1 / 27)
    assert odds["expected_greens"] == 1.5


# -- random games ------------------------------------------------------------------

@st.composite
def games(draw):
    """A random legal game: faces drawn per die (3 green, 2 yellow, 1 red), banks at random."""
    n = draw(st.integers(2, 6))
    target = draw(st.sampled_from([5, 20, 100]))
    state = game.new_game([f"P{i}" for i in range(n)], {"target": target})
    journal = []
    for _ in range(4000):
        if state.over:
            break
        view = game.public_state(state)
        if view["turn"]["rolls"] and draw(st.integers(0, 3)) == 0:
            data = BANK
        else:
            faces = draw(st.lists(st.sampled_from("gggyyr"), min_size=view["turn"]["dice_in_hand"],
                                  max_size=view["turn"]["dice_in_hand"]))
            data = roll(faces.count("g"), faces.count("y"), faces.count("r"))
        journal.append(data)
        state = play(state, data)
    return state, journal, target


@settings(max_examples=150, deadline=None)
@given(games())
def test_random_games_keep_the_invariants(played):
    state, journal, target = played
    view = game.public_state(state)
    assert all(p["score"] >= 0 for p in view["players"])
    assert view["over"], "a game with banks always ends"
    best = max(p["score"] for p in view["players"])
    assert best > target
    assert view["winners"] == [p["name"] for p in view["players"] if p["score"] == best]
    # replaying the journal gives the same state; undo = replay without the last action
    replayed = play(game.new_game(list(state.players), {"target": target}), *journal)
    assert replayed == state
    before = play(game.new_game(list(state.players), {"target": target}), *journal[:-1])
    assert not game.public_state(before)["over"]
