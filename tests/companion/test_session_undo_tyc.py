"""Toss Your Cookies: an undo across the end of the countdown or scramble.

The timeout is journaled, so undoing it brings back a timer "running" with its deadline
in the past; the session holds that deadline back (no timeout at once) and the game's
``hold`` shows the timer stopped at 0 instead (phones showed a running 0, the host a
Pause button; rev13). Whatever the held state accepts must give what the replayed state
gives, so a restart (which replays the journal and holds again) agrees. Real SQLite
journal, the fake clock.
"""

from __future__ import annotations

import pytest

from companion.errors import NotNow
from companion.journal import Journal
from companion.session import Session
from tests.companion.test_session_undo_timers import clock, journal  # noqa: F401 (fixtures)
from tests.support.clock import FakeClock

STOPPED_AT_0 = {"duration": 10.0, "running": False, "deadline": None, "remaining_at_pause": 0.0}
OPTIONS = {"countdown_seconds": 5, "scramble_seconds": 10}


def scramble_ran_out_and_undone(journal: Journal, clock: FakeClock) -> Session:
    """Toss, countdown and scramble run out (the dice go left); the host undoes that."""
    session = Session(journal, clock=clock)
    session.start("toss-your-cookies", ["Ann", "Ben", "Cy"], OPTIONS)
    session.act({"type": "toss"})
    clock.advance(5)
    assert session.tick()["phase"] == "scramble"
    clock.advance(11)
    assert session.tick()["phase"] == "roll"
    clock.advance(80)
    assert session.undo()["phase"] == "scramble"
    return session


def public(state):
    return {k: v for k, v in state.items() if k != "events"}


def restarted(tmp_path, journal: Journal, clock: FakeClock):
    journal.close()
    with Journal(tmp_path) as again:
        return public(Session(again, clock=clock).state())


def test_the_scramble_that_ran_out_comes_back_stopped_at_0_not_running(
        tmp_path, journal, clock):
    session = scramble_ran_out_and_undone(journal, clock)
    state = session.state()
    assert state["timer"] == STOPPED_AT_0
    assert session.tick() is None
    with pytest.raises(NotNow, match="Time is up for the scramble; add time or skip it"):
        session.act({"type": "toggle"})
    with pytest.raises(NotNow, match="Time is up for the scramble"):
        session.act({"type": "pause"})
    assert restarted(tmp_path, journal, clock) == public(state)


def test_the_countdown_that_ran_out_comes_back_stopped_at_0(journal, clock):
    session = Session(journal, clock=clock)
    session.start("toss-your-cookies", ["Ann", "Ben", "Cy"], OPTIONS)
    session.act({"type": "toss"})
    clock.advance(6)
    session.tick()
    state = session.undo()
    assert (state["phase"], state["timer"]["running"], state["calls"]) == (
        "countdown", False, None)
    assert state["timer"]["remaining_at_pause"] == 0.0


@pytest.mark.parametrize("actions", [
    [{"type": "claim", "player": 1}],
    [{"type": "claim", "player": 1}, {"type": "withdraw"}],
    [{"type": "claim", "player": 1}, {"type": "withdraw"}, {"type": "add_time", "seconds": 5}],
    [{"type": "add_time", "seconds": 5}],
    [{"type": "correct", "player": 0, "delta": 1, "reason": "miscount"}],
], ids=["claim", "withdraw", "withdraw-add", "add", "correct"])
def test_actions_on_the_held_scramble_replay_to_the_same_state(
        tmp_path, journal, clock, actions):
    session = scramble_ran_out_and_undone(journal, clock)
    for action in actions:
        clock.advance(2)
        live = public(session.act(action))
    assert session.tick() is None or actions[-1]["type"] == "add_time"
    assert restarted(tmp_path, journal, clock) == live


def test_a_withdrawn_claim_leaves_the_held_scramble_at_0_not_running_out(journal, clock):
    session = scramble_ran_out_and_undone(journal, clock)
    assert session.act({"type": "claim", "player": 1})["claim"]["paused"] is False
    state = session.act({"type": "withdraw"})
    assert (state["phase"], state["timer"]) == ("scramble", STOPPED_AT_0)
    assert session.tick() is None


def test_time_added_to_the_held_scramble_runs_and_runs_out_again(journal, clock):
    session = scramble_ran_out_and_undone(journal, clock)
    state = session.act({"type": "add_time", "seconds": 5})
    assert state["timer"]["deadline"] == pytest.approx(clock() + 5)
    clock.advance(6)
    assert session.tick()["phase"] == "roll"


def test_a_journal_written_before_replays_its_late_claim_as_it_did(tmp_path, journal, clock):
    # Before this rule a claim on a timer past its deadline (before the tick, or on the
    # undone scramble) paused it, and a withdraw ran it again (at once out). That journal
    # must replay to the same state: the rule applies to claims made with it.
    start = clock()
    game = journal.start_game("toss-your-cookies", ["Ann", "Ben", "Cy"], OPTIONS, start)
    journal.append(game, {"type": "toss", "at": start}, start)
    journal.append(game, {"type": "timeout", "at": start + 5}, start + 5)
    journal.append(game, {"type": "claim", "player": 1, "at": start + 16}, start + 16)
    clock.advance(17)
    state = restarted(tmp_path, journal, clock)
    assert state["claim"]["paused"] is True
