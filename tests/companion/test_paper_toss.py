"""Paper Toss: a story test per ruling, refusals, and random games played to the end."""

from __future__ import annotations

import json
import random
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.errors import ActionError, IllegalAction, InvalidAction, NotNow
from companion.games import find_game
from companion.games import paper_toss as pt
from tests.support.rules import apply_action, replay

TOSS_CARDS = ["good-throw", "perfect", "bad-throw", "window", "sprinklers"]


def fold(actions, players=("Ann", "Ben", "Cy"), options=None):
    """Replay a journal: new_game, then check and apply each action dict."""
    return replay(pt, pt.new_game(list(players), options or {}), actions)


def step(state, data):
    """Check and apply one action dict; return (state, event kinds)."""
    state, events = apply_action(pt, state, data, at=None)
    return state, [e.kind for e in events]


def refused(state, data, error=ActionError):
    """Assert the action is refused with ``error``, changing nothing; return the message."""
    before = pt.public_state(state)
    with pytest.raises(error) as info:
        pt.check(state, pt.parse_action(data))
    assert pt.public_state(state) == before
    return str(info.value)


def with_tokens(tokens, players=("Ann", "Ben", "Cy")):
    """A fresh game where the players already hold ``tokens``."""
    state = pt.new_game(list(players), {})
    return pt.State(players=state.players, tokens=tuple(tokens), skips=state.skips)


# --- the module interface -----------------------------------------------------------

def test_module_follows_the_game_interface():
    assert find_game("paper-toss") is pt
    assert (pt.ID, pt.MIN_PLAYERS, pt.MAX_PLAYERS, pt.OPTIONS) == ("paper-toss", 2, 6,
                                                                   {"target": 10})
    for kind, doc in pt.ACTIONS.items():
        assert doc.example["type"] == kind
        assert set(doc.required) <= set(doc.properties)
        pt.parse_action(dict(doc.example))  # every example is well-formed
    assert set(TOSS_CARDS) <= set(pt.CARDS)
    paper = {"paper-toss", "dog", "kid", "obstacle", "food", "trick", "remedy", "shortcut",
             "energy-drink", "bully", "flat-tire"}
    assert paper <= set(pt.CARDS) and len(pt.CARDS) == 16


@pytest.mark.parametrize("players, options, words", [
    (["Ann"], {}, "2 to 6 players"),
    (["A", "B", "C", "D", "E", "F", "G"], {}, "2 to 6 players"),
    (["Ann", "ann"], {}, "same name"),
    (["Ann", "Ben"], {"tokens": 3}, "no option 'tokens'"),
    (["Ann", "Ben"], {"target": 0}, "'target' must be between"),
])
def test_bad_set_up_is_refused_with_a_sentence(players, options, words):
    with pytest.raises(InvalidAction, match=words):
        pt.new_game(players, options)


@pytest.mark.parametrize("data, words", [
    ({"type": "throw"}, "Unknown action 'throw'"),
    ([], "JSON object"),
    ({"type": "hazard", "player": "Ben", "card": "food"}, "'Food' is not a Hazard"),
    ({"type": "hazard", "card": "dog"}, "'player' must be a player"),
    ({"type": "hazard", "player": True, "card": "dog"}, "'player' must be a player"),
    ({"type": "counter", "card": "dog"}, "'Dog' is not a Counter"),
    ({"type": "flip", "cards": []}, "one or two Toss cards"),
    ({"type": "flip", "cards": ["perfect", "window", "bad-throw"]}, "one or two"),
    ({"type": "flip", "cards": "perfect"}, "one or two"),
    ({"type": "flip", "cards": ["dog"]}, "'Dog' is not a Toss card"),
    ({"type": "pick", "card": 3}, "3 is not a Toss card"),
    ({"type": "sprinklers", "discard": "yes"}, "true or false"),
    ({"type": "bully", "target": -1}, "'target' must be"),
    ({"type": "flat-tire", "target": "Ann", "by": 2.5}, "'by' must be"),
])
def test_malformed_actions_are_refused_with_a_sentence(data, words):
    with pytest.raises(InvalidAction, match=words):
        pt.parse_action(data)


# --- turns: pass, toss, one Toss card ------------------------------------------------

@pytest.mark.parametrize("card, before, after", [
    ("good-throw", 3, 4), ("perfect", 3, 5), ("bad-throw", 3, 3), ("window", 3, 2),
    ("window", 0, 0),  # ruling: never below 0
    ("perfect", 9, 10),  # the count stops at the target
])
def test_one_toss_card_without_hazards(card, before, after):
    state = with_tokens([before, 0, 0])
    state, _ = step(state, {"type": "toss"})
    state, kinds = step(state, {"type": "flip", "cards": [card]})
    assert state.tokens[0] == after
    assert state.last_toss.result == card and state.toss is None
    assert "tokens" in kinds


def test_pass_ends_the_turn_and_the_player_to_the_left_goes_next():
    state, kinds = step(fold([]), {"type": "pass"})
    assert state.current == 1 and kinds == ["pass", "turn"]
    state = fold([{"type": "pass"}] * 3)
    assert state.current == 0 and state.history == ((0, 0, 0),) * 3
    assert state.turn_number == 4


def test_only_one_toss_a_turn_and_no_pass_during_a_toss():
    state = fold([{"type": "toss"}])
    assert "still being played" in refused(state, {"type": "toss"}, NotNow)
    refused(state, {"type": "pass"}, NotNow)


def test_toss_steps_need_a_toss():
    state = fold([])
    for data in ({"type": "hazard", "player": "Ben", "card": "dog"},
                 {"type": "counter", "card": "food"}, {"type": "flip", "cards": ["perfect"]},
                 {"type": "pick", "card": "perfect"}, {"type": "energy-drink"},
                 {"type": "sprinklers", "discard": True}, {"type": "no-counter"}):
        assert "Ann may toss or pass" in refused(state, data, NotNow)


# --- Hazards and Counters -------------------------------------------------------------

@pytest.mark.parametrize("hazard, counter", [
    ("dog", "food"), ("kid", "trick"), ("obstacle", "remedy"),
    ("dog", "shortcut"), ("kid", "shortcut"), ("obstacle", "shortcut"),
])
def test_each_hazard_is_cancelled_by_its_counter_or_a_shortcut(hazard, counter):
    state = fold([{"type": "toss"}, {"type": "hazard", "player": "Ben", "card": hazard}])
    state, kinds = step(state, {"type": "counter", "card": counter})
    assert kinds == ["counter"] and state.toss.waiting is None
    state, _ = step(state, {"type": "flip", "cards": ["good-throw"]})  # one card: no chooser
    assert state.tokens == (1, 0, 0)


@pytest.mark.parametrize("hazard, wrong", [("dog", "trick"), ("kid", "remedy"),
                                           ("obstacle", "food")])
def test_a_wrong_counter_is_refused_and_changes_nothing(hazard, wrong):
    state = fold([{"type": "toss"}, {"type": "hazard", "player": "Cy", "card": hazard}])
    message = refused(state, {"type": "counter", "card": wrong}, IllegalAction)
    assert "does not counter" in message and "or Shortcut" in message
    assert state == fold([{"type": "toss"}, {"type": "hazard", "player": "Cy", "card": hazard}])


def test_hazards_come_one_at_a_time_and_any_number_may_be_countered():
    state = fold([{"type": "toss"}, {"type": "hazard", "player": "Ben", "card": "dog"}])
    message = refused(state, {"type": "hazard", "player": "Cy", "card": "kid"}, NotNow)
    assert message == "Ben's Dog is waiting for Ann's answer: a Counter or no Counter."
    state = fold([{"type": "toss"},
                  {"type": "hazard", "player": "Ben", "card": "dog"},
                  {"type": "counter", "card": "food"},
                  {"type": "hazard", "player": "Cy", "card": "kid"},
                  {"type": "counter", "card": "shortcut"},
                  {"type": "hazard", "player": 1, "card": "obstacle"},
                  {"type": "counter", "card": "remedy"},
                  {"type": "flip", "cards": ["perfect"]}])
    assert state.tokens == (2, 0, 0)
    assert [h.counter for h in state.last_toss.hazards] == ["food", "shortcut", "remedy"]


def test_the_tosser_cannot_play_a_hazard_on_their_own_toss():
    state = fold([{"type": "toss"}])
    message = refused(state, {"type": "hazard", "player": "ann", "card": "dog"}, IllegalAction)
    assert message == "Ann cannot play a Hazard against their own toss."


def test_ruling_first_uncountered_hazard_ends_the_step_and_names_the_chooser():
    state = fold([{"type": "toss"},
                  {"type": "hazard", "player": "Ben", "card": "dog"},
                  {"type": "counter", "card": "food"},
                  {"type": "hazard", "player": "Cy", "card": "kid"}])
    state, kinds = step(state, {"type": "no-counter"})
    assert kinds == ["hazard-stands"] and state.toss.chooser == 2
    assert pt.public_state(state)["toss"]["chooser"] == "Cy"
    # the Hazard step is over: no more Hazards, no Counter, no Energy Drink
    assert "Hazard step is over" in refused(
        state, {"type": "hazard", "player": "Ben", "card": "obstacle"}, NotNow)
    refused(state, {"type": "counter", "card": "shortcut"}, NotNow)
    refused(state, {"type": "energy-drink"}, IllegalAction)
    # the chooser flips two and picks the one the tosser applies
    assert "Cy flips two Toss cards" in refused(state, {"type": "flip", "cards": ["perfect"]},
                                                IllegalAction)
    state, _ = step(state, {"type": "flip", "cards": ["perfect", "window"]})
    assert pt.public_state(state)["step"] == "pick"
    assert "Perfect or Window" in refused(state, {"type": "pick", "card": "bad-throw"},
                                          IllegalAction)
    state, kinds = step(state, {"type": "pick", "card": "window"})
    assert kinds[:2] == ["pick", "tokens"] and state.tokens == (0, 0, 0)
    assert state.current == 1


def test_two_cards_flipped_while_a_hazard_waits_means_it_was_not_countered():
    state = fold([{"type": "toss"}, {"type": "hazard", "player": "Ben", "card": "obstacle"}])
    message = refused(state, {"type": "flip", "cards": ["good-throw"]}, IllegalAction)
    assert message == ("Ben's Obstacle is waiting: Ann counters it, or Ben flips two Toss "
                       "cards, not 1.")
    state, kinds = step(state, {"type": "flip", "cards": ["good-throw", "perfect"]})
    assert kinds == ["hazard-stands", "flip"] and state.toss.chooser == 1
    state, _ = step(state, {"type": "pick", "card": "good-throw"})
    assert state.tokens == (1, 0, 0)


def test_with_no_hazard_standing_only_one_card_is_flipped():
    state = fold([{"type": "toss"}])
    assert "one Toss card is flipped, not 2" in refused(
        state, {"type": "flip", "cards": ["perfect", "perfect"]}, IllegalAction)


# --- Energy Drink ---------------------------------------------------------------------

def test_energy_drink_lets_the_tosser_pick_from_two_after_all_hazards_are_countered():
    state = fold([{"type": "toss"}, {"type": "hazard", "player": "Ben", "card": "kid"},
                  {"type": "counter", "card": "trick"}])
    state, kinds = step(state, {"type": "energy-drink"})
    assert kinds == ["energy-drink"] and state.toss.chooser == 0
    assert refused(state, {"type": "energy-drink"},
                   NotNow) == "Ann has already played Energy Drink on this toss."
    # ruling: Energy Drink is the Resolve step, so no Hazard may follow it
    refused(state, {"type": "hazard", "player": "Cy", "card": "dog"}, NotNow)
    state, _ = step(state, {"type": "flip", "cards": ["bad-throw", "perfect"]})
    state, _ = step(state, {"type": "pick", "card": "perfect"})
    assert state.tokens == (2, 0, 0) and state.last_toss.energy_drink


def test_energy_drink_is_refused_while_a_hazard_stands_or_waits():
    waiting = fold([{"type": "toss"}, {"type": "hazard", "player": "Ben", "card": "kid"}])
    message = refused(waiting, {"type": "energy-drink"}, IllegalAction)
    assert message == "Energy Drink needs a toss with no Hazard standing."
    standing, _ = step(waiting, {"type": "no-counter"})
    refused(standing, {"type": "energy-drink"}, IllegalAction)


# --- Sprinklers -----------------------------------------------------------------------

@pytest.mark.parametrize("discard, tokens", [(True, 5), (False, 4)])
def test_sprinklers_gives_a_token_only_for_a_second_paper_toss_discarded(discard, tokens):
    state = with_tokens([4, 0, 0])
    state, _ = step(state, {"type": "toss"})
    state, kinds = step(state, {"type": "flip", "cards": ["sprinklers"]})
    assert kinds == ["flip"] and pt.public_state(state)["step"] == "sprinklers"
    assert state.tokens[0] == 4 and state.current == 0
    refused(state, {"type": "pass"}, NotNow)
    state, kinds = step(state, {"type": "sprinklers", "discard": discard})
    assert state.tokens[0] == tokens and state.current == 1
    assert state.last_toss.gained == tokens - 4


def test_sprinklers_picked_by_a_chooser_also_asks_for_the_discard():
    state = fold([{"type": "toss"}, {"type": "hazard", "player": "Cy", "card": "dog"},
                  {"type": "no-counter"}, {"type": "flip", "cards": ["sprinklers", "perfect"]},
                  {"type": "pick", "card": "sprinklers"}])
    assert state.toss.stage == "sprinklers"
    state, _ = step(state, {"type": "sprinklers", "discard": True})
    assert state.tokens == (1, 0, 0)


def test_the_sprinklers_answer_is_only_taken_after_sprinklers():
    state = fold([{"type": "toss"}])
    assert "Sprinklers has not been flipped" in refused(
        state, {"type": "sprinklers", "discard": True}, NotNow)


# --- Bully and Flat Tire (any time) ---------------------------------------------------

def test_bully_takes_a_token_any_time_but_never_below_zero():
    state = with_tokens([0, 3, 0])
    state, _ = step(state, {"type": "toss"})
    state, kinds = step(state, {"type": "bully", "target": "Ben", "by": "Cy"})
    assert kinds == ["bully"] and state.tokens == (0, 2, 0) and state.toss is not None
    state, _ = step(state, {"type": "bully", "target": 0})  # ruling: never below 0
    assert state.tokens == (0, 2, 0)
    assert refused(state, {"type": "bully", "target": "Ben", "by": 1},
                   IllegalAction) == "Ben cannot play Bully on themself."


def test_flat_tire_skips_the_targets_next_turn():
    state, kinds = step(fold([]), {"type": "flat-tire", "target": "Ben", "by": "Cy"})
    assert kinds == ["flat-tire"] and state.skips == (0, 1, 0)
    state, kinds = step(state, {"type": "pass"})
    assert kinds == ["pass", "skip", "turn"] and state.current == 2
    assert state.skips == (0, 0, 0)
    state, _ = step(state, {"type": "pass"})
    state, _ = step(state, {"type": "pass"})
    assert state.current == 1  # the skip was used once


def test_flat_tire_on_the_player_to_act_skips_their_next_turn_not_this_one():
    state = fold([{"type": "flat-tire", "target": "Ann"}, {"type": "toss"},
                  {"type": "flip", "cards": ["good-throw"]}, {"type": "pass"}])
    assert state.tokens == (1, 0, 0)
    state, kinds = step(state, {"type": "pass"})  # Cy passes; Ann is skipped; Ben again
    assert kinds.count("skip") == 1 and state.current == 1


def test_flat_tires_add_up_and_every_player_skipping_still_ends():
    state = fold([{"type": "flat-tire", "target": "Ben"}, {"type": "flat-tire", "target": "Ben"},
                  {"type": "flat-tire", "target": "Cy"}, {"type": "flat-tire", "target": "Ann"}],
                 players=("Ann", "Ben", "Cy"))
    assert state.skips == (1, 2, 1)
    state, kinds = step(state, {"type": "pass"})
    # Ben, Cy, Ann, Ben skip in turn; then Cy plays
    assert kinds.count("skip") == 4 and state.current == 2 and state.skips == (0, 0, 0)


def test_an_unknown_player_is_refused():
    state = fold([])
    assert refused(state, {"type": "bully", "target": "Zed"},
                   IllegalAction) == ("Nobody at this table is called 'Zed'; "
                                    "the players are Ann, Ben and Cy.")
    assert "no seat 3" in refused(state, {"type": "flat-tire", "target": 3}, IllegalAction)


# --- the end of the game --------------------------------------------------------------

def test_the_first_to_ten_tokens_wins_at_once():
    state = with_tokens([8, 9, 0])
    state = replace(state, current=1)
    state, kinds = step(state, {"type": "toss"})
    state, kinds = step(state, {"type": "flip", "cards": ["good-throw"]})
    assert state.over and kinds[-1] == "game-over"
    assert pt.winners(state) == ("Ben",)
    public = pt.public_state(state)
    assert public["winners"] == ["Ben"] and public["current"] is None
    assert public["step"] == "over"
    for data in ({"type": "pass"}, {"type": "bully", "target": "Ben"}):
        assert refused(state, data, NotNow) == "Ben has 10 tokens already; the game is over."


def test_a_target_option_changes_the_winning_count():
    state = fold([{"type": "toss"}, {"type": "flip", "cards": ["perfect"]}],
                 players=("Ann", "Ben"), options={"target": 2})
    assert state.over and pt.winners(state) == ("Ann",)


def test_public_state_is_json_and_shows_the_toss_in_progress():
    state = fold([{"type": "flat-tire", "target": "Cy"}, {"type": "toss"},
                  {"type": "hazard", "player": "Ben", "card": "dog"}])
    public = json.loads(json.dumps(pt.public_state(state)))
    assert public["game"] == "paper-toss" and public["current"] == 0
    assert [p["name"] for p in public["players"]] == ["Ann", "Ben", "Cy"]
    assert public["skipped_turns"] == [0, 0, 1] and public["step"] == "counter"
    toss = public["toss"]
    assert toss["tosser"] == "Ann" and toss["cards_due"] == 2
    assert toss["waiting_hazard"] == {"player": "Ben", "card": "dog"}
    assert public["winners"] == [] and public["over"] is False


# --- the camera link -----------------------------------------------------------------

def test_toss_cards_seen_face_up_become_the_flip_when_the_count_is_right():
    state = fold([{"type": "toss"}])
    seen = ["paper-toss", "perfect"]  # faces that are not Toss cards are ignored
    assert pt.action_from_cards(state, seen) == {"type": "flip", "cards": ["perfect"]}
    assert pt.action_from_cards(state, ["perfect", "window"]) is None  # one card is due
    waiting, _ = step(state, {"type": "hazard", "player": "Ben", "card": "kid"})
    offer = pt.action_from_cards(waiting, ["window", "perfect"])
    assert offer == {"type": "flip", "cards": ["window", "perfect"]}
    picked, _ = step(waiting, offer)
    assert pt.action_from_cards(picked, ["window", "perfect"]) is None  # already flipped
    assert pt.action_from_cards(fold([]), ["perfect"]) is None  # nobody is tossing


# --- random legal games ---------------------------------------------------------------

def candidates(state, rng):
    """Action dicts worth trying now, mostly fitting the step, with a few that do not
    (refused and skipped); Bully and Flat Tire now and then so games still end."""
    n, toss = len(state.players), state.toss
    flip = [{"type": "flip", "cards": [rng.choice(TOSS_CARDS)]},
            {"type": "flip", "cards": [rng.choice(TOSS_CARDS), rng.choice(TOSS_CARDS)]}]
    stray = [rng.choice([{"type": "pass"}, {"type": "no-counter"}, {"type": "energy-drink"},
                         {"type": "pick", "card": rng.choice(TOSS_CARDS)}] + flip)]
    if rng.random() < 0.05:
        return [{"type": rng.choice(["bully", "flat-tire"]), "target": rng.randrange(n),
                 "by": rng.randrange(n)}]
    step_now = pt.public_state(state)["step"] if toss else "turn"
    if step_now == "turn":
        return [{"type": "toss"}] * 6 + [{"type": "pass"}] + stray
    if step_now == "hazards":
        return [{"type": "hazard", "player": rng.randrange(n),
                 "card": rng.choice(["dog", "kid", "obstacle"])},
                {"type": "energy-drink"}] + flip * 2 + stray
    if step_now == "counter":
        return [{"type": "counter", "card": c} for c in ("food", "trick", "remedy", "shortcut")] \
            + [{"type": "no-counter"}] + flip + stray
    if step_now == "pick":
        return [{"type": "pick", "card": c} for c in toss.flipped] + stray
    if step_now == "sprinklers":
        return [{"type": "sprinklers", "discard": b} for b in (True, False)] + stray
    return flip * 2 + stray  # "flip"


EFFECTS = {"good-throw": 1, "perfect": 2, "bad-throw": 0, "window": -1}


def check_token_changes(before, state, data, events):
    """Tokens move only as the applied Toss card or a Bully says, kept within 0..target."""
    expected = list(before.tokens)
    for event in events:
        if event.kind == "tokens":
            seat, card = state.players.index(event.data["player"]), event.data["card"]
            effect = EFFECTS[card] if card != "sprinklers" else int(data["discard"])
            expected[seat] = min(max(expected[seat] + effect, 0), state.target)
        elif event.kind == "bully":
            seat = state.players.index(event.data["player"])
            expected[seat] = max(expected[seat] - 1, 0)
    assert tuple(expected) == state.tokens


def random_game(rng, players, max_actions=3000):
    """Play one game with legal random actions; check invariants after every action."""
    state = pt.new_game(players, {})
    journal, states = [], [state]
    while not state.over and len(journal) < max_actions:
        data = rng.choice(candidates(state, rng))
        action = pt.parse_action(data)
        try:
            pt.check(state, action)
        except ActionError:
            continue
        state, events = pt.apply(state, action)
        journal.append(data)
        states.append(state)
        check_token_changes(states[-2], state, data, events)
        assert all(0 <= t <= state.target for t in state.tokens)
        assert state.over == (max(state.tokens) == state.target)
        assert len(state.history) == state.turn_number - 1
    return journal, states


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(2, 6))
def test_random_games_end_on_the_first_to_ten_and_replay_to_the_same_state(seed, n):
    players = [f"P{i}" for i in range(n)]
    journal, states = random_game(random.Random(seed), players)
    final = states[-1]
    assert final.over and len(pt.winners(final)) == 1
    assert final.tokens.count(10) == 1
    json.dumps(pt.public_state(final))
    assert fold(journal, players) == final  # the journal replays to the same state
    assert fold(journal[:-1], players) == states[-2]  # undo = replay minus the last action


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_undo_walks_back_through_every_state(seed):
    players = ["Ann", "Ben", "Cy"]
    journal, states = random_game(random.Random(seed), players)
    cut = random.Random(seed).randrange(len(journal) + 1)
    assert fold(journal[:cut], players) == states[cut]


def test_thousands_of_seeded_games_all_end():
    rng = random.Random(7)
    lengths = []
    for _ in range(1000):
        journal, states = random_game(rng, ["A", "B", "C", "D"][: rng.randrange(2, 5)])
        assert states[-1].over
        lengths.append(len(journal))
    assert min(lengths) >= 10  # at least five tosses, each a toss and a flip
