"""CPU cost of the timed games: one action, one public view, and a whole-journal replay.

Undo replays the journal from ``new_game``, so replay time is the undo latency.
Run: ``.venv/bin/python scripts/bench_timed_games.py`` (CPU time via time.process_time).
"""

from __future__ import annotations

import json
import random
from typing import Any

from companion.games import paper_tales, toss_your_cookies
from bench_common import cpu, replay  # same folder

T0 = 1_700_000_000.0


def paper_tales_journal() -> list[dict[str, Any]]:
    """A full 5-player game: deploys, Wars from realms, builds, every phase timed."""
    journal: list[dict[str, Any]] = [{"type": "start", "at": T0}]
    now = T0
    for turn in range(4):
        for phase in range(6):
            now += 30
            if phase == 1:
                journal += [{"type": "deploy", "player": p, "front": ["farmer", "hunter"],
                             "back": ["archer"] if turn == 0 else [], "at": now}
                            for p in range(2)]
            if phase == 4:
                journal += [{"type": "build", "player": p,
                             "building": ["town", "tavern", "mine", "temple"][turn],
                             "at": now} for p in range(2)]
            journal += [{"type": "gold", "player": p, "amount": 1, "at": now}
                        for p in range(5)]
            journal.append({"type": "next", "at": now})
    journal.append({"type": "tally", "building_lp": [3, 4, 5, 6, 7], "at": now})
    return journal


def cookies_journal() -> list[dict[str, Any]]:
    """An 8-player game won 2-0 (best of 3), 40 virtual rolls a round, Tosses timed out."""
    rng, state = random.Random(1), toss_your_cookies.new_game([f"P{i}" for i in range(8)])
    journal, now = [], T0
    for _ in range(2):
        for _ in range(40):
            now += 5
            data = toss_your_cookies.prepare(state, {"type": "roll", "at": now}, rng)
            state, _ = toss_your_cookies.apply(state, toss_your_cookies.parse_action(data))
            journal.append(data)
            while (deadline := toss_your_cookies.deadline(state)) is not None:
                data = {"type": "timeout", "at": deadline}
                state, _ = toss_your_cookies.apply(state, toss_your_cookies.parse_action(data))
                journal.append(data)
        journal.append({"type": "snickerdoodle", "player": 0, "at": now})
        state, _ = toss_your_cookies.apply(state, toss_your_cookies.parse_action(journal[-1]))
    return journal


def main() -> None:
    cases = [(paper_tales, [f"P{i}" for i in range(5)], paper_tales_journal()),
             (toss_your_cookies, [f"P{i}" for i in range(8)], cookies_journal())]
    for game, players, journal in cases:
        final = replay(game, players, {}, journal)
        assert final.over, game.ID
        whole = cpu(lambda: replay(game, players, {}, journal), 50)
        view = cpu(lambda: json.dumps(game.public_state(final)), 500)
        print(f"{game.ID}: {len(journal)} actions; replay {whole * 1e3:.2f} ms "
              f"({whole / len(journal) * 1e6:.0f} us/action incl. check); "
              f"public_state+json {view * 1e6:.0f} us")


if __name__ == "__main__":
    main()
