"""``companion restore SRC``: put a ``companion backup`` back as the data folder, atomically.

The data folder holds several files (journal, PIN, key, decks, settings) that must change
together, and a kill or power cut may come at any moment. So the backup is copied beside the
data folder first (``.<name>.restore-partial``; the journal through SQLite's backup API,
then checked: integrity_check and the journal's schema), flushed to disk and renamed
``.<name>.restore-ready`` once whole. Then the data folder is renamed to a dated copy
(``<name>.before-restore-<stamp>``, kept: the restore can be undone by restoring it) and the
ready folder takes its name. Each step is one rename, and ``finish_restore`` (run by every
restore and by ``companion serve`` before it opens the folder) completes or drops what a
killed restore left:

- ``restore-partial`` (the copy was not whole): removed; the data folder is as it was;
- ``restore-ready`` and no data folder (killed between the two renames): it becomes the
  data folder: the restore is finished;
- ``restore-ready`` beside the data folder (killed before the first rename): removed.

A data folder that is a symbolic link (to a USB disk, say) is restored in the folder it
points to, so the link stays and the data stays on that disk. A mount point cannot be
renamed, so it is refused: the data folder must be a folder inside the disk.

The new data folder is a fresh one, so the old ``companion.db-wal``/``-shm`` (which SQLite
would replay over the restored journal) are not in it: they stay with the dated copy, where
they belong to its journal.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path

from companion.backup import JOURNAL, backup
from companion.data_lock import DataFolderBusy, Held, hold_alone, hold_staging
from companion.durable import fsync_path
from companion.journal import missing_schema
from companion.journal_busy import holders


@dataclass(frozen=True)
class Restored:
    """What a restore did: the names copied in and where the replaced data is kept."""

    copied: list[str]
    kept: Path | None  # None: there was no data folder to keep


def restore(src: Path, data_dir: Path) -> Restored:
    """Make a copy of the backup folder `src` the data folder `data_dir`.

    :raises DataFolderBusy: a companion is running on `data_dir` (or another restore).
    :raises ValueError: `src` is not a companion backup (no journal, a damaged one, another
        program's database), or is the data folder itself; `data_dir` is a mount point or
        a link to nothing.
    :raises OSError: a file could not be read or written (the data folder is as it was).
    """
    if not (src / JOURNAL).is_file():
        raise ValueError(f"{src} is not a companion backup: it has no {JOURNAL}")
    data_dir = _real_folder(data_dir)
    if data_dir.exists() and src.resolve() == data_dir.resolve():
        raise ValueError(f"{src} is the data folder itself: give a backup folder")
    lock = hold_alone(data_dir) if data_dir.is_dir() else Held(None)
    with lock:
        if _journal_in_use(data_dir / JOURNAL):
            who = ", ".join(holders(data_dir / JOURNAL)) or "a running companion?"
            raise DataFolderBusy(f"{data_dir / JOURNAL} is open in another program ({who}): "
                                 "stop it first")
        finish_restore(data_dir, wait=False)
        partial, ready = _staging(data_dir)
        partial.parent.mkdir(parents=True, exist_ok=True)  # a new machine
        partial.mkdir()
        with hold_staging(partial, wait=False) or Held(None):
            try:
                copied = backup(src, partial)
                _check_journal(partial / JOURNAL, src)
                _flush_tree(partial)
            except BaseException:
                shutil.rmtree(partial, ignore_errors=True)
                raise
            os.rename(partial, ready)
            fsync_path(data_dir.parent)
            try:
                kept = _move_aside(data_dir)
            except OSError:  # the data folder is as it was: leave no copy beside it
                shutil.rmtree(ready, ignore_errors=True)
                raise
            os.rename(ready, data_dir)
            fsync_path(data_dir.parent)
    return Restored(copied, kept)


def finish_restore(data_dir: Path, *, wait: bool = True) -> str | None:
    """Complete or drop what a killed restore left beside `data_dir`; a sentence saying
    what was done, or None when nothing was left.

    :raises DataFolderBusy: `wait` is false and a restore is running now.
    """
    data_dir = data_dir.resolve() if data_dir.is_symlink() else data_dir  # as restore does
    partial, ready = _staging(data_dir)
    said = None
    with hold_staging(partial, wait=wait) or Held(None):
        if partial.exists():
            shutil.rmtree(partial)
            said = f"removed {partial}, the unfinished copy of an interrupted restore"
    with hold_staging(ready, wait=wait) or Held(None):
        if not ready.exists():
            return said
        if data_dir.exists():
            shutil.rmtree(ready)
            return f"removed {ready}, a restore interrupted before it replaced {data_dir}"
        os.rename(ready, data_dir)
        fsync_path(data_dir.parent)
        return f"finished an interrupted restore: {data_dir} is the restored backup"


def _real_folder(data_dir: Path) -> Path:
    """The folder to restore in: `data_dir`, or the folder it links to.

    :raises ValueError: `data_dir` links to nothing (a disk not mounted?) or is a mount
        point, which cannot be renamed aside.
    """
    if data_dir.is_symlink():
        target = data_dir.resolve()
        if not target.is_dir():
            raise ValueError(f"{data_dir} is a link to {target}, which does not exist (is "
                             "the disk mounted?): nothing restored")
        data_dir = target
    if os.path.ismount(data_dir):
        raise ValueError(f"{data_dir} is a mount point, which a restore cannot replace: "
                         f"restore into a folder inside it (--data-dir {data_dir / 'companion'}"
                         "), or stop the companion and copy the backup's files in")
    return data_dir


def _move_aside(data_dir: Path) -> Path | None:
    """Rename the data folder to a dated copy beside it; the copy, or None if there was
    no data folder."""
    if not data_dir.exists():
        return None
    kept = _free_name(data_dir.parent, f"{data_dir.name}.before-restore-"
                      + time.strftime("%Y%m%d-%H%M%S"))
    os.rename(data_dir, kept)
    fsync_path(data_dir.parent)
    return kept


def _staging(data_dir: Path) -> tuple[Path, Path]:
    """The folders a restore fills (partial) and then holds whole (ready), beside `data_dir`."""
    parent, name = data_dir.parent, data_dir.name
    return parent / f".{name}.restore-partial", parent / f".{name}.restore-ready"


def _journal_in_use(path: Path) -> bool:
    """Whether a process has the journal `path` open (a server started before the lock).

    A connection that holds the database in exclusive locking mode cannot start while
    any other connection is open, even an idle one in WAL mode.
    """
    if not path.is_file():
        return False
    db = sqlite3.connect(path, timeout=0, isolation_level=None)
    try:
        db.execute("PRAGMA locking_mode=EXCLUSIVE")
        db.execute("BEGIN EXCLUSIVE")
        db.execute("ROLLBACK")
    except sqlite3.OperationalError as exc:
        return "locked" in str(exc)
    except sqlite3.DatabaseError:  # damaged: nobody can be using it
        return False
    finally:
        db.close()
    return False


def _check_journal(path: Path, src: Path) -> None:
    """Refuse a copied journal that is damaged or not the companion's.

    :raises ValueError: naming `src`'s journal and what is wrong with it.
    """
    db = sqlite3.connect(path)  # read-write: its last close removes the -wal it made
    try:
        status = [row[0] for row in db.execute("PRAGMA integrity_check")]
        if status != ["ok"]:
            raise ValueError(f"{src / JOURNAL} is damaged ({status[0]}): not restored")
        missing = missing_schema(db)
    except sqlite3.DatabaseError as exc:
        raise ValueError(f"{src / JOURNAL} cannot be read ({exc}): not restored") from None
    finally:
        db.close()
    if missing:
        raise ValueError(f"{src / JOURNAL} is not a companion journal (it has no "
                         f"{', '.join(missing[:3])}): not restored")


def _free_name(parent: Path, name: str) -> Path:
    """``parent / name``, or with ``-2``, ``-3`` ... when that exists (never overwrite a copy)."""
    target, number = parent / name, 1
    while target.exists():
        number += 1
        target = parent / f"{name}-{number}"
    return target


def _flush_tree(root: Path) -> None:
    """fsync every file and folder under `root`, so a rename never publishes unwritten data."""
    for folder, _dirs, files in os.walk(root):
        for name in files:
            fsync_path(os.path.join(folder, name))
        fsync_path(folder)
