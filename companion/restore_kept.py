"""The data folders restores replaced: listed (``companion restore --list``) and pruned
(``--keep N``).

Every ``companion restore`` keeps the folder it replaced beside the new one, as
``<name>.before-restore-<YYYYmmdd-HHMMSS>`` (``-2``, ``-3`` ... when two came in the same
second), so a restore can be undone by restoring that copy. Nothing removed them, so a Pi
restored now and then filled its card. Only folders with exactly that name are listed or
removed (never the data folder, never a link, never another folder's copies), newest first
by the stamp in the name (the rename keeps the folder's own times, not the restore's); a
prune keeps at least the newest one.
"""

from __future__ import annotations

import os
import re
import shutil
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import TextIO


@dataclass(frozen=True)
class Kept:
    """One folder a restore replaced: where, when it was replaced, and its bytes."""

    path: Path
    replaced: datetime
    size: int
    number: int = 1  # 2, 3 ...: the second, third replaced in the same second

    def line(self) -> str:
        """``  2026-11-20 07:05:00  4.0 KB  /home/pi/.local/share/companion.before-...``"""
        return f"  {self.replaced:%Y-%m-%d %H:%M:%S}  {human_size(self.size)}  {self.path}"


def kept_copies(data_dir: Path) -> list[Kept]:
    """The copies restores kept beside `data_dir` (its real folder when it is a link, as
    restore uses), newest first."""
    folder = data_dir.resolve() if data_dir.is_symlink() else data_dir
    pattern = re.compile(re.escape(folder.name)
                         + r"\.before-restore-(\d{8}-\d{6})(?:-([1-9]\d*))?")
    found = []
    try:
        entries = list(folder.parent.iterdir())
    except OSError:  # no parent folder yet: nothing was kept
        return []
    for entry in entries:
        match = pattern.fullmatch(entry.name)
        if not match or entry.is_symlink() or not entry.is_dir():
            continue
        try:
            replaced = datetime.strptime(match.group(1), "%Y%m%d-%H%M%S")
        except ValueError:  # 20261399-...: not a stamp restore wrote
            continue
        found.append(Kept(entry, replaced, _size(entry), int(match.group(2) or 1)))
    return sorted(found, key=lambda k: (k.replaced, k.number), reverse=True)


def prune(data_dir: Path, keep: int) -> list[Kept]:
    """Remove all but the newest `keep` copies; the ones removed.

    :raises ValueError: `keep` is under 1 (the newest copy is never removed).
    :raises OSError: a copy could not be removed (those before it are gone).
    """
    if keep < 1:
        raise ValueError(f"--keep {keep}: keep at least 1 (the newest copy is never removed)")
    removed = kept_copies(data_dir)[keep:]
    for copy in removed:
        shutil.rmtree(copy.path)
    return removed


def kept_command(data_dir: Path, *, keep: int | None, listed: bool, out: TextIO,
                 err: TextIO) -> int:
    """``companion restore --keep N`` then ``--list``: what was removed, then the copies
    left, newest first; the exit status (1 after one line on `err`: a copy could not be
    removed)."""
    if keep is not None:
        try:
            removed = prune(data_dir, keep)
        except OSError as exc:
            print(f"companion restore: cannot remove {exc.filename}: {exc.strerror or exc}",
                  file=err)
            return 1
        freed = human_size(sum(k.size for k in removed))
        print(f"Removed {_copies(len(removed))} ({freed}) kept by restores beside "
              f"{data_dir}; kept the newest {keep}", file=out)
    if listed:
        copies = kept_copies(data_dir)
        if not copies:
            print(f"No copies kept by restores beside {data_dir}.", file=out)
            return 0
        print(f"{_copies(len(copies))} kept by restores beside {data_dir}, newest first:",
              file=out)
        for copy in copies:
            print(copy.line(), file=out)
    return 0


def _copies(n: int) -> str:
    return f"{n} copy" if n == 1 else f"{n} copies"


def human_size(size: int) -> str:
    """``512 B``, ``4.0 KB``, ``1.5 MB``, ``2.1 GB`` (1024 bytes a KB)."""
    if size < 1024:
        return f"{size} B"
    value = float(size)
    for unit in ("KB", "MB", "GB"):
        value /= 1024
        if value < 1024 or unit == "GB":
            break
    return f"{value:.1f} {unit}"


def _size(folder: Path) -> int:
    """The bytes of the files under `folder` (links not followed)."""
    total = 0
    for root, _dirs, files in os.walk(folder):
        for name in files:
            try:
                total += os.lstat(os.path.join(root, name)).st_size
            except OSError:
                continue
    return total
