"""Salvage what can still be read from a damaged journal into a fresh one.

A power cut or a failing SD card can damage ``companion.db``; it used to be moved aside
and a fresh journal started, losing the current game and the whole history. SQLite still
reads a damaged file row by row until the scan meets the damage, so each table is scanned
forwards and then backwards (``ORDER BY rowid DESC`` walks the same b-tree from the other
end): rows on both sides of one bad page come back. Only the standard library is used
(the ``sqlite3`` shell's ``.recover`` is not always installed).

What comes back must replay: a game keeps its actions only up to the first one that is
missing (a later roll after a lost one would not replay), an action whose game row is lost
is dropped, and a row that is not valid JSON is dropped. The version restarts above
anything the phones can have seen. The damaged file itself is left untouched beside it
(the scan reads a temporary copy, so SQLite never writes into it; a copy cut short is
padded to the length its header names, else SQLite reads none of it).
"""

from __future__ import annotations

import json
import shutil
import sqlite3
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

_COLUMNS = {"games": "id, game, players, options, started_at, ended_at, winners",
            "actions": "id, game_id, data, at, undone_at"}


@dataclass(frozen=True)
class Salvaged:
    """What was brought back from a damaged journal."""

    games: int
    actions: int
    damaged: Path

    def sentence(self) -> str:
        """One line for the host and the log."""
        return (f"The journal was damaged; recovered {self.games} game(s) and {self.actions} "
                f"action(s) from it. The damaged file is kept as {self.damaged.name}.")


def salvage(damaged: Path, db: sqlite3.Connection) -> Salvaged:
    """Copy the readable games and actions of ``damaged`` into the empty journal ``db``."""
    games, actions, version = _read(damaged)
    kept_games = {row[0]: row for row in games if _json_ok(row[2], row[3], row[6])}
    seen = {row[0] for row in actions if _json_ok(row[2])}
    by_game: dict[int, list[tuple[Any, ...]]] = {}
    for row in sorted(actions):
        if row[1] in kept_games and _json_ok(row[2]):
            by_game.setdefault(row[1], []).append(row)
    kept_actions: list[tuple[Any, ...]] = []
    for rows in by_game.values():
        kept_actions.extend(_up_to_a_gap(rows, seen))
    if not kept_games:  # nothing to bring back: the fresh journal stays as it is
        return Salvaged(0, 0, damaged)
    db.execute("BEGIN IMMEDIATE")
    try:
        # the columns named: the journal has more (games.held) than any copy needs
        db.executemany(f"INSERT INTO games ({_COLUMNS['games']}) VALUES (?, ?, ?, ?, ?, ?, ?)",
                       [kept_games[k] for k in sorted(kept_games)])
        db.executemany(f"INSERT INTO actions ({_COLUMNS['actions']}) VALUES (?, ?, ?, ?, ?)",
                       kept_actions)
        # above any version a phone saw: the old counter if it was read, else every row
        new = max(version, len(games) + len(actions)) + 1
        db.execute("INSERT OR REPLACE INTO meta (key, value) VALUES ('version', ?)", (str(new),))
        db.execute("COMMIT")
    except sqlite3.Error:
        db.execute("ROLLBACK")
        raise
    return Salvaged(len(kept_games), len(kept_actions), damaged)


def _read(damaged: Path) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]], int]:
    """(games rows, actions rows, version or 0) readable in a copy of ``damaged``."""
    with tempfile.TemporaryDirectory(prefix="companion-salvage-") as folder:
        copy = Path(folder) / "damaged.db"
        try:
            for suffix in ("", "-wal"):
                source = Path(str(damaged) + suffix)
                if source.exists():
                    shutil.copyfile(source, Path(str(copy) + suffix))
            _pad(copy)
        except OSError:  # not a file at all (a folder in its place), or unreadable
            return [], [], 0
        try:
            db = sqlite3.connect(copy)
        except sqlite3.Error:
            return [], [], 0
        try:
            tables = {name: _rows(db, name) for name in _COLUMNS}
            version = _version(db)
        finally:
            db.close()
    return tables["games"], tables["actions"], version


def _pad(copy: Path) -> None:
    """Zero-fill a cut-short copy up to the page count its header names: SQLite refuses a
    file shorter than its header says, even the pages that are still there."""
    if not copy.exists():
        return
    head = copy.read_bytes()[:100]
    if len(head) < 100 or not head.startswith(b"SQLite format 3\x00"):
        return
    page = int.from_bytes(head[16:18], "big")
    page = 65536 if page == 1 else page
    missing = int.from_bytes(head[28:32], "big") * page - copy.stat().st_size
    if 0 < missing <= 1 << 30:
        with copy.open("ab") as out:
            out.truncate(copy.stat().st_size + missing)


def _rows(db: sqlite3.Connection, table: str) -> list[tuple[Any, ...]]:
    """Every row of ``table`` a forward and a backward scan can reach, by id."""
    found: dict[int, tuple[Any, ...]] = {}
    for order in ("ASC", "DESC"):
        try:
            for row in db.execute(f"SELECT {_COLUMNS[table]} FROM {table} ORDER BY rowid {order}"):
                found[row[0]] = tuple(row)
        except sqlite3.Error:
            continue  # the damage: what came before it is kept
    return [found[k] for k in sorted(found)]


def _version(db: sqlite3.Connection) -> int:
    try:
        row = db.execute("SELECT value FROM meta WHERE key = 'version'").fetchone()
        return int(row[0]) if row else 0
    except (sqlite3.Error, ValueError, TypeError):
        return 0


def _json_ok(*texts: Any) -> bool:
    """True when every non-null text is valid JSON."""
    try:
        for text in texts:
            if text is not None:
                json.loads(text)
    except (TypeError, ValueError):
        return False
    return True


def _up_to_a_gap(rows: list[tuple[Any, ...]], seen: set[int]) -> list[tuple[Any, ...]]:
    """A game's action rows up to the first one lost (an id between two kept ones that no
    scan reached): what follows a lost action may not replay."""
    kept = rows[:1]
    for row in rows[1:]:
        if any(i not in seen for i in range(kept[-1][0] + 1, row[0])):
            break
        kept.append(row)
    return kept
