"""Toss Up!: what just happened, for the scoreboard's last-event line and the host's list.

The other games keep a line of the last round; Toss Up! left no trace of a bank or a red
light once the dice passed on, and in the final round nothing said what the player
rolling needed.
"""

from __future__ import annotations

from companion.games import toss_up as game
from tests.support.rules import replay


def roll(g, y, r):
    return {"type": "roll", "green": g, "yellow": y, "red": r}


BANK = {"type": "bank"}


def view(actions, players=("Ann", "Ben", "Cy"), target=100):
    state = game.new_game(list(players), {"target": target})
    return game.public_state(replay(game, state, actions, at=None))


def test_the_last_turn_says_how_it_ended():
    assert view([])["last_turn"] is None
    assert view([roll(3, 7, 0), roll(2, 5, 0), BANK])["last_turn"] == {
        "player": "Ann", "how": "bank", "points": 5, "total": 5}
    assert view([roll(3, 7, 0), BANK, roll(4, 6, 0), roll(0, 5, 1)])["last_turn"] == {
        "player": "Ben", "how": "red-light", "points": 0, "lost": 4, "total": 0}
    assert view([roll(3, 7, 0), {"type": "leave", "player": "Ann"}])["last_turn"] == {
        "player": "Ann", "how": "leave", "points": 0, "lost": 3, "total": 0}


def test_in_the_final_round_the_player_rolling_is_told_what_ties_and_what_wins():
    assert view([roll(3, 7, 0), BANK])["needs"] is None
    state = view([roll(6, 4, 0), BANK], target=5)  # Ann 6 opens the final round
    assert state["needs"] == {"player": "Ben", "tie": 6, "win": 7}
    # the opener corrected back under the target: a tie there wins nothing
    correct = {"type": "correct", "player": "Ann", "delta": -2, "reason": "miscounted"}
    state = view([roll(6, 4, 0), BANK, correct, roll(3, 7, 0)], target=5)
    assert state["needs"] == {"player": "Ben", "tie": None, "win": 6}
    assert view([roll(6, 4, 0), BANK, roll(3, 7, 0), BANK, roll(1, 9, 0), BANK],
                target=5)["needs"] is None, "over"


def test_the_recent_list_says_how_many_points_a_bank_banked(session):
    # the host's list read "Dan banks": how many points?
    session.act(roll(4, 6, 0))
    session.act(BANK)
    assert session.state()["recent"][-1] == {"type": "bank", "at": session.state()["recent"][-1]["at"],
                                             "turn": 0, "points": 4}
