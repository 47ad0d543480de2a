"""The session over a real SQLite journal: durability, undo, version, failures."""

from __future__ import annotations

import contextlib
import os
import signal
import sqlite3
import subprocess
import sys
import textwrap

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.errors import IllegalAction, InvalidAction, NotNow
from companion.journal import Journal, StorageError
from companion.session import Session
from tests.support.clock import FakeClock


def durable(state: dict) -> dict:
    """The state without ``events``: the cues of the last change, empty after a restart."""
    return {k: v for k, v in state.items() if k != "events"}


def roll(g: int, y: int, r: int) -> dict:
    return {"type": "roll", "green": g, "yellow": y, "red": r}


def test_no_game_yet(empty_session):
    state = empty_session.state()
    assert state["game"] is None and state["version"] == 0
    with pytest.raises(NotNow, match="No game is running"):
        empty_session.act({"type": "bank"})


def test_every_change_raises_the_version_by_one(empty_session):
    versions = [empty_session.state()["version"]]
    versions.append(empty_session.start("toss-up", ["Ann", "Bob"])["version"])
    versions.append(empty_session.act(roll(3, 4, 3))["version"])
    versions.append(empty_session.undo()["version"])
    versions.append(empty_session.act(roll(2, 5, 3))["version"])
    assert versions == [0, 1, 2, 3, 4]


def test_a_refused_action_changes_nothing(empty_session):
    empty_session.start("toss-up", ["Ann", "Bob"])
    before = empty_session.state()
    for bad in (roll(3, 3, 3), {"type": "fly"}, {"type": "roll"}, [1, 2], None):
        with pytest.raises((IllegalAction, InvalidAction)):
            empty_session.act(bad)
        assert empty_session.state() == before


def test_undo_walks_back_to_the_start(empty_session):
    empty_session.start("toss-up", ["Ann", "Bob"])
    seen = [durable(empty_session.state())]
    for data in (roll(3, 4, 3), roll(2, 4, 1), {"type": "bank"}, roll(0, 10, 0)):
        empty_session.act(data)
        seen.append(durable(empty_session.state()))
    for expected in reversed(seen[:-1]):
        state = durable(empty_session.undo())
        assert {k: v for k, v in state.items() if k != "version"} == \
               {k: v for k, v in expected.items() if k != "version"}
    with pytest.raises(NotNow, match="nothing to undo"):
        empty_session.undo()


def test_restart_resumes_exactly(tmp_path, open_journal):
    clock = FakeClock()
    first = Session(open_journal(tmp_path), clock=clock)
    first.start("toss-up", ["Ann", "Bob", "Cy"])
    for data in (roll(3, 4, 3), {"type": "bank"}, roll(5, 4, 1), roll(1, 4, 0)):
        first.act(data)
    first.undo()
    live = first.state()
    first.journal.close()
    again = Session(open_journal(tmp_path), clock=clock)
    assert durable(again.state()) == durable(live)
    assert again.state()["version"] == live["version"] == 6


def test_a_new_game_keeps_the_old_one_in_the_history(empty_session):
    empty_session.start("toss-up", ["Ann", "Bob"], {"target": 4})
    for data in (roll(5, 5, 0), {"type": "bank"}, roll(0, 5, 5)):
        empty_session.act(data)
    assert empty_session.state()["winners"] == ["Ann"]
    empty_session.start("toss-up", ["Cy", "Di"])
    games = empty_session.journal.games()
    assert [g.winners for g in games] == [["Ann"], None]
    assert empty_session.state()["players"][0]["name"] == "Cy"


def test_undo_of_the_winning_action_reopens_the_game(empty_session):
    empty_session.start("toss-up", ["Ann", "Bob"], {"target": 4})
    for data in (roll(5, 5, 0), {"type": "bank"}, roll(0, 5, 5)):
        empty_session.act(data)
    empty_session.undo()
    assert empty_session.journal.games()[-1].winners is None
    assert not empty_session.state()["over"]


def test_actions_are_stamped_by_the_clock_not_the_client(tmp_path, open_journal):
    clock = FakeClock(start=1000.0)
    s = Session(open_journal(tmp_path), clock=clock)
    s.start("toss-up", ["Ann", "Bob"])
    clock.advance(5)
    state = s.act({**roll(3, 4, 3), "at": 1})
    assert state["recent"][-1]["at"] == 1005.0


def test_recent_actions_name_whose_turn_it_was_and_survive_a_restart(tmp_path, open_journal):
    s = Session(open_journal(tmp_path), clock=FakeClock(start=1000.0))
    s.start("toss-up", ["Ann", "Bob"])
    for data in (roll(3, 4, 3), {"type": "bank"}, roll(2, 5, 3)):
        s.act(data)
    turns = [(a["type"], a["turn"]) for a in s.state()["recent"]]
    assert turns == [("roll", 0), ("bank", 0), ("roll", 1)]
    again = Session(open_journal(tmp_path), clock=FakeClock(start=2000.0))
    assert again.state()["recent"] == s.state()["recent"]
    assert [(a["type"], a["turn"]) for a in again.undo()["recent"]] == turns[:2]


def test_wait_any_returns_the_next_version_or_the_same_on_timeout(empty_session):
    empty_session.start("toss-up", ["Ann", "Bob"])
    v = empty_session.state()["version"]
    seq, _ = empty_session.extras()
    assert empty_session.wait_any(v, seq, timeout=0.01) == (empty_session.state(), seq)
    empty_session.act(roll(3, 4, 3))
    state, same_seq = empty_session.wait_any(v, seq, timeout=0.01)
    assert (state["version"], same_seq) == (v + 1, seq)


def test_a_full_disk_refuses_the_action_and_keeps_the_state(tmp_path, open_journal):
    s = Session(open_journal(tmp_path))
    s.start("toss-up", ["Ann", "Bob"])
    before = s.state()
    db = s.journal._db
    pages = db.execute("PRAGMA page_count").fetchone()[0]
    db.execute(f"PRAGMA max_page_count = {pages}")
    with pytest.raises(StorageError, match="disk is full"):
        for _ in range(200):  # each action needs room; the file cannot grow
            s.act(roll(0, 10, 0))
            before = s.state()
    assert s.state() == before
    db.execute("PRAGMA max_page_count = 1000000")
    assert durable(Session(open_journal(tmp_path)).state()) == durable(before)


def test_a_damaged_database_is_moved_aside(tmp_path, open_journal):
    (tmp_path / "companion.db").write_bytes(b"SQLite format 3\x00" + b"\xff" * 4000)
    journal = open_journal(tmp_path)
    assert journal.moved_aside is not None and journal.moved_aside.exists()
    assert Session(journal).state()["version"] == 0


# -- properties --------------------------------------------------------------------

faces = st.lists(st.sampled_from("gggyyr"), min_size=10, max_size=10)


@settings(max_examples=25, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(st.lists(st.tuples(st.booleans(), faces, st.booleans()), min_size=1, max_size=25))
def test_replay_equals_live_and_undo_restores(tmp_path_factory, open_journal, steps):
    path = tmp_path_factory.mktemp("journal")
    s = Session(open_journal(path), clock=FakeClock())
    s.start("toss-up", ["Ann", "Bob", "Cy"], {"target": 15})
    for bank, dice, undo in steps:
        before = durable(s.state())
        turn = before["turn"]
        if before["over"]:
            break
        if bank and turn["rolls"]:
            data = {"type": "bank"}
        else:
            hand = dice[: turn["dice_in_hand"]]
            data = roll(hand.count("g"), hand.count("y"), hand.count("r"))
        s.act(data)
        if undo:
            after = durable(s.undo())
            assert {k: v for k, v in after.items() if k != "version"} == \
                   {k: v for k, v in before.items() if k != "version"}
            s.act(data)
    live = s.state()
    assert all(p["score"] >= 0 for p in live["players"])
    s.journal.close()
    assert durable(Session(open_journal(path)).state()) == durable(live)


# -- a real kill -------------------------------------------------------------------

WRITER = textwrap.dedent("""
    import sys
    from companion.journal import Journal
    from companion.session import Session
    s = Session(Journal(sys.argv[1]))
    s.start("toss-up", ["Ann", "Bob"])
    while True:
        state = s.act({"type": "roll", "green": 0, "yellow": 10, "red": 0})
        print(state["version"], flush=True)
""")


def test_kill_9_loses_no_acknowledged_action(tmp_path, open_journal):
    proc = subprocess.Popen([sys.executable, "-c", WRITER, str(tmp_path)],
                            stdout=subprocess.PIPE, text=True, cwd=os.getcwd())
    for first in proc.stdout:
        if int(first) >= 40:
            break
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    # The writer went on while this test read: every line it printed was acknowledged,
    # so the last whole line still in the pipe is the last acknowledged version.
    acknowledged = max(int(line) for line in [first, *proc.stdout] if line.endswith("\n"))
    proc.stdout.close()
    state = Session(open_journal(tmp_path)).state()
    # every printed (acknowledged) version is on disk; at most the one in flight beyond it
    assert acknowledged <= state["version"] <= acknowledged + 1
    assert state["turn"]["rolls"] == state["version"] - 1
    with contextlib.closing(sqlite3.connect(tmp_path / "companion.db")) as db:
        assert db.execute("PRAGMA quick_check").fetchone()[0] == "ok"
