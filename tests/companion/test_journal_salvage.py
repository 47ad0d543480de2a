"""A damaged journal gives back what can be read: history and the current game up to the
damage, the damaged file kept beside, and a notice for the host (it used to start empty)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from companion.journal import Journal
from companion.session import Session

ROLL = {"type": "roll", "green": 0, "yellow": 10, "red": 0}  # all yellow: nothing happens


def played(data: Path) -> Path:
    """Three finished-or-not Toss Up! games, 300 actions in all, in the main file."""
    session = Session(Journal(data))
    for _ in range(3):
        session.start("toss-up", ["Ann", "Ben"])
        for _ in range(100):
            session.act(ROLL)
    session.journal._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    session.journal.close()
    return data / "companion.db"


def page_of_actions(db: Path) -> tuple[int, int]:
    """(page size, the number of a leaf page of the actions table in the middle)."""
    with sqlite3.connect(db) as con:
        size = con.execute("PRAGMA page_size").fetchone()[0]
        pages = [n for (n,) in con.execute(
            "SELECT pageno FROM dbstat WHERE name = 'actions' AND pagetype = 'leaf' "
            "ORDER BY pageno")] if _has_dbstat(con) else []
    con.close()
    return size, pages[len(pages) // 2] if pages else 0


def _has_dbstat(con: sqlite3.Connection) -> bool:
    try:
        con.execute("SELECT 1 FROM dbstat LIMIT 1")
        return True
    except sqlite3.Error:
        return False


def test_one_damaged_page_loses_only_its_actions(tmp_path: Path) -> None:
    db = played(tmp_path)
    size, page = page_of_actions(db)
    if not page:
        pytest.skip("this SQLite has no dbstat table to find a page of actions")
    data = bytearray(db.read_bytes())
    data[(page - 1) * size:page * size] = bytes(range(256)) * (size // 256)
    db.write_bytes(bytes(data))
    session = Session(Journal(tmp_path))
    notice = session.state()["journal"]
    assert notice["games"] == 3 and 200 < notice["actions"] < 300
    assert "recovered 3 game(s)" in notice["message"]
    assert session.state()["game"] == "toss-up"  # a game to go on with, not an empty table
    assert Path(tmp_path / notice["damaged"]).is_file()
    assert session.state()["version"] > 303  # above any version a phone saw
    session.act(ROLL)  # the salvaged journal takes new actions
    session.journal.close()
    again = Journal(tmp_path)  # and it is healthy now: nothing more is moved aside
    assert again.moved_aside is None and len(again.games()) == 3
    again.close()


def test_a_truncated_journal_gives_back_its_first_part(tmp_path: Path) -> None:
    db = played(tmp_path)
    data = db.read_bytes()
    db.write_bytes(data[: len(data) * 2 // 3])
    session = Session(Journal(tmp_path))
    notice = session.state()["journal"]
    # SQLite refused the whole cut-short file until the salvage padded its copy
    assert notice["games"] == 3 and notice["actions"] > 0
    assert notice["message"].startswith("The journal was damaged; recovered")
    session.journal.close()


def test_garbage_recovers_nothing_and_says_so(tmp_path: Path) -> None:
    (tmp_path / "companion.db").write_bytes(b"this is not a database, just noise " * 100)
    session = Session(Journal(tmp_path))
    notice = session.state()["journal"]
    assert notice["games"] == 0 and notice["actions"] == 0
    assert "damaged" in notice["message"] and notice["damaged"] in notice["message"]
    assert session.state()["game"] is None
    session.journal.close()


def test_a_folder_in_place_of_the_journal_recovers_nothing(tmp_path: Path) -> None:
    (tmp_path / "companion.db" / "sub").mkdir(parents=True)
    session = Session(Journal(tmp_path))
    assert session.state()["journal"]["games"] == 0 and session.state()["game"] is None
    session.journal.close()


def test_a_healthy_journal_has_no_notice(tmp_path: Path) -> None:
    played(tmp_path)
    session = Session(Journal(tmp_path))
    assert "journal" not in session.state() and session.journal.moved_aside is None
    session.journal.close()
