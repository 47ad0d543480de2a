"""``companion backup DEST``: a copy of the data folder that is whole even while it runs.

The journal is SQLite in WAL mode: recent actions live in ``companion.db-wal`` until a
checkpoint, so copying ``companion.db`` alone while the companion runs gives an old or
empty database. The journal is copied here with SQLite's backup API (a consistent
snapshot, WAL included, taken while the service keeps writing); every other file of the
data folder (host-pin.txt, web-secret.key, companion.toml, decks/) is copied as it is.
Restoring is ``companion restore DEST`` (``companion/restore.py``), with the service stopped.
"""

from __future__ import annotations

import shutil
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path

from companion.journal_busy import held_by, is_busy

JOURNAL = "companion.db"
_LIVE = {JOURNAL, f"{JOURNAL}-wal", f"{JOURNAL}-shm", f"{JOURNAL}-journal"}
#: Seconds to wait for a journal another process holds locked before giving up. In WAL mode
#: the running companion never blocks a reader; a lock means a rollback-mode writer (or a
#: stuck process), and Python's backup() would otherwise retry it forever.
LOCK_WAIT = 10.0


def backup(data_dir: Path, dest: Path) -> list[str]:
    """Copy `data_dir` into the new or empty folder `dest`; return the names copied.

    A run that fails part-way removes what it created in `dest`, so `dest` is as it was.

    :raises ValueError: `data_dir` is not a folder, `dest` exists and is not empty, or the
        journal cannot be read (not a database, locked).
    :raises OSError: a file could not be read or written.
    """
    if not data_dir.is_dir():
        raise ValueError(f"data folder {data_dir} does not exist")
    if dest.exists() and (not dest.is_dir() or any(dest.iterdir())):
        raise ValueError(f"{dest} already exists and is not an empty folder: give a new one")
    if dest.resolve().is_relative_to(data_dir.resolve()):
        raise ValueError(f"{dest} is inside the data folder: give a folder outside it")
    created = _first_missing(dest)
    dest.mkdir(parents=True, exist_ok=True)
    try:
        return _copy(data_dir, dest)
    except sqlite3.Error as exc:
        _undo(dest, created)
        held = held_by(data_dir / JOURNAL) if is_busy(exc) else ""
        raise ValueError(f"cannot copy the journal {data_dir / JOURNAL}: {exc}{held}") from exc
    except BaseException:
        _undo(dest, created)
        raise


def _copy(data_dir: Path, dest: Path) -> list[str]:
    """Copy the journal through SQLite, then every other file; return the names copied."""
    copied = []
    if (data_dir / JOURNAL).is_file():
        source = sqlite3.connect(f"file:{data_dir / JOURNAL}?mode=ro", uri=True, timeout=0)
        target = sqlite3.connect(dest / JOURNAL)
        try:
            with target:
                source.backup(target, progress=_give_up_after(LOCK_WAIT))
        finally:
            source.close()
            target.close()
        copied.append(JOURNAL)
    for item in sorted(data_dir.iterdir()):
        if item.name in _LIVE:
            continue
        if item.is_dir():
            shutil.copytree(item, dest / item.name)
        else:
            shutil.copy2(item, dest / item.name)
        copied.append(item.name + ("/" if item.is_dir() else ""))
    return copied


def _give_up_after(seconds: float) -> Callable[[int, int, int], None]:
    """A backup() progress callback raising "database is locked" once busy for `seconds`."""
    deadline = time.monotonic() + seconds

    def progress(status: int, remaining: int, total: int) -> None:
        if status in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED) and time.monotonic() > deadline:
            raise sqlite3.OperationalError(f"database is locked (waited {seconds:g} s)")
    return progress


def _first_missing(dest: Path) -> Path | None:
    """The outermost folder of `dest`'s path that does not exist yet (None: `dest` exists)."""
    missing = None
    for folder in (dest, *dest.parents):
        if folder.exists():
            return missing
        missing = folder
    return missing


def _undo(dest: Path, created: Path | None) -> None:
    """Remove what a failed run put in `dest` (it was empty or absent), so a re-run is not refused."""
    if created is not None:
        shutil.rmtree(created, ignore_errors=True)
        return
    for item in dest.iterdir():
        if item.is_dir() and not item.is_symlink():
            shutil.rmtree(item, ignore_errors=True)
        else:
            item.unlink(missing_ok=True)
