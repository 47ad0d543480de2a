"""Toss Your Cookies: setup helper, rolls, the Toss countdown and scramble, Snickerdoodle."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.errors import ActionError, IllegalAction, InvalidAction, NotNow
from companion.games import find_game
from companion.games import toss_your_cookies as game
from companion.games import toss_your_cookies_rules as rules_module
from tests.support import rules
from tests.support.rules import T0, apply_action



def act(state: game.State, data: dict, at: float = T0) -> tuple[game.State, list]:
    """Parse, check and apply one action as the session would (``at`` stamped)."""
    return apply_action(game, state, data, at)


def play(state: game.State, *actions: dict) -> game.State:
    for data in actions:
        state, _ = act(state, data, data.get("at", T0))
    return state


def refused(state: game.State, data: dict, error: type, match: str) -> None:
    rules.refused(game, state, data, error, match)


def roll(action: str, number: int | str, at: float = T0) -> dict:
    return {"type": "roll", "action": action, "number": number, "at": at}


def claim(player: int, hand: list[str] | None = None) -> dict:
    return {"type": "snickerdoodle", "player": player,
            **({} if hand is None else {"hand": hand})}


def four(**options) -> game.State:
    return game.new_game(["Ann", "Bob", "Cy", "Di"], options)


WIN = ["chocolate-chip"] * 4 + ["wild", "milk", "half-eaten"]


# -- setup -------------------------------------------------------------------------------

def test_the_game_is_registered_with_its_cards():
    assert find_game("toss-your-cookies") is game
    assert len(game.CARDS) == 11
    assert {"wild", "half-eaten", "milk", "fortune"} <= set(game.CARDS)


@pytest.mark.parametrize("n, wild, half", [(3, 1, 1), (4, 2, 1), (5, 2, 2), (6, 3, 2),
                                           (7, 3, 3), (8, 3, 4)])
def test_setup_helper_deals_exactly_seven_cards_each(n, wild, half):
    setup = game.public_state(game.new_game([f"P{i}" for i in range(n)]))["setup"]
    assert (setup["wild"], setup["half_eaten"], setup["milk"]) == (wild, half, 1)
    assert setup["wild"] + setup["half_eaten"] == n - 1
    assert setup["cards"] == 7 * n and len(setup["cookies"]) == n == setup["sets"]


@pytest.mark.parametrize("players", [["A", "B"], [f"P{i}" for i in range(9)]])
def test_three_to_eight_players(players):
    with pytest.raises(InvalidAction, match="3 to 8 players"):
        game.new_game(players)


def test_the_table_may_choose_its_cookie_sets():
    state = game.new_game(["A", "B", "C"], {"cookies": ["fortune", "gingerbread", "sandwich"]})
    assert [c["id"] for c in game.public_state(state)["setup"]["cookies"]] == [
        "fortune", "gingerbread", "sandwich"]


def test_cookie_sets_may_be_named_as_the_box_says():
    # the host page's field says "names separated by commas"; only ids were taken
    state = game.new_game(["A", "B", "C"], {"cookies": ["Gingerbread Man", "chocolate chip",
                                                        "Fortune Cookie"]})
    assert [c["id"] for c in game.public_state(state)["setup"]["cookies"]] == [
        "gingerbread", "chocolate-chip", "fortune"]


def test_the_new_game_form_names_every_cookie_it_takes():
    # the form said "list names" but named none until a wrong one was refused (ux14)
    said = game.OPTION_HINTS["cookies"].split(": ", 1)[1].split(" (")[0].split(", ")
    state = game.new_game([str(n) for n in range(8)], {"cookies": said})
    assert set(game.public_state(state)["setup"]["cookies"][i]["id"]
               for i in range(8)) == set(rules_module.COOKIES)


@pytest.mark.parametrize("options, match", [
    ({"cookies": ["fortune", "fortune", "sandwich"]}, "3 different cookies"),
    ({"cookies": ["Fortune", "fortune cookie", "sandwich"]}, "3 different cookies"),
    ({"cookies": ["fortune"]}, "3 different cookies"),
    ({"cookies": ["oatmeal", "fortune", "sandwich"]}, "no cookie 'oatmeal'"),
    ({"rounds": 0}, "'rounds'"),
    ({"countdown_seconds": 2}, "'countdown_seconds' must be a number of seconds from 3 to 30."),
    ({"countdown_seconds": 30.5}, "from 3 to 30"),  # said 'above 2.999'
    ({"scramble_seconds": -1}, "'scramble_seconds' must be a number of seconds from 0 to 120."),
    ({"scramble_seconds": False}, "from 0 to 120"),
    ({"turbo": True}, "no option 'turbo'"),
])
def test_bad_options_are_refused_with_a_sentence(options, match):
    with pytest.raises(InvalidAction, match=match):
        game.new_game(["A", "B", "C"], options)


def test_the_timer_options_take_the_ends_the_sentence_names():
    state = game.new_game(["A", "B", "C"], {"countdown_seconds": 3, "scramble_seconds": 0})
    assert (state.countdown_seconds, state.scramble_seconds) == (3.0, 0.0)
    state = game.new_game(["A", "B", "C"], {"countdown_seconds": 30, "scramble_seconds": 120})
    assert (state.countdown_seconds, state.scramble_seconds) == (30.0, 120.0)


# -- rolls -------------------------------------------------------------------------------

def test_a_pass_or_swap_roll_is_shown_and_the_dice_go_left():
    state, events = act(four(), roll("pass-right", 2))
    assert events[0].data["text"] == ("Pass right 2: everyone passes 2 cards face down "
                                      "to the right.")
    v = game.public_state(state)
    assert (v["current"], v["phase"], v["last_roll"]["by"]) == (1, "roll", 0)
    state, events = act(state, roll("swap", "all"))
    assert events[0].data["text"] == "Swap all: Bob swaps whole hands with any one player."
    assert game.public_state(state)["current"] == 2


#: Every roll the dice (or the Toss button, number None) can make, and what the table is
#: told: shown large on every phone and the TV, so it must read as English.
ROLL_TEXTS = {
    ("swap", "1"): "Swap 1: Ann gives 1 card to any one player and takes as many blind from "
                   "them.",
    ("swap", "2"): "Swap 2: Ann gives 2 cards to any one player and takes as many blind from "
                   "them.",
    ("swap", "3"): "Swap 3: Ann gives 3 cards to any one player and takes as many blind from "
                   "them.",
    ("swap", "all"): "Swap all: Ann swaps whole hands with any one player.",
    ("pass-left", "1"): "Pass left 1: everyone passes 1 card face down to the left.",
    ("pass-left", "2"): "Pass left 2: everyone passes 2 cards face down to the left.",
    ("pass-left", "3"): "Pass left 3: everyone passes 3 cards face down to the left.",
    ("pass-left", "all"): "Pass left all: everyone passes their whole hand face down to the "
                          "left.",
    ("pass-right", "1"): "Pass right 1: everyone passes 1 card face down to the right.",
    ("pass-right", "2"): "Pass right 2: everyone passes 2 cards face down to the right.",
    ("pass-right", "3"): "Pass right 3: everyone passes 3 cards face down to the right.",
    ("pass-right", "all"): "Pass right all: everyone passes their whole hand face down to "
                           "the right.",
    ("toss", "1"): "Toss 1: everyone picks 1 card; on \"One, two, three, Toss!\" toss it face "
                   "up in the middle and grab one back.",
    ("toss", "2"): "Toss 2: everyone picks 2 cards; on \"One, two, three, Toss!\" toss them "
                   "face up in the middle and grab as many back.",
    ("toss", "3"): "Toss 3: everyone picks 3 cards; on \"One, two, three, Toss!\" toss them "
                   "face up in the middle and grab as many back.",
    ("toss", "all"): "Toss all: on \"One, two, three, Toss!\" everyone tosses their whole "
                     "hand face up in the middle and grabs as many cards back.",
    ("toss", None): "Toss: everyone picks as many cards as the number die shows; on \"One, "
                    "two, three, Toss!\" toss them face up in the middle and grab as many "
                    "back.",
    ("swap", "milk"): "Milk swap: whoever holds the milk gives it to Ann, who first lets them "
                      "draw one card blind (nothing happens if Ann holds it).",
    ("pass-left", "milk"): "Milk pass left: whoever holds the milk passes it left; the "
                           "receiver first lets them draw one card blind.",
    ("pass-right", "milk"): "Milk pass right: whoever holds the milk passes it right; the "
                            "receiver first lets them draw one card blind.",
    ("toss", "milk"): "Milk toss: on Toss! whoever holds the milk tosses it in the middle; "
                      "everyone else grabs for it, and the grabber lets the tosser draw one "
                      "card blind. The tosser may not grab it.",
}


def test_the_roll_text_table_covers_every_face_of_both_dice():
    faces = {(a, n) for a in rules_module.ACTION_FACES for n in rules_module.NUMBER_FACES}
    assert set(ROLL_TEXTS) == faces | {("toss", None)}


@pytest.mark.parametrize("faces, text", ROLL_TEXTS.items(), ids=[f"{a}-{n}" for a, n in ROLL_TEXTS])
def test_every_roll_reads_as_english(faces, text):
    # was "Toss all their: everyone picks all their cards", "Toss their chosen: ..."
    action, number = faces
    data = {"type": "toss"} if number is None else roll(action, number)
    state, events = act(four(), data)
    assert events[0].data["text"] == text
    assert game.public_state(state)["last_roll"]["text"] == text


@pytest.mark.parametrize("action, words", [
    ("pass-left", "passes it left; the receiver first lets them draw one card blind"),
    ("pass-right", "passes it right"),
    ("swap", "gives it to Ann, who first lets them draw one card blind (nothing happens"),
    ("toss", "The tosser may not grab it"),
])
def test_milk_rolls_move_the_milk_and_say_how(action, words):
    state = play(four(), roll(action, "milk"))
    last = game.public_state(state)["last_roll"]
    assert last["milk"] and words in last["text"]


def test_a_toss_roll_starts_the_countdown_everyone_calls_together():
    state, events = act(four(countdown_seconds=5), roll("toss", 3))
    assert [e.kind for e in events] == ["roll", "countdown"]
    v = game.public_state(state)
    assert (v["phase"], v["current"], game.deadline(state)) == ("countdown", None, T0 + 5)
    assert v["calls"] == [{"say": "One", "at": T0 + 2}, {"say": "Two", "at": T0 + 3},
                          {"say": "Three", "at": T0 + 4}, {"say": "Toss!", "at": T0 + 5}]
    refused(state, roll("swap", 1), NotNow, "Finish the Toss first")


def test_the_countdown_runs_out_into_the_scramble_then_the_dice_go_left():
    state = play(four(), roll("toss", 1))
    refused(state, {"type": "timeout", "at": T0 + 4}, NotNow, "still has 1.0 seconds")
    state, events = act(state, {"type": "timeout"}, at=game.deadline(state))
    assert [e.kind for e in events] == ["toss"]
    assert game.public_state(state)["phase"] == "scramble"
    assert game.deadline(state) == T0 + 5 + 10 and game.public_state(state)["calls"] is None
    state, events = act(state, {"type": "timeout"}, at=game.deadline(state))
    assert events[0].kind == "scramble-over" and "fewer than 7" in events[0].data["text"]
    v = game.public_state(state)
    assert (v["phase"], v["current"], v["timer"], game.deadline(state)) == ("roll", 1, None,
                                                                          None)


def test_the_toss_button_starts_the_countdown_without_dice():
    state, events = act(four(), {"type": "toss"})
    assert game.public_state(state)["phase"] == "countdown"
    assert game.public_state(state)["last_roll"]["number"] is None
    assert events[-1].kind == "countdown"


def test_skip_calls_toss_now_and_ends_the_scramble():
    refused(four(), {"type": "skip"}, NotNow, "No Toss is on")
    state = play(four(), roll("toss", 2), {"type": "skip", "at": T0 + 1})
    assert game.public_state(state)["phase"] == "scramble"
    assert game.deadline(state) == T0 + 11, "the scramble counts from the early Toss!"
    state = play(state, {"type": "skip", "at": T0 + 3})
    assert game.public_state(state)["phase"] == "roll"


def test_a_skip_meant_for_the_countdown_does_not_end_the_scramble():
    # the next button called Toss! a moment before the host tapped "Toss! now" on a page
    # that had not yet seen it: the host's skip ended the scramble it had just started
    state = play(four(), roll("toss", 2), {"type": "skip", "phase": "countdown", "at": T0 + 1})
    assert game.public_state(state)["phase"] == "scramble"
    refused(state, {"type": "skip", "phase": "countdown", "at": T0 + 2}, NotNow,
            "The countdown is already over: the scramble is on.")
    refused(state, {"type": "skip", "phase": "toss", "at": T0 + 2}, InvalidAction, "'phase'")
    state = play(state, {"type": "skip", "phase": "scramble", "at": T0 + 3})
    assert game.public_state(state)["phase"] == "roll"


def test_a_skip_meant_for_the_scramble_during_the_countdown_says_it_has_not_started():
    # it said "The scramble is already over" (session 13)
    state = play(four(), roll("toss", 2))
    refused(state, {"type": "skip", "phase": "scramble", "at": T0 + 1}, NotNow,
            "^The scramble has not started yet: the countdown is on.$")
    assert game.public_state(state)["phase"] == "countdown"


def test_without_a_scramble_timer_the_scramble_waits_for_skip():
    state = play(four(scramble_seconds=0), roll("toss", 2), {"type": "timeout", "at": T0 + 5})
    assert game.public_state(state)["phase"] == "scramble" and game.deadline(state) is None
    refused(state, {"type": "timeout", "at": T0 + 99}, NotNow, "no timer; skip ends it")


def test_pause_resume_and_add_time_during_the_countdown():
    state = play(four(), roll("toss", 2), {"type": "pause", "at": T0 + 1})
    assert game.deadline(state) is None
    assert game.public_state(state)["timer"]["remaining_at_pause"] == 4.0
    assert game.public_state(state)["calls"] is None
    refused(state, {"type": "timeout", "at": T0 + 9}, NotNow, "paused")
    refused(state, {"type": "add_time", "seconds": 2, "at": T0 + 9}, NotNow, "Resume")
    state = play(state, {"type": "resume", "at": T0 + 10}, {"type": "add_time", "seconds": 2,
                                                              "at": T0 + 11})
    assert game.deadline(state) == T0 + 16


def test_roll_faces_are_read_as_numbers_or_words():
    assert game.parse_action(roll("toss", "2")) == game.parse_action(roll("toss", 2))
    for bad in ({"action": "jump", "number": 1}, {"action": "toss", "number": 4},
                {"action": "toss", "number": True}, {"action": "swap"}):
        with pytest.raises(InvalidAction, match="die shows|die is missing"):
            game.parse_action({"type": "roll", "at": T0, **bad})


def test_a_claimed_hand_of_more_than_seven_cards_is_refused():
    # 13 cards were accepted (session 13): every roll keeps a hand at the 7 dealt
    thirteen = ["chocolate-chip"] * 6 + ["wild"] * 2 + ["half-eaten", "milk"] + ["fortune"] * 3
    refused(four(), claim(2, thirteen), IllegalAction, "^A hand holds 7 cards, not 13.$")
    refused(four(), claim(2, WIN + ["fortune"]), IllegalAction, "not 8")
    state, _ = act(four(), claim(2, WIN))  # the 7 dealt
    assert state.wins[2] == 1
    state, _ = act(four(), claim(2, WIN[:-1]))  # fewer shown: the cards that win are enough
    assert state.wins[2] == 1


# -- the virtual roll --------------------------------------------------------------------

def test_prepare_fills_a_virtual_roll_from_the_given_random_source():
    state = four()
    data = {"type": "roll", "at": T0}
    first = game.prepare(state, data, random.Random(7))
    assert first == game.prepare(state, data, random.Random(7)), "same seed, same faces"
    assert data == {"type": "roll", "at": T0}, "the input is not changed"
    assert first["virtual"] is True and first["action"] in ("swap", "pass-left",
                                                            "pass-right", "toss")
    seen = {game.prepare(state, data, random.Random(s))["number"] for s in range(60)}
    assert seen == {"1", "2", "3", "all", "milk"}
    state = play(state, first)
    assert game.public_state(state)["last_roll"]["virtual"] is True


def test_prepare_keeps_given_faces_and_other_actions():
    typed = game.prepare(four(), roll("swap", 1), random.Random(0))
    assert typed == roll("swap", 1)
    assert game.prepare(four(), {"type": "skip"}, random.Random(0)) == {"type": "skip"}


@pytest.mark.parametrize("half, missing", [({"action": "swap"}, "number"),
                                           ({"number": 2}, "action")])
def test_half_a_roll_is_refused_not_filled_in(half, missing):
    # {"type": "roll", "action": "swap"} became a virtual "Milk swap" (session 13)
    data = {"type": "roll", **half}
    prepared = game.prepare(four(), data, random.Random(0))
    assert prepared == data, "no face invented"
    refused(four(), prepared, InvalidAction,
            f"Enter both dice: the {missing} die is missing \\(leave both out")


def test_a_roll_marked_virtual_rolls_the_faces_left_out():
    data = {"type": "roll", "action": "toss", "virtual": True}
    prepared = game.prepare(four(), data, random.Random(0))
    assert prepared["action"] == "toss" and prepared["virtual"] is True
    assert prepared["number"] in ("1", "2", "3", "all", "milk")


# -- Snickerdoodle and rounds ------------------------------------------------------------

def test_five_of_one_cookie_with_wilds_and_the_milk_wins_the_round():
    state, events = act(four(), claim(2, WIN))
    assert events[0].data == {"player": "Cy", "cookie": "chocolate-chip", "checked": True,
                              "round": 1, "wins": 1}
    v = game.public_state(state)
    assert [p["score"] for p in v["players"]] == [0, 0, 1, 0]
    assert (v["round"], v["current"], v["history"]) == (2, 1, [[0, 0, 1, 0]])


@pytest.mark.parametrize("hand, error, match", [
    (["chocolate-chip"] * 5 + ["half-eaten"], IllegalAction, "No milk"),
    (["chocolate-chip"] * 3 + ["wild", "milk"], IllegalAction, "at most 4 of one cookie"),
    (["chocolate-chip"] * 2 + ["wild"] * 3 + ["milk"], IllegalAction, "2 wild cards, not 3"),
    (["fudge-swirl"] * 5 + ["milk"], IllegalAction, "Fudge Swirl Cookie cards are not"),
    (["iced-sugar"] * 7, IllegalAction, "6 Iced Sugar Cookie cards, not 7"),
    (["milk", "milk"] + ["fortune"] * 5, IllegalAction, "1 milk card, not 2"),
    (["cake"], InvalidAction, "no card 'cake'"),
])
def test_a_claimed_hand_is_checked(hand, error, match):
    refused(four(), claim(1, hand), error, match)


def test_a_claim_is_taken_at_any_moment_even_mid_toss():
    state = play(four(), roll("toss", 2), {"type": "timeout", "at": T0 + 5})
    assert game.deadline(state) is not None
    state = play(state, claim(3))  # without a hand: the table vouches
    v = game.public_state(state)
    assert (v["phase"], v["timer"], game.deadline(state)) == ("roll", None, None)
    assert v["players"][3]["score"] == 1 and v["current"] == 1, "next round: next starter"
    refused(state, claim(4), IllegalAction, "no seat 4")


def test_first_to_a_majority_of_the_agreed_rounds_wins():
    state = play(four(rounds=5), claim(0), claim(1), claim(0))
    assert not state.over and game.public_state(state)["wins_needed"] == 3
    state, events = act(state, claim(0, ["wild"] + ["fortune"] * 4 + ["milk"]))
    assert state.over and events[-1].kind == "game-over"
    assert game.public_state(state)["winners"] == ["Ann"]
    assert game.public_state(state)["current"] is None and game.deadline(state) is None
    refused(state, roll("swap", 1), NotNow, "game is over")


def test_rounds_go_on_until_someone_has_the_majority():
    state = play(game.new_game(["A", "B", "C"], {"rounds": 3}), claim(0), claim(1), claim(2))
    assert not state.over and game.public_state(state)["round"] == 4
    state = play(state, claim(2))
    assert game.public_state(state)["winners"] == ["C"]


def test_a_single_round_game_ends_at_the_first_snickerdoodle():
    state = play(four(rounds=1), claim(1))
    assert game.public_state(state)["winners"] == ["Bob"]


# -- random legal games ------------------------------------------------------------------

CARD_IDS = sorted(game.CARDS)


def candidates(draw, state: game.State, now: float) -> list[dict]:
    deadline = game.deadline(state)
    faces = st.sampled_from(["swap", "pass-left", "pass-right", "toss"])
    hand = st.lists(st.sampled_from(CARD_IDS), min_size=5, max_size=8)
    return [
        {"type": "roll", "action": draw(faces), "number": draw(st.sampled_from(
            [1, 2, 3, "all", "milk"])), "at": now},
        {"type": "roll", "at": now},  # virtual
        {"type": draw(st.sampled_from(["toss", "skip", "pause", "resume", "next", "toggle"])),
         "at": now},
        {"type": "add_time", "seconds": draw(st.integers(1, 10)), "at": now},
        {"type": "timeout", "at": deadline if deadline is not None else now},
        {"type": "snickerdoodle", "player": draw(st.integers(0, len(state.players))),
         **({"hand": draw(hand)} if draw(st.booleans()) else {})},
    ]


def replay(players: list[str], journal: list[dict]) -> game.State:
    state = game.new_game(players)
    for data in journal:
        state, _ = game.apply(state, game.parse_action(data))
    return state


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data(), st.integers(3, 8), st.integers(0, 2**32))
def test_random_legal_games_reach_the_end_and_replay_exactly(data, n, seed):
    players = [f"P{i}" for i in range(n)]
    rng = random.Random(seed)
    state = game.new_game(players)
    journal, before_last, now = [], state, T0
    for step in range(300):
        now += data.draw(st.floats(0, 8))
        options = candidates(data.draw, state, now)
        pick = options[-1] if step > 120 else data.draw(st.sampled_from(options))
        pick = game.prepare(state, pick, rng)  # the session fills virtual faces
        snapshot = state
        try:
            action = game.parse_action(pick)
            game.check(state, action)
        except ActionError:
            assert state == snapshot
            continue
        before_last = state
        state, _ = game.apply(state, action)
        journal.append(pick)
        v = game.public_state(state)
        assert sum(p["score"] for p in v["players"]) == len(v["history"])
        assert (v["current"] is None) == (state.over or v["phase"] != "roll")
        assert v["timer"] is None or v["phase"] != "roll"
        if state.over:
            break
    assert state.over and max(state.wins) == state.wins_needed
    assert replay(players, journal) == state
    assert replay(players, journal[:-1]) == before_last


def test_the_next_button_walks_the_toss_and_the_timer_button_pauses():
    state = four()
    nxt, timer = game.BUTTONS["next"], game.BUTTONS["timer"]
    refused(state, timer, NotNow, "No Toss is on")
    state = play(state, {**nxt, "at": T0})
    assert game.public_state(state)["phase"] == "countdown"
    state = play(state, {**timer, "at": T0 + 1})
    assert game.deadline(state) is None
    state = play(state, {**timer, "at": T0 + 2}, {**nxt, "at": T0 + 3})
    assert game.public_state(state)["phase"] == "scramble"
    assert game.deadline(state) == T0 + 13
    state = play(state, {**nxt, "at": T0 + 4})
    assert game.public_state(state)["phase"] == "roll" and game.public_state(state)["current"] == 1


@pytest.mark.parametrize("kind", sorted(game.ACTIONS))
def test_every_documented_example_parses_once_stamped(kind):
    doc = game.ACTIONS[kind]
    assert doc.example["type"] == kind and set(doc.required) <= set(doc.properties)
    game.parse_action({**doc.example, "at": T0})
