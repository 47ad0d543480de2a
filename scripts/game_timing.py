"""What the game benches share: replaying a journal as undo does, and CPU time per call.

Used by ``bench_timed_games.py`` and ``bench_card_games.py`` (same folder).
"""

from __future__ import annotations

import time
from types import ModuleType
from typing import Any, Callable


def replay(game: ModuleType, players: list[str], options: dict[str, Any],
           journal: list[dict[str, Any]]) -> Any:
    """Fold the journal from ``new_game``, as undo does (parse, check and apply each)."""
    state = game.new_game(players, options)
    for data in journal:
        action = game.parse_action(data)
        game.check(state, action)
        state, _ = game.apply(state, action)
    return state


def cpu(fn: Callable[[], Any], repeat: int) -> float:
    """CPU seconds (``time.process_time``) per call of ``fn``, over ``repeat`` calls."""
    start = time.process_time()
    for _ in range(repeat):
        fn()
    return (time.process_time() - start) / repeat
