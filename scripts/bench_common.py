"""What the scripts' benches share: CPU time per call, and replaying a game's journal.

Used by ``bench_timed_games.py``, ``bench_card_games.py``, ``bench_hardware.py`` and
``bench_preview.py`` (same folder). CPU time is ``time.process_time``, so a busy machine
does not skew it.
"""

from __future__ import annotations

import time
from types import ModuleType
from typing import Any, Callable


def cpu(fn: Callable[[], Any], repeat: int, *, warm_up: bool = False) -> float:
    """CPU seconds per call of ``fn`` over ``repeat`` calls (after one untimed call if
    ``warm_up``)."""
    if warm_up:
        fn()
    start = time.process_time()
    for _ in range(repeat):
        fn()
    return (time.process_time() - start) / repeat


def cpu_ms(fn: Callable[[], Any], n: int) -> float:
    """Mean CPU milliseconds per call of ``fn`` over ``n`` calls (after one warm-up call)."""
    return 1000 * cpu(fn, n, warm_up=True)


def replay(game: ModuleType, players: list[str], options: dict[str, Any],
           journal: list[dict[str, Any]]) -> Any:
    """Fold the journal from ``new_game``, as undo does (parse, check and apply each)."""
    state = game.new_game(players, options)
    for data in journal:
        action = game.parse_action(data)
        game.check(state, action)
        state, _ = game.apply(state, action)
    return state
