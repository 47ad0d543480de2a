"""Undo across a timer's end: the session must not run the timer out again at once.

A timeout is journaled like any action, so undoing it brings back a running timer whose
deadline has passed; without care the next tick applied the same timeout straight away,
and the undo seemed to do nothing. Real SQLite journal, the fake clock.
"""

from __future__ import annotations

import sqlite3

import pytest

from companion.errors import NotNow
from companion.journal import Journal, StorageError
from companion.session import Session
from tests.support.clock import FakeClock


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def journal(tmp_path):
    j = Journal(tmp_path)
    yield j
    j.close()


def tales(journal: Journal, clock: FakeClock) -> Session:
    session = Session(journal, clock=clock)
    session.start("paper-tales", ["Ann", "Ben"],
                  {"auto_advance": True, "phase_seconds": {"recruitment": 60}})
    session.act({"type": "start"})
    return session


def test_undoing_a_phase_that_ran_out_stays_in_that_phase(journal, clock):
    session = tales(journal, clock)
    clock.advance(61)
    assert session.tick()["phase"] == "deployment"  # auto-advance on the timeout
    clock.advance(5)
    undone = session.undo()
    assert undone["phase"] == "recruitment"
    assert session.tick() is None, "the undone timeout was applied again"
    assert session.state()["phase"] == "recruitment"
    clock.advance(600)
    assert session.tick() is None  # it stays until the host moves on
    assert session.act({"type": "next"})["phase"] == "deployment"


def test_the_phase_that_ran_out_comes_back_shown_as_times_up_not_running(
        tmp_path, journal, clock):
    # after the undo the timer stayed "running" with its deadline in the past: the phones
    # showed a red "0 left" and the host a Pause button (session 13)
    session = tales(journal, clock)
    clock.advance(61)
    session.tick()
    clock.advance(5)
    undone = session.undo()
    assert undone["timer"] == {"duration": 60.0, "running": False, "deadline": None,
                               "remaining_at_pause": 0.0}
    assert undone["times_up"] is True
    journal.close()
    with Journal(tmp_path) as again:  # the same after a restart
        restarted = Session(again, clock=clock)
        assert restarted.state()["timer"] == undone["timer"]
        assert restarted.state()["times_up"] is True
        with pytest.raises(NotNow, match="Time is up for Recruitment; add time or move on"):
            restarted.act({"type": "resume"})
        with pytest.raises(NotNow, match="not running"):
            restarted.act({"type": "pause"})


def test_actions_after_the_held_undo_replay_to_the_same_state(tmp_path, journal, clock):
    session = tales(journal, clock)
    clock.advance(61)
    session.tick()
    clock.advance(5)
    session.undo()
    session.act({"type": "gold", "player": 0, "amount": 2})
    assert session.state()["times_up"] is True, "still held after a ledger entry"
    clock.advance(3)
    live = session.act({"type": "add_time", "seconds": 30})
    assert live["timer"]["running"] and live["times_up"] is False
    journal.close()
    with Journal(tmp_path) as again:
        replayed = Session(again, clock=clock).state()
    assert {k: v for k, v in replayed.items() if k != "events"} == {
        k: v for k, v in live.items() if k != "events"}


def test_after_the_undo_time_added_runs_and_runs_out_again(journal, clock):
    session = tales(journal, clock)
    clock.advance(61)
    session.tick()
    session.undo()
    state = session.act({"type": "add_time", "seconds": 30})
    assert state["timer"]["deadline"] == pytest.approx(clock() + 30)
    clock.advance(29)
    assert session.tick() is None
    clock.advance(2)
    assert session.tick()["phase"] == "deployment"


def test_the_next_phases_timer_runs_out_as_usual_after_an_undo(journal, clock):
    session = tales(journal, clock)
    clock.advance(61)
    session.tick()
    session.undo()
    session.act({"type": "next"})  # into Deployment: its own 90 s
    clock.advance(91)
    assert session.tick()["phase"] == "wars"


def test_a_restart_after_the_undo_does_not_run_the_timer_out_either(tmp_path, journal, clock):
    session = tales(journal, clock)
    clock.advance(61)
    session.tick()
    before = session.undo()
    journal.close()
    clock.advance(30)
    with Journal(tmp_path) as again:
        restarted = Session(again, clock=clock)
        assert restarted.tick() is None
        state = restarted.state()
        assert (state["phase"], state["version"]) == ("recruitment", before["version"])


def test_an_undo_before_the_deadline_leaves_the_timer_to_run_out(journal, clock):
    session = tales(journal, clock)
    session.act({"type": "pause"})
    clock.advance(10)
    session.undo()  # the pause: the timer runs again, 50 s of its minute left
    clock.advance(49)
    assert session.tick() is None
    clock.advance(2)
    assert session.tick()["phase"] == "deployment"


def cookies(journal: Journal, clock: FakeClock) -> Session:
    session = Session(journal, clock=clock)
    session.start("toss-your-cookies", ["Ann", "Ben", "Cy"],
                  {"countdown_seconds": 5, "scramble_seconds": 10})
    session.act({"type": "roll", "action": "toss", "number": 2})
    return session


def test_undoing_toss_goes_back_to_the_countdown_and_waits_for_the_host(journal, clock):
    session = cookies(journal, clock)
    clock.advance(5)
    assert session.tick()["phase"] == "scramble"
    clock.advance(1)
    assert session.undo()["phase"] == "countdown"
    assert session.tick() is None
    assert session.state()["phase"] == "countdown"
    assert session.act({"type": "skip", "phase": "countdown"})["phase"] == "scramble"
    clock.advance(10)
    assert session.tick()["phase"] == "roll"


def test_undoing_the_scrambles_end_gives_the_scramble_back(journal, clock):
    session = cookies(journal, clock)
    clock.advance(5)
    session.tick()
    clock.advance(10)
    state = session.tick()
    assert (state["phase"], state["current"]) == ("roll", 1)
    undone = session.undo()
    assert (undone["phase"], undone["roller"]) == ("scramble", 0)
    assert session.tick() is None
    assert session.act({"type": "next"})["current"] == 1  # the host ends it by hand


def test_a_clock_that_comes_back_early_after_an_undo_still_runs_fresh_timers(
        tmp_path, journal, clock):
    session = tales(journal, clock)
    clock.advance(10)
    session.act({"type": "pause"})
    session.undo()  # an ordinary undo, long before any timer ran out
    journal.close()
    clock.advance(-1800)  # a power cut: the Pi boots with its clock half an hour behind
    with Journal(tmp_path) as again:
        restarted = Session(again, clock=clock)
        state = restarted.act({"type": "next"})  # into Deployment by hand: a fresh timer
        assert state["phase"] == "deployment"
        clock.advance(state["timer"]["deadline"] - clock() + 1)
        ticked = restarted.tick()
        assert ticked is not None and ticked["phase"] == "wars"


def test_a_refused_undo_does_not_hold_back_a_timer_that_ran_out(journal, clock):
    session = tales(journal, clock)
    clock.advance(61)  # the minute is up; the next tick will end Recruitment
    journal._db.execute("PRAGMA query_only = ON")  # the undo cannot be saved
    with pytest.raises(StorageError):
        session.undo()
    journal._db.execute("PRAGMA query_only = OFF")
    assert session.state()["phase"] == "recruitment"
    ticked = session.tick()
    assert ticked is not None, "the refused undo held the timer back"
    assert ticked["phase"] == "deployment"


def test_a_restart_holds_back_only_the_deadline_the_undo_held(tmp_path, journal, clock):
    # The undo held nothing back (no timer had run out); later the clock went back (a
    # power cut on a Pi without a battery clock) and a fresh phase started: its timer
    # ends before the undo's time stamp, but it was never held, so after a restart from
    # the data folder it runs out as it would have without the restart.
    session = tales(journal, clock)
    clock.advance(10)
    session.act({"type": "pause"})
    session.undo()
    clock.advance(-1800)
    started = session.act({"type": "next"})  # Deployment by hand: a fresh 90 s
    journal.close()
    clock.advance(91)
    with Journal(tmp_path) as again:
        restarted = Session(again, clock=clock)
        ticked = restarted.tick()
        assert ticked is not None, "the restart held back a timer no undo had held"
        assert (ticked["phase"], ticked["version"]) == ("wars", started["version"] + 1)


def deployment_ran_out_and_undone(journal: Journal, clock: FakeClock) -> Session:
    """A Paper Tales session whose Deployment timer ran out (to Wars), taken back by undo."""
    session = tales(journal, clock)
    session.act({"type": "next"})  # Deployment, 90 s
    clock.advance(91)
    assert session.tick()["phase"] == "wars"
    session.undo()
    return session


def test_a_restart_keeps_holding_the_timers_end_after_more_actions(tmp_path, journal, clock):
    # Deployment ran out and moved on; the host took that back to enter the realms, so
    # the deploys that follow the undo must not let the timeout come back, live or
    # after a restart.
    session = deployment_ran_out_and_undone(journal, clock)
    session.act({"type": "deploy", "player": 0, "front": [], "back": []})
    assert session.tick() is None
    journal.close()
    clock.advance(30)
    with Journal(tmp_path) as again:
        restarted = Session(again, clock=clock)
        assert restarted.tick() is None
        assert restarted.state()["phase"] == "deployment"


def test_an_upgraded_journal_keeps_holding_the_timers_end_its_undo_took_back(tmp_path, journal, clock):
    # Deployment ran out and the host took that back; then the companion was upgraded to
    # a version that journals the held deadline (games.held). The journal written before
    # has no such column: the first restart judges the hold as the old code did (the
    # timer's end had passed by the latest undo) and keeps it for later restarts.
    deployment_ran_out_and_undone(journal, clock)
    journal.close()
    with sqlite3.connect(tmp_path / Journal.FILENAME) as db:  # as the older code wrote it
        db.execute("ALTER TABLE games DROP COLUMN held")
    clock.advance(30)
    for _ in range(2):  # the upgrade's restart, then an ordinary one
        with Journal(tmp_path) as again:
            restarted = Session(again, clock=clock)
            assert restarted.tick() is None, "the timeout the undo took back came back"
            assert restarted.state()["phase"] == "deployment"
