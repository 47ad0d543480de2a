"""Power cuts through a real ``companion serve``: SIGKILL at random moments (mid-burst
included), restart on the same folder, every acknowledged action there and nothing else.

The default suite runs a few cycles; ``-m slow`` and ``bench/bench_stress.py power``
run 100+.
"""

from __future__ import annotations

import contextlib
import sqlite3

import pytest

from tests.stress.harness import ServeProcess
from tests.stress.power import PowerCuts


def _run_cycles(tmp_path, cycles: int, seed: int) -> None:
    with contextlib.closing(PowerCuts(tmp_path / "data", tmp_path / "model",
                                      seed=seed)) as cuts:
        for _ in range(cycles):
            cuts.cycle()
        with ServeProcess(tmp_path / "data") as server:  # the last kill is checked too
            status, state = server.client().call("GET", "/api/state")
            assert status == 200
            cuts._reconcile(state)
    report = cuts.report
    assert report.mismatches == []
    assert report.acknowledged > 0 and report.cycles == cycles
    with contextlib.closing(sqlite3.connect(tmp_path / "data" / "companion.db")) as db:
        assert db.execute("PRAGMA quick_check").fetchone()[0] == "ok"
    assert not list((tmp_path / "data").glob("*.damaged-*")), "a kill damaged the journal"


def test_kill_9_at_random_moments_loses_no_acknowledged_action(tmp_path):
    _run_cycles(tmp_path, cycles=4, seed=11)


@pytest.mark.slow
def test_kill_9_hundred_cycles(tmp_path):
    _run_cycles(tmp_path, cycles=100, seed=2026)


def test_sigterm_stops_cleanly_without_a_traceback(tmp_path):
    """systemd stops the service with SIGTERM: exit 0, no traceback, nothing lost."""
    idle = ServeProcess(tmp_path / "data")  # the loop is waiting in select()
    assert idle.terminate() == 0
    assert "Traceback" not in idle.log()
    server = ServeProcess(tmp_path / "data")
    client = server.client()
    assert client.call("POST", "/api/games", {"game": "toss-up", "players": ["A", "B"]})[0] == 201
    client.close()
    assert server.terminate() == 0
    assert "Traceback" not in server.log()
    with ServeProcess(tmp_path / "data") as again:
        assert again.client().call("GET", "/api/state")[1]["version"] == 1


# -- a damaged journal at start: moved aside, a fresh one, never a crash loop --------------

def _damage_garbage(db) -> None:
    db.write_bytes(b"this is not a database, just noise " * 100)


def _damage_truncated(db) -> None:
    data = db.read_bytes()
    db.write_bytes(data[: len(data) // 3])


def _damage_pages(db) -> None:
    data = db.read_bytes()
    page = int.from_bytes(data[16:18], "big")  # every page after the first is scribbled on
    db.write_bytes(data[:page] + bytes(i * 7 % 251 for i in range(len(data) - page)))


def _damage_directory(db) -> None:
    db.unlink()
    (db / "sub").mkdir(parents=True)


def _played_folder(tmp_path):
    """A data folder with a journal of a few actions, checkpointed into the main file."""
    from companion.journal import Journal
    from companion.session import Session

    data = tmp_path / "data"
    session = Session(Journal(data))
    session.start("toss-up", ["A", "B"])
    for _ in range(40):
        session.act({"type": "roll", "green": 0, "yellow": 10, "red": 0})
    session.journal._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # all in the main file
    session.journal.close()
    return data


@pytest.mark.parametrize("damage", [_damage_garbage, _damage_truncated, _damage_pages,
                                    _damage_directory])
def test_damaged_journal_is_moved_aside_at_start(tmp_path, damage):
    data = _played_folder(tmp_path)
    damage(data / "companion.db")
    with ServeProcess(data) as server:
        status, state = server.client().call("GET", "/api/state")
        # what can be read is salvaged (tests/companion/test_journal_salvage.py) and the
        # host is told; these damages leave too little for a game to come back
        assert status == 200 and state["journal"]["damaged"].startswith("companion.db.")
        log = server.log()
    moved = list(data.glob("companion.db.damaged-*"))
    assert moved, "the damaged journal was not kept"
    assert "moved it to" in log and "Traceback" not in log
    # The next start finds a healthy journal: nothing more is moved aside (no crash loop).
    from companion.journal import Journal

    again = Journal(data)
    assert again.moved_aside is None
    again.close()
    assert list(data.glob("companion.db.damaged-*")) == moved


def test_two_damaged_journals_in_one_second_are_both_kept(tmp_path):
    """A boot loop that damages the journal twice must not overwrite the first copy."""
    from companion.journal import Journal

    data = tmp_path / "data"
    data.mkdir()
    for round_ in range(3):
        (data / "companion.db").write_bytes(f"noise {round_} ".encode() * 500)
        Journal(data).close()
    kept = sorted(p.read_bytes()[:7] for p in data.glob("companion.db.damaged-*")
                  if not p.name.endswith(("-wal", "-shm")))
    assert kept == [b"noise 0", b"noise 1", b"noise 2"]
