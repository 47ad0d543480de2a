"""The durable journal: every accepted action, in SQLite, committed before it is acknowledged.

One database file per data folder. ``version`` is a single counter for the whole table
(new game, action, undo each add one) stored in the same transaction as the change, so a
restart reports exactly the version the phones last saw.

Tables::

    meta(key, value)                     version
    games(id, game, players, options, started_at, ended_at, winners, held)
    actions(id, game_id, data, at, undone_at)   data is the action dict as JSON

``held`` is the timer deadline the game's latest undo held back (see ``Session.tick``),
written in the undo's own transaction so a restart holds back exactly what the running
session did.
"""

from __future__ import annotations

import json
import logging
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator

from companion.errors import ActionError
from companion.journal_busy import busy_sentence, is_busy
from companion.journal_salvage import Salvaged, salvage

log = logging.getLogger(__name__)

CACHE_KIB = 512  # SQLite page cache per connection, in KiB (see _open)
#: Seconds a connection waits for a journal another program holds locked (the open, and
#: each write) before it gives up; SQLite's default through Python's sqlite3.
BUSY_WAIT = 5.0

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    game TEXT NOT NULL,
    players TEXT NOT NULL,
    options TEXT NOT NULL,
    started_at REAL NOT NULL,
    ended_at REAL,
    winners TEXT,
    held REAL
);
CREATE TABLE IF NOT EXISTS actions (
    id INTEGER PRIMARY KEY,
    game_id INTEGER NOT NULL REFERENCES games(id),
    data TEXT NOT NULL,
    at REAL NOT NULL,
    undone_at REAL
);
CREATE INDEX IF NOT EXISTS actions_by_game ON actions(game_id, undone_at);
"""
_GAME_COLUMNS = "id, game, players, options, started_at, ended_at, winners"
#: Columns an open adds to a journal written before them (see _add_held_column).
_ADDED_LATER = {"games": {"held"}}


class StorageError(ActionError):
    """The journal cannot be written (disk full, read-only, ...); nothing was changed."""

    status = 503


class JournalBusy(StorageError):
    """Another program holds the journal locked: nothing was opened, moved or changed."""


@dataclass(frozen=True)
class GameRecord:
    """One game as journaled: what ``new_game`` was called with."""

    id: int
    game: str
    players: list[str]
    options: dict[str, Any]
    started_at: float
    ended_at: float | None
    winners: list[str] | None


class Journal:
    """The SQLite journal in ``data_dir / "companion.db"`` (WAL, ``synchronous=FULL``).

    Not thread-safe by itself: the session serialises calls under its lock. Whoever opens
    a journal closes it: ``with Journal(data_dir) as journal: ...`` does.

    A damaged journal is moved aside and what can be read of it salvaged into a fresh one;
    a locked one (another program holds it) is left as it is. `repair` is the session's
    open at start-up; a reader beside a running session (a web request) passes False: it
    never renames the file the session writes, and its errors, which may reach any phone,
    name no path and no process.

    :raises JournalBusy: another program held the journal for `busy_wait` seconds
        (default :data:`BUSY_WAIT`).
    :raises StorageError: the journal cannot be read and `repair` is False.
    """

    FILENAME = "companion.db"

    def __init__(self, data_dir: str | Path, *, busy_wait: float | None = None,
                 repair: bool = True) -> None:
        self.busy_wait = BUSY_WAIT if busy_wait is None else busy_wait
        self.path = Path(data_dir) / self.FILENAME
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.moved_aside: Path | None = None
        self.salvaged: Salvaged | None = None
        self.upgraded = False  # set by _open: this open added games.held
        try:
            self._db = self._open()
        except sqlite3.DatabaseError as exc:
            if is_busy(exc) and not repair:
                raise JournalBusy("The journal is locked by another program; try again in a "
                                  "moment.") from None
            if is_busy(exc):  # locked, not damaged: never rename a file someone is using
                raise JournalBusy(busy_sentence(self.path, self.busy_wait)) from None
            if not repair:
                raise StorageError(f"The journal cannot be read ({exc}); nothing was "
                                   "moved.") from None
            self.moved_aside = self._move_aside(str(exc))
            self._db = self._open()
            try:
                self.salvaged = salvage(self.moved_aside, self._db)
            except sqlite3.Error as failed:  # the fresh journal stays empty
                log.error("Nothing could be recovered from %s: %s", self.moved_aside, failed)
            else:
                log.error("%s", self.salvaged.sentence())

    def _open(self) -> sqlite3.Connection:
        db = sqlite3.connect(self.path, timeout=self.busy_wait, isolation_level=None,
                             check_same_thread=False)
        try:
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=FULL")
            # SQLite's page cache (default 2 MB) fills as the journal grows, about 100 bytes
            # per action under load; half a megabyte holds a long game and bounds RSS.
            db.execute(f"PRAGMA cache_size=-{CACHE_KIB}")
            status = db.execute("PRAGMA quick_check").fetchone()[0]
            if status != "ok":
                raise sqlite3.DatabaseError(f"quick_check: {status}")
            db.executescript(_SCHEMA)
            # True once, on the first open of a journal written before games.held
            self.upgraded = _add_held_column(db)
        except sqlite3.DatabaseError:
            db.close()
            raise
        return db

    def _move_aside(self, reason: str) -> Path:
        """Rename a damaged database (and its WAL files) so a fresh one can start."""
        stamp = time.strftime("%Y%m%d-%H%M%S")
        target = self.path.with_name(f"{self.path.name}.damaged-{stamp}")
        number = 1
        while target.exists():  # never overwrite an earlier damaged copy (a boot loop)
            number += 1
            target = self.path.with_name(f"{self.path.name}.damaged-{stamp}-{number}")
        for suffix in ("", "-wal", "-shm"):
            src = Path(str(self.path) + suffix)
            if src.exists():
                src.rename(Path(str(target) + suffix))
        log.error("The journal %s was unreadable (%s); moved it to %s and started a new one.",
                  self.path, reason, target)
        return target

    def close(self) -> None:
        """Close the database file (again is harmless)."""
        self._db.close()

    def __enter__(self) -> "Journal":
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    # -- reading ---------------------------------------------------------------------

    def version(self) -> int:
        """The table's version: it grows by one with every change."""
        row = self._db.execute("SELECT value FROM meta WHERE key = 'version'").fetchone()
        return int(row[0]) if row else 0

    def current_game(self) -> GameRecord | None:
        """The latest game started, finished or not."""
        row = self._db.execute(f"SELECT {_GAME_COLUMNS} FROM games ORDER BY id DESC LIMIT 1").fetchone()
        return None if row is None else _record(row)

    def games(self) -> list[GameRecord]:
        """Every game, oldest first."""
        return [_record(r) for r in self._db.execute(f"SELECT {_GAME_COLUMNS} FROM games ORDER BY id")]

    def actions(self, game_id: int) -> Iterator[tuple[int, dict[str, Any]]]:
        """(action id, action dict) of a game's live actions, in order; undone ones skipped."""
        rows = self._db.execute(
            "SELECT id, data FROM actions WHERE game_id = ? AND undone_at IS NULL ORDER BY id",
            (game_id,))
        for action_id, data in rows:
            yield action_id, json.loads(data)

    def held(self, game_id: int) -> float | None:
        """The deadline (epoch seconds) the game's latest undo held back, or None."""
        row = self._db.execute("SELECT held FROM games WHERE id = ?", (game_id,)).fetchone()
        return None if row is None or row[0] is None else float(row[0])

    def last_undo(self, game_id: int) -> float | None:
        """When the game's latest undo was made (epoch seconds), or None if none was: what
        a journal written before ``games.held`` can tell of its held deadline."""
        row = self._db.execute("SELECT MAX(undone_at) FROM actions WHERE game_id = ?",
                               (game_id,)).fetchone()
        return None if row is None or row[0] is None else float(row[0])

    def keep_held(self, game_id: int, held: float) -> None:
        """Write the deadline an upgraded journal's latest undo held back (no new version:
        nothing a phone sees changes)."""
        self._db.execute("UPDATE games SET held = ? WHERE id = ?", (held, game_id))

    # -- writing: each method is one transaction that also bumps the version ---------

    def start_game(self, game: str, players: list[str], options: dict[str, Any],
                   at: float) -> int:
        """Record a new game started at ``at`` (epoch seconds); its id."""
        with self._transaction():
            cur = self._db.execute(
                "INSERT INTO games (game, players, options, started_at) VALUES (?, ?, ?, ?)",
                (game, json.dumps(players), json.dumps(options), at))
            return int(cur.lastrowid or 0)

    def append(self, game_id: int, data: dict[str, Any], at: float,
               *, winners: list[str] | None = None) -> int:
        """Journal one accepted action; ``winners`` marks the game finished with it."""
        with self._transaction():
            cur = self._db.execute("INSERT INTO actions (game_id, data, at) VALUES (?, ?, ?)",
                                   (game_id, json.dumps(data), at))
            self._set_result(game_id, winners, at)
            return int(cur.lastrowid or 0)

    def undo(self, action_id: int, game_id: int, at: float, *,
             winners: list[str] | None = None, held: float | None = None) -> None:
        """Mark an action undone; ``winners`` is the game's result after the undo, ``held``
        the overdue deadline it holds back (None: none)."""
        with self._transaction():
            self._db.execute("UPDATE actions SET undone_at = ? WHERE id = ?", (at, action_id))
            self._db.execute("UPDATE games SET held = ? WHERE id = ?", (held, game_id))
            self._set_result(game_id, winners, at)

    def _set_result(self, game_id: int, winners: list[str] | None, at: float) -> None:
        if winners is None:
            self._db.execute("UPDATE games SET ended_at = NULL, winners = NULL WHERE id = ?",
                             (game_id,))
        else:
            self._db.execute("UPDATE games SET ended_at = ?, winners = ? WHERE id = ?",
                             (at, json.dumps(winners), game_id))

    def _transaction(self) -> "_Transaction":
        return _Transaction(self._db)


class _Transaction:
    """BEGIN IMMEDIATE ... version += 1 ... COMMIT, or ROLLBACK and StorageError."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    def __enter__(self) -> None:
        try:
            self.db.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as exc:
            raise _storage_error(exc) from None

    def __exit__(self, exc_type: Any, exc: Any, tb: Any) -> None:
        if exc_type is None:
            try:
                self.db.execute(
                    "INSERT INTO meta (key, value) VALUES ('version', '1') "
                    "ON CONFLICT(key) DO UPDATE SET value = CAST(value AS INTEGER) + 1")
                self.db.execute("COMMIT")
                return
            except sqlite3.Error as error:
                exc_type, exc = type(error), error
        if self.db.in_transaction:
            self.db.execute("ROLLBACK")
        if isinstance(exc, sqlite3.Error):
            raise _storage_error(exc) from None


def missing_schema(db: sqlite3.Connection) -> list[str]:
    """The tables and columns of the journal's schema that `db` lacks ("games.players");
    empty for a companion journal (one from before a column an open adds counts too)."""
    model = sqlite3.connect(":memory:")
    try:
        model.executescript(_SCHEMA)
        tables = [row[0] for row in model.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")]
        wanted = {t: {row[1] for row in model.execute(f"PRAGMA table_info({t})")}
                  for t in tables}
    finally:
        model.close()
    missing = []
    for table, columns in wanted.items():
        have = {row[1] for row in db.execute(f"PRAGMA table_info({table})")}
        needed = columns - _ADDED_LATER.get(table, set())
        missing += [table] if not have else [f"{table}.{c}" for c in sorted(needed - have)]
    return missing


def _add_held_column(db: sqlite3.Connection) -> bool:
    """Give a journal written before ``games.held`` existed that column (empty: nothing
    held); True when it was added now."""
    columns = {row[1] for row in db.execute("PRAGMA table_info(games)")}
    if "held" in columns:
        return False
    db.execute("ALTER TABLE games ADD COLUMN held REAL")
    return True


def _storage_error(exc: sqlite3.Error) -> StorageError:
    text = str(exc)
    if "full" in text:
        return StorageError("The companion's disk is full, so that was not saved. "
                            "Free some space and try again.")
    return StorageError(f"The companion could not save that ({text}); nothing was changed.")


def _record(row: tuple[Any, ...]) -> GameRecord:
    gid, game, players, options, started, ended, winners = row
    return GameRecord(gid, game, json.loads(players), json.loads(options), started, ended,
                      None if winners is None else json.loads(winners))
