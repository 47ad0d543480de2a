"""Toss Up!: the final round closes when it ends with nobody at the table over the target.

The digest: the winner has the highest total *over* 100. If the opener leaves the table
or a correction takes them back to 96, the last turns could end with nobody over 100,
and the game ended with a winner on 96 or 10. Ruling: the final round closes and play
goes on in seat order; the next total over the target opens a new one.
"""

from __future__ import annotations

from companion.games import toss_up as game
from tests.support.rules import replay


def roll(g, y, r):
    return {"type": "roll", "green": g, "yellow": y, "red": r}


BANK = {"type": "bank"}
OPEN = [roll(6, 4, 0), BANK]  # Ann banks 6: over the target 5, the final round opens


def play(actions, players=("Ann", "Ben", "Cy")):
    return replay(game, game.new_game(list(players), {"target": 5}), actions, at=None)


def test_the_openers_leave_closes_the_final_round_and_play_goes_on():
    journal = OPEN + [{"type": "leave", "player": "Ann"}, roll(2, 8, 0), BANK,
                      roll(3, 7, 0)]
    before = game.public_state(play(journal))
    assert before["final_round"] and before["final_turns"] == ["Cy"]
    state, events = game.apply(play(journal), game.parse_action(BANK))  # Cy banks 3
    view = game.public_state(state)
    assert not view["over"] and view["winners"] == []
    assert not view["final_round"] and view["final_turns"] == []
    assert view["current"] == 1, "Ann left: Ben rolls next, in seat order"
    assert [e.kind for e in events] == ["bank", "final-round-closed"]
    # the next total over the target opens a new final round, and it ends the game
    view = game.public_state(play(journal + [BANK, roll(4, 6, 0), BANK, roll(1, 9, 0), BANK]))
    assert view["over"] and view["winners"] == ["Ben"]
    assert [p["score"] for p in view["players"]] == [6, 6, 4]


def test_a_correction_below_the_target_closes_the_final_round_at_its_end():
    correct = {"type": "correct", "player": "Ann", "delta": -2, "reason": "miscounted"}
    view = game.public_state(play(OPEN + [correct, roll(2, 8, 0), BANK, roll(1, 9, 0), BANK]))
    assert not view["over"] and not view["final_round"]
    assert view["current"] == 0, "Ann (4) rolls again"


def test_someone_over_the_target_at_the_end_still_wins_it():
    correct = {"type": "correct", "player": "Ann", "delta": -2, "reason": "miscounted"}
    view = game.public_state(play(OPEN + [correct, roll(7, 3, 0), BANK, roll(1, 9, 0), BANK]))
    assert view["over"] and view["winners"] == ["Ben"]
