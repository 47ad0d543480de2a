"""Toss Your Cookies with the camera: a claim is opened, the hand shown is read and checked."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.errors import ActionError, IllegalAction, NotNow
from companion.games import toss_your_cookies as game
from companion.games.toss_your_cookies_hand import describe_hand, hand_verdict, short_name
from tests.support import rules
from tests.support.rules import T0, apply_action

COOKIES = ("chocolate-chip", "iced-sugar", "gingerbread", "fortune")


def play(state: game.State, *actions: dict) -> game.State:
    for data in actions:
        state, _ = apply_action(game, state, data, data.get("at", T0))
    return state


def refused(state: game.State, data: dict, error: type, match: str) -> None:
    rules.refused(game, state, data, error, match)


def four(**options) -> game.State:
    return game.new_game(["Ann", "Bob", "Cy", "Di"], options)


def claimed(seat: int = 2, state: game.State | None = None) -> game.State:
    return play(state or four(), {"type": "claim", "player": seat})


CC4_WILD = ["chocolate-chip"] * 4 + ["wild"]


# -- the sentences -------------------------------------------------------------------------

def test_cookie_names_are_said_as_at_the_table():
    assert [short_name(c) for c in ("chocolate-chip", "gingerbread", "macadamia")] == [
        "Chocolate Chip", "Gingerbread Man", "Macadamia Nut"]
    assert describe_hand(CC4_WILD + ["milk"], COOKIES) == "4 Chocolate Chip and a Wild"
    assert describe_hand(["fortune"] * 3 + ["wild"] * 2, COOKIES) == "3 Fortune and 2 Wilds"
    assert describe_hand(["milk", "half-eaten"], COOKIES) == "No cookie"


@pytest.mark.parametrize("hand, cookie, sentence", [
    (CC4_WILD + ["milk"], "chocolate-chip",
     "4 Chocolate Chip, a Wild and the milk: five Chocolate Chip and the milk. Snickerdoodle!"),
    (CC4_WILD + ["half-eaten"], None, "4 Chocolate Chip and a Wild: that is five, but no milk."),
    (["fortune"] * 3 + ["wild", "milk"], None,
     "3 Fortune, a Wild and the milk: that is only four of one cookie; "
     "Snickerdoodle needs five."),
    (["fortune"] * 3 + ["gingerbread"] * 2, None,
     "3 Fortune and no milk: Snickerdoodle needs five of one cookie and the milk."),
    (["milk", "half-eaten"], None, "Only the milk: Snickerdoodle needs five of one cookie too."),
    (["fudge-swirl"] * 5 + ["milk"], None, "The Fudge Swirl Cookie cards are not in this game."),
    (["wild"] * 3 + ["fortune"] * 2 + ["milk"], None, "This game has 2 wild cards, not 3."),
    (CC4_WILD + ["milk", "fortune", "fortune"], None, "A hand holds 7 cards, not 8."),
])
def test_a_shown_hand_gets_a_verdict_a_player_understands(hand, cookie, sentence):
    assert hand_verdict(hand, COOKIES, 4) == (cookie, sentence)


# -- claim, withdraw, settle ---------------------------------------------------------------

def test_a_claim_pauses_the_scramble_and_a_withdrawal_resumes_it():
    state = play(four(), {"type": "roll", "action": "toss", "number": 2},
                 {"type": "timeout", "at": T0 + 5})
    assert game.deadline(state) == T0 + 15
    state = claimed(2, play(state, {"type": "pause", "at": T0 + 6},
                            {"type": "resume", "at": T0 + 7}))
    v = game.public_state(state)
    assert v["claim"] == {"player": 2, "name": "Cy", "paused": True}
    assert game.deadline(state) is None and v["current"] is None and v["timer"]["running"] is False
    refused(state, {"type": "skip"}, NotNow, "Cy claims Snickerdoodle!")
    refused(state, {"type": "claim", "player": 1}, NotNow, "Cy already claims")
    state = play(state, {"type": "withdraw", "at": T0 + 30})
    assert game.public_state(state)["claim"] is None
    assert game.deadline(state) == pytest.approx(T0 + 30 + 9), "the 9 s left run on"


def test_a_claim_in_the_roll_phase_holds_the_roll_and_leaves_no_timer():
    state = claimed(0)
    assert game.public_state(state)["current"] is None and state.timer is None
    refused(state, {"type": "roll", "action": "swap", "number": 1}, NotNow, "Ann claims")
    state = play(state, {"type": "withdraw"})
    assert game.public_state(state)["current"] == 0 and state.timer is None
    refused(state, {"type": "withdraw"}, NotNow, "No Snickerdoodle! claim is open")
    refused(state, {"type": "claim", "player": 4}, IllegalAction, "no seat 4")


def test_the_checked_hand_settles_the_claim_and_is_shown_after_the_round():
    state = claimed(2)
    refused(state, {"type": "snickerdoodle", "player": 2, "hand": CC4_WILD},
            ActionError, "No milk")
    state = play(state, {"type": "snickerdoodle", "player": 2, "hand": CC4_WILD + ["milk"]})
    v = game.public_state(state)
    assert v["claim"] is None and v["round"] == 2 and v["players"][2]["score"] == 1
    assert v["last_claim"] == {"player": 2, "name": "Cy", "round": 1, "checked": True,
                               "hand": CC4_WILD + ["milk"],
                               "text": hand_verdict(CC4_WILD + ["milk"], COOKIES, 4)[1]}


# -- the camera hook -----------------------------------------------------------------------

def test_the_hook_offers_a_winning_hand_only_while_a_claim_is_open():
    seen = ("milk", "wild") + ("chocolate-chip",) * 4 + ("not-a-cookie-card",)
    assert game.from_cards(four(), seen, ()) is None, "no claimant, no offer"
    offer = game.from_cards(claimed(2), seen, ())
    assert offer == {"type": "snickerdoodle", "player": 2,
                     "hand": ["chocolate-chip"] * 4 + ["milk", "wild"]}
    assert game.from_cards(claimed(2), seen[1:], ()) is None, "no milk, no offer"
    over = play(four(rounds=1), {"type": "snickerdoodle", "player": 0})
    assert game.from_cards(over, seen, ()) is None and game.cards_message(over, seen, ()) is None


def test_the_message_explains_a_claimed_hand_and_flags_an_unclaimed_winner():
    no_milk = tuple(CC4_WILD)
    assert game.cards_message(claimed(1), no_milk, ()) == (
        "Bob shows: 4 Chocolate Chip and a Wild: that is five, but no milk.")
    assert game.cards_message(four(), no_milk, ()) is None, "the middle pile is not a hand"
    assert game.cards_message(four(), no_milk + ("milk",), ()).endswith(
        "Snickerdoodle! Tap Snickerdoodle! for whoever holds it.")
    assert game.cards_message(claimed(1), (), ()) is None


# -- random games with claims --------------------------------------------------------------

HANDS = st.lists(st.sampled_from(sorted(game.CARDS)), min_size=5, max_size=8)


def candidates(draw, state: game.State, now: float) -> list[dict]:
    deadline = game.deadline(state)
    seat = st.integers(0, len(state.players))
    return [
        {"type": "roll", "action": "toss", "number": 2, "at": now},
        {"type": draw(st.sampled_from(["skip", "pause", "resume", "next"])), "at": now},
        {"type": "timeout", "at": deadline if deadline is not None else now},
        {"type": "claim", "player": draw(seat), "at": now},
        {"type": "withdraw", "at": now},
        {"type": "snickerdoodle", "player": draw(seat), "hand": draw(HANDS), "at": now},
        {"type": "snickerdoodle", "player": draw(seat), "at": now},
    ]


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data(), st.integers(3, 8), st.integers(0, 2**32))
def test_random_games_with_claims_keep_the_table_consistent_and_replay(data, n, seed):
    rng = random.Random(seed)
    state = start = game.new_game([f"P{i}" for i in range(n)])
    journal, now = [], T0
    for step in range(200):
        now += data.draw(st.floats(0, 8))
        options = candidates(data.draw, state, now)
        pick = options[-1] if step > 150 else data.draw(st.sampled_from(options))
        pick, before = game.prepare(state, pick, rng), state
        try:
            action = game.parse_action(pick)
            game.check(state, action)
        except ActionError:
            assert state == before
            continue
        state, _ = game.apply(state, action)
        journal.append(pick)
        v = game.public_state(state)
        if state.claim is not None:
            assert v["current"] is None and game.deadline(state) is None
        assert not (state.claim_paused and state.claim is None)
        if state.over:
            break
    replayed = start
    for pick in journal:
        replayed, _ = game.apply(replayed, game.parse_action(pick))
    assert replayed == state
