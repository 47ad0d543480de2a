"""``companion serve`` on a data folder whose journal another process holds locked.

A journal with one game is held in SQLite's exclusive locking mode by a second Python
process (as a backup tool or a stuck program would), and ``companion serve`` of the checkout
TREE is started on it: the script prints how serve ended (or that it still served after
20 s), its first stderr lines and the files left in the data folder. A behaviour, not a
timing: the seconds include the interpreter's start on a loaded machine.

Usage::

    .venv/bin/python bench/bench_serve_locked.py TREE    (TREE: a checkout, e.g. .)
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

START = """import sys
sys.path.insert(0, sys.argv[2])
from companion.journal import Journal
with Journal(sys.argv[1]) as journal:
    journal.start_game("toss-up", ["Ann", "Ben"], {}, 1.0)
"""
HOLD = """import sqlite3, sys
db = sqlite3.connect(sys.argv[1], isolation_level=None)
db.execute("PRAGMA locking_mode=EXCLUSIVE")
db.execute("BEGIN EXCLUSIVE")
db.execute("COMMIT")
print("holding", flush=True)
sys.stdin.read()
"""


def main() -> None:
    tree = Path(sys.argv[1]).resolve()
    with tempfile.TemporaryDirectory() as folder:
        data = Path(folder) / "data"
        subprocess.run([sys.executable, "-c", START, str(data), str(tree)], check=True)
        hold = subprocess.Popen([sys.executable, "-c", HOLD, str(data / "companion.db")],
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        assert hold.stdout is not None and hold.stdout.readline() == "holding\n"
        env = {k: v for k, v in os.environ.items() if not k.startswith("COMPANION_")}
        started = time.monotonic()
        serve = subprocess.Popen(
            [sys.executable, "-m", "companion.cli", "serve", "--camera", "none", "--host",
             "127.0.0.1", "--port", "0", "--pin", "97531", "--data-dir", str(data)],
            cwd=tree, env={**env, "PYTHONPATH": str(tree)}, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, text=True)
        try:
            _out, err = serve.communicate(timeout=20)
            ended = f"exit {serve.returncode} after {time.monotonic() - started:.1f} s"
        except subprocess.TimeoutExpired:
            serve.kill()
            _out, err = serve.communicate()
            ended = "still serving after 20 s (killed)"
        hold.communicate("", timeout=30)
        print(ended)
        print("stderr:", [line for line in err.splitlines() if line][:2])
        print("files:", sorted(p.name for p in data.iterdir()))


if __name__ == "__main__":
    main()
