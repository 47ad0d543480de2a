"""CPU cost of a session's replay (the undo and restart latency) through the whole path.

``scripts/bench_timed_games.py`` replays with the game's own functions; this one loads a
real SQLite journal with ``Session`` (read, ``table_actions`` routing, the timer hold), so
a change to the session's path shows. The journals are the timed games' bench journals
(Paper Tales, 5 players, 162 actions; Toss Your Cookies, 8 players, 118 actions).

Run: ``.venv/bin/python bench/bench_session_replay.py`` (CPU time via time.process_time);
for main, the same script with ``PYTHONPATH=<main checkout>:<main>/scripts``.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

sys.path.insert(1, str(Path(__file__).resolve().parent.parent / "scripts"))

from bench_common import cpu  # noqa: E402  (scripts/, after PYTHONPATH)
from bench_timed_games import T0, cookies_journal, paper_tales_journal  # noqa: E402

from companion.journal import Journal  # noqa: E402
from companion.session import Session  # noqa: E402


def main() -> None:
    cases = [("paper-tales", [f"P{i}" for i in range(5)], paper_tales_journal()),
             ("toss-your-cookies", [f"P{i}" for i in range(8)], cookies_journal())]
    for game, players, actions in cases:
        with tempfile.TemporaryDirectory() as folder, Journal(Path(folder)) as journal:
            game_id = journal.start_game(game, players, {}, T0)
            for data in actions:
                journal.append(game_id, data, data["at"])
            assert Session(journal).state()["over"], game
            load = cpu(lambda: Session(journal), 40, warm_up=True)
        print(f"{game}: {len(actions)} actions; Session load (replay) {load * 1e3:.2f} ms "
              f"({load / len(actions) * 1e6:.1f} us/action)")


if __name__ == "__main__":
    main()
