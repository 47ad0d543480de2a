"""A journal another program holds locked is busy, not damaged: the open waits a little,
then fails with one line and moves nothing (it used to rename the live journal aside as
``.damaged-...`` and start an empty one)."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Iterator

import pytest

from companion.journal import Journal, JournalBusy

ROOT = Path(__file__).resolve().parents[2]
WAIT = 0.2  # seconds each open waits for the lock here (the companion waits BUSY_WAIT)

_HOLD = """
import sqlite3, sys
db = sqlite3.connect(sys.argv[1], isolation_level=None)
db.execute("PRAGMA locking_mode=EXCLUSIVE")
db.execute("BEGIN EXCLUSIVE")
db.execute("COMMIT")
print("holding", flush=True)
sys.stdin.read()  # until the test closes our stdin
"""


def _journal_with_a_game(folder: Path) -> None:
    with Journal(folder) as journal:
        journal.start_game("toss-up", ["Ann", "Bob"], {}, 1.0)


def _hold_exclusive(folder: Path) -> sqlite3.Connection:
    """A second connection that keeps the journal to itself (SQLite's exclusive locking mode)."""
    other = sqlite3.connect(folder / Journal.FILENAME, isolation_level=None)
    other.execute("PRAGMA locking_mode=EXCLUSIVE")
    other.execute("BEGIN EXCLUSIVE")
    other.execute("COMMIT")  # exclusive mode keeps the lock after the transaction
    return other


def _names(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


def _assert_the_game_is_still_there(folder: Path) -> None:
    with Journal(folder) as journal:
        assert [g.players for g in journal.games()] == [["Ann", "Bob"]]
    assert not [name for name in _names(folder) if "damaged" in name]


def _assert_busy_while_writing(folder: Path, other: sqlite3.Connection, begin: str) -> None:
    """An open is refused as busy while `other` holds the transaction `begin` starts; once
    it lets go, the game is there and nothing was moved."""
    other.execute(begin)
    try:
        with pytest.raises(JournalBusy):
            Journal(folder, busy_wait=WAIT)
    finally:
        other.execute("ROLLBACK")
        other.close()
    _assert_the_game_is_still_there(folder)


@pytest.fixture
def held_by_another_process(tmp_path: Path) -> Iterator[subprocess.Popen[str]]:
    """A journal with one game, held in exclusive mode by a second Python process."""
    _journal_with_a_game(tmp_path)
    proc = subprocess.Popen([sys.executable, "-c", _HOLD, str(tmp_path / Journal.FILENAME)],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None and proc.stdout.readline() == "holding\n"
    yield proc
    assert proc.stdin is not None
    proc.stdin.close()
    proc.wait(timeout=30)
    assert proc.stdout is not None
    proc.stdout.close()


def test_a_locked_journal_is_not_moved_aside(tmp_path: Path) -> None:
    _journal_with_a_game(tmp_path)
    other = _hold_exclusive(tmp_path)
    before = _names(tmp_path)
    try:
        with pytest.raises(JournalBusy) as raised:
            Journal(tmp_path, busy_wait=WAIT)
        assert _names(tmp_path) == before  # nothing renamed, nothing new
    finally:
        other.close()
    assert "is locked by another program" in str(raised.value)
    assert "\n" not in str(raised.value) and f"waited {WAIT:g} s" in str(raised.value)
    _assert_the_game_is_still_there(tmp_path)  # once the other program lets go


def test_the_sentence_names_the_process_holding_the_journal(
        tmp_path: Path, held_by_another_process: subprocess.Popen[str]) -> None:
    with pytest.raises(JournalBusy) as raised:
        Journal(tmp_path, busy_wait=WAIT)
    assert f"pid {held_by_another_process.pid} (" in str(raised.value)
    assert "python" in str(raised.value)


def test_a_rollback_mode_journal_mid_write_is_busy_not_damaged(tmp_path: Path) -> None:
    # Another program switched the file to rollback mode and is writing: readers are locked out.
    _journal_with_a_game(tmp_path)
    other = sqlite3.connect(tmp_path / Journal.FILENAME, isolation_level=None)
    other.execute("PRAGMA journal_mode=DELETE")
    _assert_busy_while_writing(tmp_path, other, "BEGIN EXCLUSIVE")


def test_an_old_journal_whose_upgrade_waits_for_a_writer_is_busy_not_damaged(
        tmp_path: Path) -> None:
    # A journal from before games.held: the open adds the column, which needs the write lock.
    db = sqlite3.connect(tmp_path / Journal.FILENAME, isolation_level=None)
    db.executescript("""
        PRAGMA journal_mode=WAL;
        CREATE TABLE games (id INTEGER PRIMARY KEY, game TEXT NOT NULL, players TEXT NOT NULL,
            options TEXT NOT NULL, started_at REAL NOT NULL, ended_at REAL, winners TEXT);
        INSERT INTO games (game, players, options, started_at)
            VALUES ('toss-up', '["Ann", "Bob"]', '{}', 0.0);""")
    _assert_busy_while_writing(tmp_path, db, "BEGIN IMMEDIATE")


def test_damage_is_still_moved_aside(tmp_path: Path) -> None:
    (tmp_path / Journal.FILENAME).write_bytes(b"not a database at all" * 100)
    with Journal(tmp_path, busy_wait=WAIT) as journal:
        assert journal.moved_aside is not None and journal.moved_aside.is_file()
        assert journal.games() == []


def test_serve_on_a_locked_journal_stops_with_one_line_and_moves_nothing(
        tmp_path: Path, held_by_another_process: subprocess.Popen[str]) -> None:
    before = _names(tmp_path)
    done = subprocess.run([sys.executable, "-m", "companion.cli", "serve", "--camera", "none",
                           "--host", "127.0.0.1", "--port", "0", "--pin", "97531",
                           "--data-dir", str(tmp_path)], cwd=ROOT, capture_output=True,
                          text=True, timeout=60, env=_clean_env())
    assert done.returncode == 1, done.stdout
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    assert done.stderr.startswith(f"companion serve: The journal {tmp_path / Journal.FILENAME}"
                                  f" is locked by another program (pid "
                                  f"{held_by_another_process.pid} (")
    assert _names(tmp_path) == before


def _clean_env() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if not k.startswith("COMPANION_")}


def test_a_reader_beside_the_session_names_no_process_and_no_path(
        tmp_path: Path, held_by_another_process: subprocess.Popen[str]) -> None:
    # repair=False is the history page's read: its error reaches anyone on the LAN, and a
    # command line may hold anything
    with pytest.raises(JournalBusy) as raised:
        Journal(tmp_path, busy_wait=WAIT, repair=False)
    said = str(raised.value)
    assert "locked" in said and "pid" not in said and str(tmp_path) not in said
