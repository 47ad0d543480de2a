"""``companion restore``: how long it takes on a full data folder, and where a kill leaves it.

Builds a data folder as a long-used companion has one (a journal of ``--actions`` actions
in games of 200, a taught deck of ``--faces`` 60 KB pictures, PIN, key, settings), backs
it up with ``companion backup``, then:

1. times ``companion restore`` of that backup over it (``--rounds`` runs, the median;
   every file is flushed to disk before the renames, which is most of the time);
2. forks restores killed (``os._exit``) at every ``--stride``-th file-system call and, after
   what the next start does (``finish_restore``), counts how many left the old data, the
   new, or anything else (must be 0); and the same for the recipe docs/hardware.md gave
   before the command (delete -wal/-shm, copy the backup over the folder).

Usage::

    .venv/bin/python bench/bench_restore.py [--actions 5000] [--faces 100] [--rounds 5] [--stride 1]
"""

from __future__ import annotations

import argparse
import os
import shutil
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Callable

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from companion.backup import backup  # noqa: E402
from companion.journal import Journal  # noqa: E402
from companion.restore import finish_restore, restore  # noqa: E402
from tests.companion.test_restore import _restore_killed_at, _snapshot  # noqa: E402


def data_folder(folder: Path, *, actions: int, faces: int, pin: str) -> None:
    """A data folder with `actions` journaled actions and a deck of `faces` pictures."""
    deck = folder / "decks" / "sorry-21"
    deck.mkdir(parents=True)
    for n in range(faces):
        (deck / f"face-{n}.png").write_bytes(os.urandom(60_000))
    (folder / "host-pin.txt").write_text(pin + "\n")
    (folder / "web-secret.key").write_bytes(os.urandom(32))
    (folder / "companion.toml").write_text("[camera]\nspec = 'auto'\n")
    with Journal(folder) as journal:
        game = 0
        for n in range(actions):
            if n % 200 == 0:
                game = journal.start_game("toss-up", ["Ann", "Ben"], {}, at=float(n))
            action = {"type": "bank"} if n % 2 else {"type": "roll", "green": 3,
                                                        "yellow": 7, "red": 0}
            journal.append(game, action, at=float(n))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--actions", type=int, default=5_000)
    parser.add_argument("--faces", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--stride", type=int, default=1)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        data_folder(root / "other", actions=args.actions, faces=args.faces, pin="222222")
        backup(root / "other", root / "saved")
        data_folder(root / "origin", actions=args.actions // 2, faces=args.faces, pin="111111")
        size = sum(p.stat().st_size for p in (root / "saved").rglob("*") if p.is_file())
        print(f"backup: {size / 1e6:.1f} MB, {args.actions} actions, {args.faces} deck faces")
        data = root / "run" / "data"
        times = []
        for _ in range(args.rounds):
            shutil.rmtree(root / "run", ignore_errors=True)
            (root / "run").mkdir()
            shutil.copytree(root / "origin", data)
            start = time.perf_counter()
            restore(root / "saved", data)
            times.append(time.perf_counter() - start)
        print(f"restore: median {statistics.median(times):.2f} s of {args.rounds} "
              f"(min {min(times):.2f}, max {max(times):.2f})")
        kills(root, data, args.stride, restore, "companion restore")
        kills(root, data, args.stride, recipe, "the recipe before (rm -wal/-shm, cp -a)")


def recipe(src: Path, data: Path) -> None:
    """The restore docs/hardware.md gave before the command: delete the journal's -wal and
    -shm, then copy the backup's files over the data folder (``cp -a SRC/. DATA/``)."""
    for suffix in ("-wal", "-shm"):
        (data / f"companion.db{suffix}").unlink(missing_ok=True)
    shutil.copytree(src, data, dirs_exist_ok=True)


def kills(root: Path, data: Path, stride: int, run: Callable[[Path, Path], object],
          name: str) -> None:
    """Print how the data folder stands after `run` killed at each stride-th call."""
    old = _snapshot(root / "origin")
    shutil.rmtree(root / "run")
    (root / "run").mkdir()
    shutil.copytree(root / "origin", data)
    total = _restore_killed_at(root / "saved", data, 0, run)
    new = _snapshot(data)
    counts = {"old": 0, "new": 0, "mixed or missing": 0}
    for kill_at in range(1, total + 1, stride):
        shutil.rmtree(root / "run")
        (root / "run").mkdir()
        shutil.copytree(root / "origin", data)
        _restore_killed_at(root / "saved", data, kill_at, run)
        finish_restore(data)
        try:
            now = _snapshot(data) if data.is_dir() else None
        except sqlite3.DatabaseError:  # a journal copied in part
            now = None
        counts["old" if now == old else "new" if now == new else "mixed or missing"] += 1
    print(f"{name}: {total} file-system calls; killed at every {stride}: "
          + ", ".join(f"{k} {v}" for k, v in counts.items()))


if __name__ == "__main__":
    main()
