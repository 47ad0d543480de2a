"""The five games' rulings as players check them, through the HTTP API on a real server.

Each story plays one edge of the rules digests (``docs/rules/*.md``) through waitress on
localhost and a real SQLite journal: the smallest and largest tables, ties at the end, a
final round, undo across the boundaries, the exact-21 pile's slides and bust, Paper Tales'
4 turns x 6 phases, and Toss Your Cookies' countdown. The engines' own tests hold the
finer cases; these prove the API carries the rulings whole.
"""

from __future__ import annotations

import time
from typing import Any

import pytest

from companion.games import GAMES, find_game


def start(live_server: Any, game: str, players: list[str],
          options: dict[str, Any] | None = None) -> dict[str, Any]:
    body: dict[str, Any] = {"game": game, "players": players}
    if options is not None:
        body["options"] = options
    status, state = live_server.request("POST", "/api/games", body)
    assert status == 201, state
    return state


def act(live_server: Any, *actions: dict[str, Any]) -> dict[str, Any]:
    state: dict[str, Any] = {}
    for action in actions:
        status, state = live_server.request("POST", "/api/actions", action)
        assert status == 200, (action, state)
    return state


def refused(live_server: Any, action: dict[str, Any], status: int, words: str) -> None:
    """``action`` is refused with ``status`` and a sentence holding ``words``; nothing changes."""
    before = live_server.request("GET", "/api/state")[1]
    got, body = live_server.request("POST", "/api/actions", action)
    assert (got, words in body["error"]) == (status, True), body
    assert live_server.request("GET", "/api/state")[1]["version"] == before["version"]


def undo(live_server: Any) -> dict[str, Any]:
    status, state = live_server.request("POST", "/api/undo")
    assert status == 200, state
    return state


def roll(g: int, y: int, r: int) -> dict[str, Any]:
    return {"type": "roll", "green": g, "yellow": y, "red": r}


BANK = {"type": "bank"}
NAMES = ["Ann", "Ben", "Cleo", "Dev", "Eve", "Fay", "Gus", "Hal", "Ida"]


@pytest.mark.parametrize("game", sorted(GAMES))
def test_each_game_takes_its_smallest_and_largest_table_and_no_other(live_server, game):
    module = find_game(game)
    for n in (module.MIN_PLAYERS, module.MAX_PLAYERS):
        state = start(live_server, game, NAMES[:n])
        assert [p["name"] for p in state["players"]] == NAMES[:n]
    for n in (module.MIN_PLAYERS - 1, module.MAX_PLAYERS + 1):
        status, body = live_server.request("POST", "/api/games",
                                           {"game": game, "players": NAMES[:n]})
        assert status == 400
        assert body["error"] == (f"This game needs {module.MIN_PLAYERS} to "
                                 f"{module.MAX_PLAYERS} players, not {n}.")


def test_toss_up_final_round_from_the_last_seat_tie_and_undo(live_server):
    start(live_server, "toss-up", ["Ann", "Ben", "Cleo"], {"target": 5})
    act(live_server, roll(1, 9, 0), BANK, roll(2, 8, 0), BANK)  # Ann 1, Ben 2
    state = act(live_server, roll(6, 4, 0), BANK)  # Cleo passes 5 from the last seat
    assert (state["final_round"], state["final_turns"], state["current"]) == (
        True, ["Ann", "Ben"], 0)
    state = act(live_server, roll(5, 5, 0), roll(0, 5, 0), BANK)  # Ann: 1 + 5 = 6, a tie
    assert state["final_turns"] == ["Ben"] and not state["over"]
    state = act(live_server, roll(0, 0, 10))  # Ben's last turn: a red light
    assert state["over"] and state["winners"] == ["Ann", "Cleo"]  # equal highest share
    assert state["current"] is None
    refused(live_server, roll(1, 9, 0), 409, "The game is over")
    # undo at each boundary: the end, then the turn that opened the final round
    state = undo(live_server)
    assert (state["over"], state["winners"], state["current"]) == (False, [], 1)
    for _ in range(4):
        state = undo(live_server)
    assert (state["final_round"], state["current"], state["turn"]["points"]) == (
        False, 2, 6)
    state = undo(live_server)
    assert state["turn"] == {"points": 0, "dice_in_hand": 10, "rolls": 0, "number": 3}


def test_toss_up_bank_of_zero_and_a_roll_that_is_not_the_dice_in_hand(live_server):
    start(live_server, "toss-up", ["Ann", "Ben"])
    refused(live_server, BANK, 409, "must roll before banking")
    state = act(live_server, roll(0, 10, 0))  # all yellow: nothing happens
    assert state["turn"]["points"] == 0 and state["current"] == 0
    state = act(live_server, BANK)  # a bank of 0 is allowed (ruling)
    assert state["players"][0]["score"] == 0 and state["current"] == 1
    act(live_server, roll(4, 3, 3))
    refused(live_server, roll(4, 3, 3), 400, "has 6 dice in hand")


def test_paper_toss_reaching_ten_wins_at_once_and_window_stays_at_zero(live_server):
    start(live_server, "paper-toss", ["Ann", "Ben"], {"target": 2})
    state = act(live_server, {"type": "toss"}, {"type": "flip", "cards": ["window"]})
    assert state["tokens"] == [0, 0]  # never below 0 (ruling)
    state = act(live_server, {"type": "toss"}, {"type": "hazard", "player": "Ann", "card": "dog"})
    refused(live_server, {"type": "counter", "card": "trick"}, 400, "does not counter a Dog")
    state = act(live_server, {"type": "no-counter"},
                {"type": "flip", "cards": ["perfect", "window"]}, {"type": "pick", "card": "window"})
    assert state["tokens"] == [0, 0] and state["current"] == 0  # Ann chose Ben's card
    state = act(live_server, {"type": "toss"}, {"type": "flip", "cards": ["perfect"]})
    assert (state["over"], state["winners"], state["tokens"]) == (True, ["Ann"], [2, 0])
    state = undo(live_server)
    assert not state["over"] and state["tokens"] == [0, 0]


def test_toss_your_cookies_countdown_and_a_majority_of_rounds(live_server):
    start(live_server, "toss-your-cookies", ["Ann", "Ben", "Cleo"],
          {"rounds": 3, "countdown_seconds": 5})
    before = time.time()
    state = act(live_server, {"type": "roll", "action": "toss", "number": 2})
    after = time.time()
    assert state["phase"] == "countdown"
    toss_at = state["timer"]["deadline"]
    assert before + 5 <= toss_at <= after + 5
    assert state["calls"] == [{"say": say, "at": toss_at - 3 + i}
                              for i, say in enumerate(["One", "Two", "Three", "Toss!"])]
    refused(live_server, {"type": "timeout"}, 409, "The countdown still has")
    state = act(live_server, {"type": "skip", "phase": "countdown"})  # Toss! now
    assert state["phase"] == "scramble"
    state = act(live_server, {"type": "snickerdoodle", "player": 2})  # mid-scramble
    assert (state["round"], state["players"][2]["score"], state["timer"]) == (2, 1, None)
    refused(live_server, {"type": "snickerdoodle", "player": 1,
                          "hand": ["chocolate-chip"] * 4 + ["milk"]}, 400, "at most 4")
    state = act(live_server, {"type": "snickerdoodle", "player": 1,
                              "hand": ["iced-sugar"] * 4 + ["wild", "milk", "half-eaten"]})
    assert not state["over"]  # one round each for Ben and Cleo: the majority is 2
    state = act(live_server, {"type": "snickerdoodle", "player": 2})
    assert (state["over"], state["winners"]) == (True, ["Cleo"])


def test_paper_tales_four_turns_of_six_phases_then_the_tally_and_its_tie_breaks(live_server):
    state = start(live_server, "paper-tales", ["Ann", "Ben"],
                  {"phase_seconds": {"recruitment": 60}})
    seen = []
    before = time.time()
    state = act(live_server, {"type": "start"})
    assert before + 60 <= state["timer"]["deadline"] <= time.time() + 60
    refused(live_server, {"type": "timeout"}, 409, "timer still has")
    for _ in range(24):
        seen.append((state["turn"], state["phase"], state["direction"]))
        if state["phase"] == "wars":
            state = act(live_server, {"type": "wars", "strengths": [4, 2]})  # 2 Wars at twice
            assert state["wars"]["lp"] == [6, 0]
        state = act(live_server, {"type": "next"})
    phases = ["recruitment", "deployment", "wars", "income", "construction", "aging"]
    assert seen == [(t, p, "left" if t % 2 else "right") for t in (1, 2, 3, 4) for p in phases]
    assert state["phase"] == "tally" and not state["over"]
    refused(live_server, {"type": "next"}, 409, "tally")
    state = act(live_server, {"type": "gold", "player": 1, "amount": 1})
    state = act(live_server, {"type": "tally", "building_lp": [0, 24]})  # 24 LP each
    assert [p["score"] for p in state["players"]] == [24, 24]
    assert state["over"] and state["winners"] == ["Ben"]  # the tie goes to more Gold
    state = undo(live_server)
    assert (state["over"], state["phase"]) == (False, "tally")


def test_sorry_exact_21_by_slide_a_slide_down_and_the_bust(live_server):
    start(live_server, "sorry-21", ["Ann", "Ben", "Cleo"])
    state = act(live_server, {"type": "play", "card": "number-10"},
                {"type": "play", "card": "number-8"}, {"type": "play", "card": "slide-10"})
    assert state["total"] == 10  # a slide sets the total, down as well as up
    state = act(live_server, {"type": "play", "card": "slide-21"})  # Ann: exactly 21
    assert state["total"] == 21 and state["pending"]["kind"] == "claim"
    state = act(live_server, {"type": "accept"})
    assert [p["home"] for p in state["players"]] == [1, 0, 0] and state["current"] == 1
    state = act(live_server, {"type": "play", "card": "number-10"},
                {"type": "play", "card": "play-2"})
    refused(live_server, {"type": "play", "card": "slide-15"}, 400, "number card")
    state = act(live_server, {"type": "play", "card": "number-9"},
                {"type": "play", "card": "number-3"})  # 22: Cleo busts inside her Play 2
    assert state["last_round"]["how"] == "bust" and state["total"] == 0
    assert [p["home"] for p in state["players"]] == [2, 1, 0] and state["current"] == 0
    state = undo(live_server)
    assert state["total"] == 19 and [p["home"] for p in state["players"]] == [1, 0, 0]


def test_toss_up_a_player_who_leaves_is_skipped_and_undo_brings_them_back(live_server):
    start(live_server, "toss-up", ["Ann", "Ben", "Cleo", "Dev"], {"target": 5})
    state = act(live_server, roll(3, 7, 0), {"type": "leave", "player": "Ben"})
    assert [p["left"] for p in state["players"]] == [False, True, False, False]
    assert state["current"] == 0 and state["turn"]["points"] == 3  # Ann's turn goes on
    state = act(live_server, BANK)
    assert state["current"] == 2  # Ben's seat is skipped
    refused(live_server, {"type": "leave", "player": "Ben"}, 409, "Ben has already left")
    state = act(live_server, {"type": "leave", "player": 2})  # Cleo, on her own turn
    assert state["current"] == 3 and [p["left"] for p in state["players"]] == [
        False, True, True, False]
    refused(live_server, {"type": "leave", "player": "Dev"}, 400, "needs 2 players")
    state = undo(live_server)
    assert state["current"] == 2 and not state["players"][2]["left"]
    refused(live_server, {"type": "leave", "player": "Zed"}, 400, "Nobody at this table")
    state = act(live_server, roll(6, 4, 0), BANK)  # Cleo passes 5: Dev and Ann are owed
    assert state["final_turns"] == ["Dev", "Ann"]
    state = act(live_server, roll(0, 0, 10), roll(0, 0, 10))
    assert state["over"] and state["winners"] == ["Cleo"]


def test_paper_toss_a_player_leaves_between_tosses_and_undo_brings_them_back(live_server):
    start(live_server, "paper-toss", ["Ann", "Ben", "Cleo"])
    act(live_server, {"type": "toss"})
    refused(live_server, {"type": "leave", "player": "Ben"}, 409, "finish it, then Ben may leave")
    state = act(live_server, {"type": "flip", "cards": ["good-throw"]},
                {"type": "leave", "player": "Ben"})  # Ben, on his own turn
    assert state["current"] == 2 and state["players"][1]["left"]
    refused(live_server, {"type": "bully", "target": "Ben"}, 400, "Ben has left the table")
    state = undo(live_server)
    assert state["current"] == 1 and not state["players"][1]["left"]


def test_sorry_a_player_leaves_between_cards_and_flips_no_pawn(live_server):
    start(live_server, "sorry-21", ["Ann", "Ben", "Cleo"])
    act(live_server, {"type": "play", "card": "slide-21"})
    refused(live_server, {"type": "leave", "player": "Cleo"}, 409, "Settle what waits first")
    state = act(live_server, {"type": "accept"}, {"type": "leave", "player": "Cleo"})
    assert state["players"][2]["left"] and state["current"] == 1
    state = act(live_server, {"type": "play", "card": "number-10"},
                {"type": "play", "card": "number-10"}, {"type": "play", "card": "number-5"})
    assert state["last_round"]["flipped"] == ["Ann"]  # Ben busts; Cleo, gone, flips none
    assert [p["home"] for p in state["players"]] == [2, 0, 0]
