"""CPU cost of Paper Toss and Sorry! Revenge: a whole-journal replay and a public view.

Undo replays the journal from ``new_game``, so replay time is the undo latency.
Run: ``.venv/bin/python scripts/bench_card_games.py`` (CPU time via time.process_time).
The journals are long random legal games (seeded), kept only if they end.
"""

from __future__ import annotations

import json
import random
from types import ModuleType
from typing import Any, Callable

from companion.errors import ActionError
from companion.games import paper_toss, sorry_21
from bench_common import cpu, replay  # same folder

TOSS = ["good-throw", "perfect", "bad-throw", "window", "sprinklers"]


def _paper_toss_options(state: Any, rng: random.Random) -> list[dict[str, Any]]:
    n = len(state.players)
    if state.toss is None:
        return [{"type": "toss"}] * 4 + [{"type": "pass"},
                                         {"type": "bully", "target": rng.randrange(n)}]
    return [{"type": "hazard", "player": rng.randrange(n), "card": "dog"},
            {"type": "counter", "card": rng.choice(["food", "shortcut"])},
            {"type": "no-counter"}, {"type": "energy-drink"},
            {"type": "flip", "cards": [rng.choice(TOSS)]},
            {"type": "flip", "cards": [rng.choice(TOSS), rng.choice(TOSS)]},
            {"type": "pick", "card": rng.choice(TOSS)},
            {"type": "sprinklers", "discard": rng.random() < 0.5}]


def _sorry_options(state: Any, rng: random.Random) -> list[dict[str, Any]]:
    n = len(state.players)
    if state.tied:
        return [{"type": "tiebreak", "player": rng.choice(state.tied),
                 "cards": [f"number-{rng.randrange(11)}" for _ in range(3)]}]
    return [{"type": "play", "card": f"number-{rng.randrange(11)}"}] * 5 + [
        {"type": "play", "card": rng.choice(["switch", "slide-15", "play-2", "draw-2"])},
        {"type": "take-back", "target": rng.randrange(n)},
        {"type": "steal", "player": rng.randrange(n)}, {"type": "block"}, {"type": "accept"}]


def journal_of(game: ModuleType, players: list[str], options: dict[str, Any],
               choose: Callable[[Any, random.Random], list[dict[str, Any]]],
               seed: int) -> list[dict[str, Any]]:
    """The longest finished game among 50 seeded random ones."""
    rng, best = random.Random(seed), []
    for _ in range(50):
        state, journal = game.new_game(players, options), []
        while not state.over and len(journal) < 5000:
            data = {**rng.choice(choose(state, rng)), "at": 1_700_000_000.0}
            try:
                action = game.parse_action(data)
                game.check(state, action)
            except ActionError:
                continue
            state, _ = game.apply(state, action)
            journal.append(data)
        if state.over and len(journal) > len(best):
            best = journal
    return best


def main() -> None:
    cases = [
        ("paper-toss", paper_toss, [f"P{i}" for i in range(6)], {}, _paper_toss_options),
        ("sorry-21", sorry_21, ["A", "B", "C", "D"], {"longer": True}, _sorry_options),
    ]
    print("| game | journal | whole replay (parse + check + apply) | public_state + json |")
    print("|---|---|---|---|")
    for name, game, players, options, choose in cases:
        journal = journal_of(game, players, options, choose, seed=1)
        final = replay(game, players, options, journal)
        whole = cpu(lambda: replay(game, players, options, journal), 20)
        view = cpu(lambda: json.dumps(game.public_state(final)), 2000)
        print(f"| {name}, {len(players)} players | {len(journal)} actions | "
              f"{whole * 1e3:.1f} ms ({whole / len(journal) * 1e6:.0f} us/action) | "
              f"{view * 1e6:.0f} us |")


if __name__ == "__main__":
    main()
