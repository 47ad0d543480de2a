"""The journal's own protocol: opened by its caller, closed by ``close`` or ``with``."""

from __future__ import annotations

import sqlite3

import pytest

from companion.journal import Journal


def test_a_with_block_closes_the_journal(tmp_path):
    with Journal(tmp_path) as journal:
        assert journal.version() == 0
    with pytest.raises(sqlite3.ProgrammingError):
        journal.version()


def test_a_with_block_closes_the_journal_when_the_block_fails(tmp_path):
    with pytest.raises(KeyError):
        with Journal(tmp_path) as journal:
            raise KeyError("the block failed")
    with pytest.raises(sqlite3.ProgrammingError):
        journal.version()


def test_closing_twice_is_harmless_and_the_data_stays(tmp_path):
    with Journal(tmp_path) as journal:
        journal.start_game("toss-up", ["Ann", "Bob"], {}, at=0.0)
    journal.close()
    with Journal(tmp_path) as again:
        assert again.version() == 1 and again.current_game().players == ["Ann", "Bob"]


def test_a_journal_from_before_the_held_column_opens_and_undoes(tmp_path):
    # The games table as journals were written before it held the undo's deadline.
    db = sqlite3.connect(tmp_path / Journal.FILENAME)
    db.executescript("""
        CREATE TABLE games (id INTEGER PRIMARY KEY, game TEXT NOT NULL, players TEXT NOT NULL,
            options TEXT NOT NULL, started_at REAL NOT NULL, ended_at REAL, winners TEXT);
        INSERT INTO games (game, players, options, started_at)
            VALUES ('toss-up', '["Ann", "Bob"]', '{}', 0.0);""")
    db.close()
    with Journal(tmp_path) as journal:
        action = journal.append(1, {"type": "bank"}, at=1.0)
        journal.undo(action, 1, at=2.0, held=1.5)
        assert journal.current_game().players == ["Ann", "Bob"]
        assert journal.held(1) == 1.5
