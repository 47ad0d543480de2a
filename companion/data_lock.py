"""Who uses the data folder: ``companion serve`` holds it shared, ``companion restore`` alone.

A restore swaps the whole data folder for a backup. A server must not run on it meanwhile
(its open journal would go on writing into the folder moved aside) nor start half-way.
The lock is flock(2) on the data folder itself: the kernel drops it when the process ends,
however it ends, so a killed server never leaves a stale lock behind. A restore renames the
folder it locked, so the server checks, once it holds its lock, that the path still names
the folder it locked, and locks again if not.

Without ``fcntl`` (Windows) there is no lock; the journal probe in ``restore`` still
refuses while a server has the journal open.
"""

from __future__ import annotations

import os
from pathlib import Path

try:
    import fcntl
except ImportError:  # pragma: no cover - not POSIX
    fcntl = None  # type: ignore[assignment]


class DataFolderBusy(ValueError):
    """Another process holds the data folder (a running ``companion serve``)."""


class Held:
    """A lock on a data folder, released by ``close()`` (again is harmless) or process end."""

    def __init__(self, fd: int | None) -> None:
        self._fd = fd

    def close(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None

    def __enter__(self) -> "Held":
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


def hold_shared(folder: Path) -> Held:
    """Lock the existing `folder` for a server, waiting while a restore holds it."""
    if fcntl is None:  # pragma: no cover
        return Held(None)
    while True:
        fd = os.open(folder, os.O_RDONLY)
        try:
            fcntl.flock(fd, fcntl.LOCK_SH)
            if _same(fd, folder):
                return Held(fd)
        except BaseException:
            os.close(fd)
            raise
        os.close(fd)  # a restore moved that folder aside: lock the one now at `folder`


def hold_alone(folder: Path) -> Held:
    """Lock `folder` (an existing folder) for this process alone, without waiting.

    :raises DataFolderBusy: a server (or another restore) holds it.
    """
    if fcntl is None:  # pragma: no cover
        return Held(None)
    fd = os.open(folder, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        raise DataFolderBusy(f"a companion is running on {folder}: stop it first "
                             "(sudo systemctl stop companion)") from None
    return Held(fd)


def hold_staging(folder: Path, *, wait: bool) -> Held | None:
    """Lock a restore's staging `folder` alone; None when it is gone (renamed) meanwhile.

    :raises DataFolderBusy: `wait` is false and a restore is filling it now.
    """
    if fcntl is None:  # pragma: no cover - a folder cannot be opened there either
        return Held(None) if folder.exists() else None
    try:
        fd = os.open(folder, os.O_RDONLY)
    except FileNotFoundError:
        return None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | (0 if wait else fcntl.LOCK_NB))
    except BlockingIOError:
        os.close(fd)
        raise DataFolderBusy(f"another restore is running ({folder} is being "
                             "filled)") from None
    if not _same(fd, folder):
        os.close(fd)
        return None
    return Held(fd)


def _same(fd: int, folder: Path) -> bool:
    """Whether `folder` still names the directory open as `fd`."""
    try:
        now = os.stat(folder)
    except FileNotFoundError:
        return False
    held = os.fstat(fd)
    return (now.st_dev, now.st_ino) == (held.st_dev, held.st_ino)
