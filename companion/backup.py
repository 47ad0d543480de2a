"""``companion backup DEST``: a copy of the data folder that is whole even while it runs.

The journal is SQLite in WAL mode: recent actions live in ``companion.db-wal`` until a
checkpoint, so copying ``companion.db`` alone while the companion runs gives an old or
empty database. The journal is copied here with SQLite's backup API (a consistent
snapshot, WAL included, taken while the service keeps writing); every other file of the
data folder (host-pin.txt, web-secret.key, companion.toml, decks/) is copied as it is.
Restoring: stop the service, copy DEST's files back into the data folder, start it.
"""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

JOURNAL = "companion.db"
_LIVE = {JOURNAL, f"{JOURNAL}-wal", f"{JOURNAL}-shm", f"{JOURNAL}-journal"}


def backup(data_dir: Path, dest: Path) -> list[str]:
    """Copy `data_dir` into the new or empty folder `dest`; return the names copied.

    :raises ValueError: `data_dir` is not a folder, or `dest` exists and is not empty.
    """
    if not data_dir.is_dir():
        raise ValueError(f"data folder {data_dir} does not exist")
    if dest.exists() and (not dest.is_dir() or any(dest.iterdir())):
        raise ValueError(f"{dest} already exists and is not an empty folder: give a new one")
    if dest.resolve().is_relative_to(data_dir.resolve()):
        raise ValueError(f"{dest} is inside the data folder: give a folder outside it")
    dest.mkdir(parents=True, exist_ok=True)
    copied = []
    if (data_dir / JOURNAL).is_file():
        source = sqlite3.connect(f"file:{data_dir / JOURNAL}?mode=ro", uri=True)
        target = sqlite3.connect(dest / JOURNAL)
        try:
            with target:
                source.backup(target)
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
