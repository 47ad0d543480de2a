"""A journal another program holds locked is busy, not damaged: tell the two apart, and
say who holds it.

SQLite answers "database is locked" (SQLITE_BUSY) or SQLITE_LOCKED when another
connection keeps the file to itself: a program in exclusive locking mode, a writer on a
journal in rollback mode, a stuck process. ``sqlite3.OperationalError`` is a subclass of
``DatabaseError``, so a caller that moves a damaged journal aside must ask
:func:`is_busy` first: renaming a busy journal would start an empty one while the other
program goes on writing into the renamed file. The sentence names the process holding
the file when ``/proc`` shows it (Linux, the same user), so the host knows what to stop.
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path


def is_busy(exc: sqlite3.Error) -> bool:
    """Whether `exc` means another connection holds the database (busy or locked), as
    opposed to a damaged or unreadable file."""
    code = getattr(exc, "sqlite_errorcode", None)
    if isinstance(code, int):  # extended codes (SQLITE_BUSY_RECOVERY ...) keep the low byte
        return code & 0xFF in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED)
    text = str(exc).lower()  # one raised by hand (a backup's progress callback)
    return "locked" in text or "busy" in text


def holders(path: Path, *, proc: Path = Path("/proc")) -> list[str]:
    """"pid 1234 (sqlite3 companion.db)" for each other process with the database `path`
    (or its -wal, -shm or -journal file) open; empty where ``/proc`` cannot tell."""
    names = {os.path.realpath(f"{path}{suffix}") for suffix in ("", "-wal", "-shm", "-journal")}
    found = []
    try:
        pids = sorted(int(p.name) for p in proc.iterdir() if p.name.isdigit())
    except OSError:
        return []
    for pid in pids:
        if pid == os.getpid():
            continue
        try:
            fds = list((proc / str(pid) / "fd").iterdir())
            if any(os.readlink(fd) in names for fd in fds):
                found.append(f"pid {pid} ({_command(proc / str(pid))})")
        except OSError:  # another user's process, or one that just ended
            continue
    return found


def held_by(path: Path) -> str:
    """"; held by pid 1234 (sqlite3 companion.db)" for the processes :func:`holders`
    finds, or "" (to end a sentence saying the journal is locked or open)."""
    found = holders(path)
    return f"; held by {', '.join(found)}" if found else ""


def busy_sentence(path: Path, waited: float) -> str:
    """One line for the host: the journal is locked, by whom, and what to do."""
    who = ", ".join(holders(path)) or "a second companion, a backup tool or a stuck process?"
    return (f"The journal {path} is locked by another program ({who}); waited {waited:g} s "
            "and moved nothing. Stop that program, then start the companion again.")


def _command(folder: Path) -> str:
    """The process's command line on one line (a ``python -c`` script has newlines), shortened."""
    try:
        words = (folder / "cmdline").read_bytes().split(b"\0")
    except OSError:
        return "?"
    line = " ".join(" ".join(w.decode(errors="replace").split()) for w in words if w)
    return line if len(line) <= 80 else line[:77] + "..."
