"""Paper Tales: the phase tracker, timers, ledger, Wars calculator, Aging and end tally."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.errors import ActionError, IllegalAction, InvalidAction, NotNow
from companion.games import find_game
from companion.games import paper_tales as game
from companion.games.paper_tales_ledger import PHASES, score_wars
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


NEXT = {"type": "next"}


def go_to(state: game.State, phase: str, turn: int | None = None) -> game.State:
    """Press ``next`` until the table is in ``phase`` (of ``turn``, if given)."""
    while PHASES[state.phase] != phase or (turn is not None and state.turn != turn):
        state = play(state, NEXT)
    return state


def view(state: game.State) -> dict:
    return game.public_state(state)


def three() -> game.State:
    return game.new_game(["Ann", "Bob", "Cy"])


# -- setup and tracker -------------------------------------------------------------------

def test_setup_gives_three_gold_no_lp_no_buildings_and_registers_the_game():
    assert find_game("paper-tales") is game
    v = view(three())
    assert [(p["name"], p["score"], p["gold"]) for p in v["players"]] == [
        ("Ann", 0, 3), ("Bob", 0, 3), ("Cy", 0, 3)]
    assert set(v["players"][0]["buildings"].values()) == {0}
    assert (v["turn"], v["phase"], v["phase_number"], v["current"]) == (1, "recruitment", 1,
                                                                        None)
    assert (v["over"], v["winners"], v["history"]) == (False, [], [])
    assert len(game.CARDS) == 42 and game.CARDS["time-master"] == "Time Master"


@pytest.mark.parametrize("players", [["Ann"], ["A", "B", "C", "D", "E", "F"]])
def test_two_to_five_players(players):
    with pytest.raises(InvalidAction, match="2 to 5 players"):
        game.new_game(players)


@pytest.mark.parametrize("options, match", [
    ({"speed": 1}, "no option 'speed'"),
    ({"phase_seconds": {"lunch": 5}}, "no phase 'lunch'"),
    ({"phase_seconds": {"wars": -1}}, "0 to 3600"),
    ({"phase_seconds": 30}, "must map"),
    ({"auto_advance": "yes"}, "true or false"),
])
def test_bad_options_are_refused_with_a_sentence(options, match):
    with pytest.raises(InvalidAction, match=match):
        game.new_game(["Ann", "Bob"], options)


def test_pass_direction_is_left_on_turns_1_and_3_and_right_on_2_and_4():
    assert [game.pass_direction(t) for t in (1, 2, 3, 4)] == ["left", "right", "left", "right"]
    state = go_to(three(), "recruitment", turn=2)
    assert view(state)["direction"] == "right"
    assert "to the right" in view(state)["reminders"][0]


def test_the_two_player_draft_deals_nine_and_discards_one():
    assert view(game.new_game(["Ann", "Bob"]))["draft"] == {
        "deal": 9, "keep": 1, "discard": 1, "direction": "left"}
    assert view(three())["draft"]["deal"] == 5 and view(three())["draft"]["discard"] == 0


def test_six_phases_four_turns_then_the_tally_ends_the_game():
    state = three()
    seen = []
    for _ in range(24):
        seen.append((state.turn, PHASES[state.phase]))
        state = play(state, NEXT)
    assert seen[:6] == [(1, p) for p in PHASES] and seen[-1] == (4, "aging")
    assert view(state)["phase"] == "tally" and not state.over
    refused(state, NEXT, NotNow, "Building LP")
    state, events = act(state, {"type": "tally", "building_lp": [1, 2, 3]})
    assert state.over and events[-1].kind == "game-over"
    assert view(state)["history"][-1] == [1, 2, 3]
    refused(state, NEXT, NotNow, "game is over")


def test_income_gives_everyone_two_gold():
    state = go_to(three(), "income")
    assert [p["gold"] for p in view(state)["players"]] == [5, 5, 5]


def test_a_level_one_temple_gives_two_more_gold_at_income_and_is_named():
    # the Temple's +2 income was never added nor named (session 13; units digest); it
    # comes with rules 2, which the session stamps on a new game (test_paper_tales_rules)
    rules_two = game.new_game(["Ann", "Bob", "Cy"], {"rules": game.RULES})
    state = play(go_to(rules_two, "construction"), {"type": "gold", "player": 0, "amount": 1},
                 {"type": "gold", "player": 2, "amount": 1},
                 {"type": "build", "player": 0, "building": "temple", "resource_gold": 2},
                 {"type": "build", "player": 2, "building": "temple"})  # with a Crystal
    state, events = act(go_to(state, "wars", turn=2), NEXT)
    assert [p["gold"] for p in view(state)["players"]] == [4 + 4, 5 + 2, 6 + 4]
    assert events[-2].data == {"gold": 2, "temple": ["Ann", "Cy"]}
    assert view(state)["reminders"] == [
        "Everyone gained 2 Gold; add Income abilities as Gold entries.",
        "Ann's and Cy's Temples gave 2 more each."]
    state = play(go_to(play(state, {"type": "gold", "player": 0, "amount": 2}),
                       "construction", turn=2),
                 {"type": "build", "player": 0, "building": "temple", "level": 2,
                  "resource_gold": 3})
    state = go_to(state, "income", turn=3)
    assert [p["gold"] for p in view(state)["players"]] == [8 + 2 - 3 + 2, 7 + 2, 10 + 4]
    assert view(state)["reminders"][1] == "Cy's Temple gave 2 more."


@pytest.mark.parametrize("level, gold, match", [
    (1, 3, "A level-1 Temple takes a Crystal or 2 Gold, not 3 Gold."),
    (1, 10, "A level-1 Temple takes a Crystal or 2 Gold, not 10 Gold."),
    (2, 2, "A level-2 Temple takes 2 Crystal or 3 Gold, not 2 Gold."),
])
def test_the_temple_is_paid_with_two_gold_at_level_one_and_three_at_level_two(level, gold,
                                                                              match):
    # 0 to 10 Gold were taken (session 13)
    state = play(go_to(three(), "construction"), {"type": "gold", "player": 0, "amount": 10})
    refused(state, {"type": "build", "player": 0, "building": "temple", "level": level,
                    "resource_gold": gold}, IllegalAction, f"^{match}$")


def test_history_records_lp_after_each_turn():
    state = play(go_to(three(), "income"), {"type": "lp", "player": 1, "amount": 4})
    state = go_to(state, "recruitment", turn=2)
    assert view(state)["history"] == [[0, 4, 0]]


# -- ledger ------------------------------------------------------------------------------

def deploy(player: int, front: list[str], back: list[str] | None = None) -> dict:
    return {"type": "deploy", "player": player, "front": front, "back": back or []}


def test_deployment_pays_new_units_and_units_in_play_never_cost_again():
    state = play(go_to(three(), "deployment"), deploy(0, ["knight"], ["archer"]))
    assert view(state)["players"][0]["gold"] == 1
    state = play(go_to(state, "deployment", turn=2), deploy(0, ["archer", "knight"], ["farmer"]))
    assert view(state)["players"][0]["gold"] == 3, "1 + 2 income; the moved Units are free"


def test_a_player_who_cannot_pay_is_refused_but_the_monkey_can_pay():
    state = play(go_to(three(), "deployment"), {"type": "gold", "player": 0, "amount": -3})
    refused(state, deploy(0, ["knight"]), IllegalAction, "Ann has 0 Gold; the new Units cost 1. "
            "Leave out the Units Ann cannot pay for: the rules discard them.")
    state = play(state, deploy(0, ["knight", "monkey"]))
    assert view(state)["players"][0]["gold"] == 0


def test_front_has_two_spots_and_a_fifth_spot_with_a_level_two_building():
    state = go_to(three(), "deployment")
    refused(state, deploy(0, ["farmer", "cook", "hunter"]), IllegalAction,
            "2 spots .3 once a Building is at level 2")
    refused(state, deploy(0, [], ["farmer", "cook", "hunter"]), IllegalAction, "Back has 2")
    state = go_to(play(state, {"type": "gold", "player": 0, "amount": 10}), "construction")
    state = play(state, {"type": "build", "player": 0, "building": "town", "level": 2})
    state = play(go_to(state, "deployment", turn=2), deploy(0, ["farmer", "cook", "hunter"]))
    assert view(state)["players"][0]["front_spots"] == 3


def test_no_more_copies_of_a_unit_than_the_deck_holds():
    state = play(go_to(three(), "deployment"), deploy(0, ["veteran", "veteran"]),
                 deploy(1, ["veteran"]))
    refused(state, deploy(2, ["veteran"]), IllegalAction, "3 Veteran cards, not 4")


def test_deploying_is_done_once_in_the_deployment_phase():
    state = three()
    refused(state, deploy(0, ["farmer"]), NotNow, "in the Deployment phase; this is Recru")
    state = play(go_to(state, "deployment"), deploy(0, ["farmer"]))
    refused(state, deploy(0, ["cook"]), NotNow, "already deployed")


def test_a_kept_copy_keeps_its_age_and_the_younger_copy_stays():
    state = play(go_to(three(), "deployment"), deploy(0, ["knight"]))
    state = play(go_to(state, "deployment", turn=2), deploy(0, ["knight", "knight"]))
    assert [u["aged"] for u in view(state)["players"][0]["front"]] == [True, False]
    state = play(go_to(state, "deployment", turn=3), deploy(0, ["knight"]))
    assert view(state)["players"][0]["front"][0]["aged"] is True, "the old one died"


def test_an_aged_unit_swapped_for_a_fresh_copy_is_paid_for_and_unaged():
    # matched by id, the fresh Knight kept the aged one's token and cost nothing (session 13)
    state = play(go_to(three(), "deployment"), deploy(0, ["knight", "veteran"]))
    state = go_to(state, "deployment", turn=2)
    assert [u["aged"] for u in view(state)["players"][0]["front"]] == [True, True]
    state, events = act(state, {**deploy(0, ["knight", "veteran"]), "discard": ["knight"]})
    p = view(state)["players"][0]
    assert [(u["unit"], u["aged"]) for u in p["front"]] == [("knight", False),
                                                             ("veteran", True)]
    assert events[0].data["cost"] == 1 and p["gold"] == 2 + 2 - 1
    state = go_to(state, "deployment", turn=3)
    assert [u["unit"] for u in view(state)["players"][0]["front"]] == ["knight"], \
        "the fresh Knight lives through the Aging the old one died in"


def test_only_units_in_play_can_be_discarded():
    state = play(go_to(three(), "deployment"), deploy(0, ["knight", "knight"]))
    state = go_to(state, "deployment", turn=2)
    refused(state, {**deploy(0, ["knight"]), "discard": ["cook"]}, IllegalAction,
            "^Ann has no Cook in play to discard.$")
    refused(state, {**deploy(0, ["knight"]), "discard": ["knight"] * 3}, IllegalAction,
            "^Ann has 2 Knight in play, not 3 to discard.$")
    state = play(state, {**deploy(0, ["knight", "knight"]), "discard": ["knight"] * 2})
    assert view(state)["players"][0]["gold"] == 3 - 2 + 2 - 2, "two fresh Knights paid for"


def test_land_cost_is_two_gold_per_building_owned_and_upgrades_skip_it():
    state = play(go_to(three(), "construction"), {"type": "gold", "player": 0, "amount": 5})
    state = play(state, {"type": "build", "player": 0, "building": "mine"})
    assert view(state)["players"][0]["gold"] == 10, "no Building owned: Land cost 0"
    state = play(go_to(state, "construction", turn=2),
                 {"type": "build", "player": 0, "building": "town"})
    assert view(state)["players"][0]["gold"] == 10, "12 - 2 for one Building owned"
    state = play(go_to(state, "construction", turn=3),
                 {"type": "build", "player": 0, "building": "mine", "level": 2})
    assert view(state)["players"][0]["gold"] == 12, "upgrade: Resources only"
    state = play(go_to(state, "construction", turn=4),
                 {"type": "build", "player": 0, "building": "temple", "level": 2,
                  "resource_gold": 3})
    p = view(state)["players"][0]
    assert p["gold"] == 14 - 4 - 3 and p["buildings"]["temple"] == 2


@pytest.mark.parametrize("data, match", [
    ({"building": "mine"}, "already owns the Mine"),
    ({"building": "town", "level": 2}, "Town is already at level 2"),
    ({"building": "tavern"}, "Ann has 1 Gold; that costs 4"),
    ({"building": "mine", "level": 2, "resource_gold": 2}, "Only the Temple"),
])
def test_building_rules_are_enforced(data, match):
    state = play(go_to(three(), "construction"), {"type": "gold", "player": 0, "amount": 4},
                 {"type": "build", "player": 0, "building": "mine"})
    state = play(go_to(state, "construction", turn=2),
                 {"type": "build", "player": 0, "building": "town", "level": 2})
    state = play(go_to(state, "construction", turn=3), {"type": "gold", "player": 0,
                                                        "amount": -10})
    refused(state, {"type": "build", "player": 0, **data}, IllegalAction, match)


def test_one_construction_action_per_player():
    state = play(go_to(three(), "construction"), {"type": "build", "player": 0,
                                                  "building": "mine"})
    refused(state, {"type": "build", "player": 0, "building": "town"}, NotNow, "one action")


def test_lp_never_goes_below_zero_and_gold_cannot_be_overdrawn():
    state = play(three(), {"type": "lp", "player": 0, "amount": 2},
                 {"type": "lp", "player": 0, "amount": -5})
    assert view(state)["players"][0]["score"] == 0
    refused(state, {"type": "gold", "player": 1, "amount": -4}, IllegalAction,
            "Bob has 3 Gold and cannot pay 4")
    refused(state, {"type": "gold", "player": 3, "amount": 1}, IllegalAction, "no seat 3")


# -- Wars --------------------------------------------------------------------------------

@pytest.mark.parametrize("strengths, won", [
    ([5, 3, 1], [2, 1, 0]),        # 3 players: each fights the other two
    ([4, 4, 2], [2, 2, 0]),        # a tie: both win
    ([0, 0, 0], [0, 0, 0]),        # ruling: 0 never wins, even against 0
    ([3, 0, 0, 0, 9], [1, 0, 0, 0, 2]),  # 5 players: only neighbours fight
    ([6, 3], [2, 0]),              # 2 players: at least twice = 2 Wars
    ([5, 3], [1, 0]),              # 2 players: at least = 1 War
    ([4, 4], [1, 1]),              # 2 players: a tie, both win 1
    ([2, 0], [2, 0]),              # twice 0 is 0, but 2 > 0 wins
    ([0, 0], [0, 0]),              # 2 players: 0 never wins
])
def test_wars_award_three_lp_per_war_won(strengths, won):
    result = score_wars(strengths)
    assert list(result.won) == won
    assert list(result.lp) == [3 * w for w in won]


def test_the_wars_calculator_takes_numbers_unit_names_or_the_tracked_realm():
    state = play(go_to(three(), "deployment"), deploy(0, ["knight"], ["archer", "farmer"]))
    state, events = act(go_to(state, "wars"),
                        {"type": "wars", "strengths": [None, ["demon"], 6]})
    assert events[0].data == {"strengths": [6, 7, 6], "won": [1, 2, 1], "lp": [3, 6, 3]}
    assert [p["score"] for p in view(state)["players"]] == [3, 6, 3]
    assert view(state)["wars"]["won"] == [1, 2, 1]
    refused(state, {"type": "wars"}, NotNow, "already scored")


def test_the_wars_need_one_entry_per_player_in_the_wars_phase():
    state = three()
    refused(state, {"type": "wars"}, NotNow, "in the Wars phase")
    refused(go_to(state, "wars"), {"type": "wars", "strengths": [1, 2]}, InvalidAction,
            "Give 3 Front strengths")
    with pytest.raises(InvalidAction, match="no Unit called 'dragonfly'"):
        game.parse_action({"type": "wars", "strengths": [["dragonfly"], 1, 1]})


def test_leaving_an_unscored_wars_phase_scores_the_tracked_realms():
    state = play(go_to(three(), "deployment"), deploy(1, ["cave-spirit"]))
    state, events = act(go_to(state, "wars"), NEXT)
    assert events[0].kind == "wars" and events[0].data["lp"] == [0, 6, 0]
    assert view(state)["phase"] == "income"


def test_age_changes_strength_and_aging_kills_aged_units():
    state = play(go_to(three(), "deployment"), {"type": "gold", "player": 0, "amount": 3},
                 deploy(0, ["colossus", "giant-snake"], ["strategist"]))
    assert view(state)["players"][0]["gold"] == 0, "2 + 1 + 3 Gold"
    assert view(state)["players"][0]["strength"] == 1 + 4 + 1
    state = go_to(state, "aging")
    assert view(state)["reminders"][0] == "No Unit dies this turn."
    state = go_to(state, "wars", turn=2)
    assert view(state)["players"][0]["strength"] == 7 + 0 + (1 + 3), "3 Age tokens"
    state = go_to(state, "aging")
    assert "Ann's Colossus" in view(state)["reminders"][0]
    state, events = act(state, NEXT)
    assert events[0].kind == "aging" and events[0].data["player"] == "Ann"
    assert sorted(events[0].data["died"]) == ["Colossus", "Giant Snake", "Strategist"]
    assert view(state)["players"][0]["front"] == []


# -- end of game -------------------------------------------------------------------------

def finish(state: game.State, building_lp: list[int]) -> game.State:
    while PHASES[min(state.phase, 5)] != "aging" or state.turn != 4:
        state = play(state, NEXT)
    return play(state, NEXT, {"type": "tally", "building_lp": building_lp})


# Everyone ends with 11 Gold (3 at the start + 2 income in each of 4 turns) + what is added.
@pytest.mark.parametrize("gold, building_lp, winners, tie_break", [
    ([0, 0, 0], [5, 2, 0], ["Ann"], None),                               # most LP
    ([0, 4, 0], [5, 5, 0], ["Bob"], "Bob wins the tie on Gold: 15 to 11."),  # tie: most Gold
    ([9, 4, 0], [5, 5, 5], ["Ann"], "Ann wins the tie on Gold: 20 to 15."),
    ([2, 2, 0], [5, 5, 1], ["Ann", "Bob"],                               # tie on both
     "Ann & Bob share the win: tied on LP and on Gold (13)."),
])
def test_building_lp_are_added_and_ties_go_to_gold_then_are_shared(gold, building_lp,
                                                                    winners, tie_break):
    state = three()
    for seat, amount in enumerate(gold):
        state = play(state, {"type": "gold", "player": seat, "amount": amount})
    state = finish(state, building_lp)
    assert view(state)["winners"] == winners and view(state)["over"]
    assert [p["score"] for p in view(state)["players"]] == building_lp
    assert view(state)["tie_break"] == tie_break


def test_the_tally_comes_after_turn_four_with_one_entry_per_player():
    refused(three(), {"type": "tally", "building_lp": [1, 2, 3]}, NotNow, "after turn 4")
    state = play(go_to(three(), "aging", turn=4), NEXT)
    refused(state, {"type": "tally", "building_lp": [1]}, InvalidAction, "Give 3")


# -- timers ------------------------------------------------------------------------------

def test_the_first_phase_waits_for_start_then_later_phases_start_by_themselves():
    state = three()
    assert game.deadline(state) is None and view(state)["timer"]["running"] is False
    state = play(state, {"type": "start", "at": T0})
    assert game.deadline(state) == T0 + 120
    state = play(state, {"type": "next", "at": T0 + 50})
    assert view(state)["timer"]["deadline"] == T0 + 50 + 90, "Deployment: 90 s from now"
    state = play(state, {"type": "next", "at": T0 + 60})
    assert view(state)["timer"] is None and game.deadline(state) is None, "Wars: untimed"


def test_timeout_flags_times_up_and_the_table_moves_on_when_ready():
    state = play(three(), {"type": "start", "at": T0})
    refused(state, {"type": "timeout", "at": T0 + 100}, NotNow, "still has 20 seconds")
    state, events = act(state, {"type": "timeout"}, at=T0 + 120)
    assert [e.kind for e in events] == ["times-up"]
    assert view(state)["times_up"] and view(state)["phase"] == "recruitment"
    assert game.deadline(state) is None, "a flagged timer does not fire again"
    refused(state, {"type": "timeout", "at": T0 + 130}, NotNow, "No phase timer")
    refused(state, {"type": "start", "at": T0 + 130}, NotNow, "Time is up")
    state = play(state, {"type": "add_time", "seconds": 30, "at": T0 + 140})
    assert not view(state)["times_up"] and game.deadline(state) == T0 + 170


def test_with_auto_advance_a_timeout_ends_the_phase():
    state = game.new_game(["Ann", "Bob"], {"auto_advance": True,
                                           "phase_seconds": {"recruitment": 10}})
    state = play(state, {"type": "start", "at": T0})
    state, events = act(state, {"type": "timeout"}, at=game.deadline(state))
    assert view(state)["phase"] == "deployment" and events[-1].kind == "phase"
    assert game.deadline(state) == T0 + 10 + 90


def test_pause_resume_and_add_time_move_the_deadline():
    state = play(three(), {"type": "start", "at": T0}, {"type": "pause", "at": T0 + 20})
    assert view(state)["timer"] == {"duration": 120.0, "running": False, "deadline": None,
                                    "remaining_at_pause": 100.0}
    refused(state, {"type": "pause", "at": T0 + 21}, NotNow, "not running")
    state = play(state, {"type": "resume", "at": T0 + 300})
    assert game.deadline(state) == T0 + 400
    refused(state, {"type": "start", "at": T0 + 301}, NotNow, "already running")
    state = play(state, {"type": "add_time", "seconds": 15, "at": T0 + 310})
    assert game.deadline(state) == T0 + 415


def test_an_untimed_phase_gets_a_timer_from_add_time():
    state = go_to(three(), "wars")
    refused(state, {"type": "start", "at": T0}, NotNow, "no timer")
    state = play(state, {"type": "add_time", "seconds": 20, "at": T0})
    assert game.deadline(state) == T0 + 20


def test_timer_actions_need_the_session_time_stamp():
    with pytest.raises(InvalidAction, match="time stamp"):
        game.parse_action({"type": "next"})
    with pytest.raises(InvalidAction, match="Unknown action 'shuffle'"):
        game.parse_action({"type": "shuffle", "at": T0})


# -- random legal games ------------------------------------------------------------------

UNIT_IDS = sorted(game.CARDS)


def candidates(draw, state: game.State, now: float) -> list[dict]:
    """A few actions, legal or not, for a random game (hypothesis ``data.draw``)."""
    n = len(state.players)
    seat = draw(st.integers(0, n))  # n is a seat that does not exist
    units = st.lists(st.sampled_from(UNIT_IDS), max_size=3)
    deadline = game.deadline(state)
    return [
        {"type": "next", "at": now},
        {"type": draw(st.sampled_from(["start", "pause", "resume", "toggle"])), "at": now},
        {"type": "add_time", "seconds": draw(st.integers(1, 60)), "at": now},
        {"type": "timeout", "at": deadline if deadline is not None else now},
        {"type": "deploy", "player": seat, "front": draw(units), "back": draw(units)},
        {"type": "build", "player": seat, "building": draw(st.sampled_from(
            ["town", "tavern", "mine", "temple", "barracks"])), "level": draw(
            st.integers(1, 2))},
        {"type": draw(st.sampled_from(["gold", "lp"])), "player": seat,
         "amount": draw(st.integers(-6, 6))},
        {"type": "wars", "strengths": draw(st.lists(st.integers(0, 12), min_size=n,
                                                    max_size=n))},
        {"type": "tally", "building_lp": draw(st.lists(st.integers(0, 20), min_size=n,
                                                       max_size=n))},
    ]


def check_invariants(state: game.State) -> None:
    v = game.public_state(state)
    for p in v["players"]:
        assert p["gold"] >= 0 and p["score"] >= 0
        assert len(p["front"]) <= p["front_spots"] and len(p["back"]) <= 2
    assert 1 <= v["turn"] <= 4 and v["current"] is None
    assert v["over"] == bool(v["winners"])


def replay(players: list[str], journal: list[dict]) -> game.State:
    state = game.new_game(players, {"auto_advance": True})
    for data in journal:
        state, _ = game.apply(state, game.parse_action(data))
    return state


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data(), st.integers(2, 5))
def test_random_legal_games_reach_the_end_and_replay_exactly(data, n):
    players = [f"P{i}" for i in range(n)]
    state = game.new_game(players, {"auto_advance": True})
    journal, before_last, now = [], state, T0
    for step in range(400):
        now += data.draw(st.floats(0, 40))
        options = candidates(data.draw, state, now)
        pick = options[0] if step > 80 else data.draw(st.sampled_from(options))
        if state.phase == len(PHASES):
            pick = options[-1]
        snapshot = state
        try:
            action = game.parse_action(pick)
            game.check(state, action)
        except ActionError:
            assert state == snapshot, "a refused action changes nothing"
            continue
        before_last = state
        state, _ = game.apply(state, action)
        journal.append(pick)
        check_invariants(state)
        if state.over:
            break
    assert state.over and len(state.history) == 5
    assert replay(players, journal) == state
    assert replay(players, journal[:-1]) == before_last, "undo = replay minus the last"


def test_the_buttons_advance_the_phase_and_toggle_the_timer():
    state = three()
    state = play(state, {**game.BUTTONS["timer"], "at": T0})
    assert game.deadline(state) == T0 + 120
    state = play(state, {**game.BUTTONS["timer"], "at": T0 + 20})
    assert game.deadline(state) is None and state.timer.left == 100
    state = play(state, {**game.BUTTONS["timer:hold"], "at": T0 + 30})
    assert state.timer.left == 130
    state = play(state, {**game.BUTTONS["next"], "at": T0 + 40})
    assert view(state)["phase"] == "deployment"


def test_abilities_resolve_by_most_lp_then_least_gold_and_ties_are_left_to_chance():
    state = play(game.new_game(["Ann", "Bob", "Cy", "Di"]),
                 {"type": "lp", "player": 2, "amount": 3},
                 {"type": "lp", "player": 0, "amount": 1},
                 {"type": "lp", "player": 1, "amount": 1},
                 {"type": "gold", "player": 0, "amount": 2})
    assert view(state)["ability_order"] == [["Cy"], ["Bob"], ["Ann"], ["Di"]]
    assert view(three())["ability_order"] == [["Ann", "Bob", "Cy"]]


def test_the_reminders_follow_the_phase():
    state = go_to(three(), "deployment")
    assert any("at most one Unit" in r for r in view(state)["reminders"])
    assert "3 LP" in " ".join(view(play(state, NEXT))["reminders"])
    assert "Land cost 2 Gold" in view(go_to(state, "construction"))["reminders"][0]
    two = go_to(game.new_game(["Ann", "Bob"]), "wars")
    assert "twice wins 2" in view(two)["reminders"][0]


def test_a_restart_rebuilds_the_same_deadline_and_the_timeout_still_fires():
    journal = [{"type": "start", "at": T0}, {"type": "next", "at": T0 + 100}]
    live = play(three(), *journal)
    restarted = three()
    for data in journal:  # the session folds the journal again after a restart
        restarted, _ = game.apply(restarted, game.parse_action(data))
    assert restarted == live and game.deadline(restarted) == T0 + 190
    # off past the deadline: the session applies the timeout stamped with the deadline
    state, events = act(restarted, {"type": "timeout"}, at=game.deadline(restarted))
    assert events[0].kind == "times-up" and view(state)["times_up"]


@pytest.mark.parametrize("kind", sorted(game.ACTIONS))
def test_every_documented_example_parses_once_stamped(kind):
    doc = game.ACTIONS[kind]
    assert doc.example["type"] == kind and set(doc.required) <= set(doc.properties)
    game.parse_action({**doc.example, "at": T0})


def test_a_next_meant_for_a_phase_already_over_is_refused():
    # the next button ended Recruitment a moment before the host tapped "Next phase →" on a
    # page that had not yet seen it: the host's tap ended Deployment too
    state = play(game.new_game(["Ann", "Ben"], {}), {"type": "next", "phase": "recruitment"})
    assert view(state)["phase"] == "deployment"
    refused(state, {"type": "next", "phase": "recruitment"}, NotNow,
            "Recruitment is already over: Deployment is on.")
    refused(state, {"type": "next", "phase": "tea"}, InvalidAction, "'phase'")
    assert view(play(state, {"type": "next", "phase": "deployment"}))["phase"] == "wars"
