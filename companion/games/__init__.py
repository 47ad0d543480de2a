"""The game registry: game id (kebab-case, as in the API) to its rules module."""

from __future__ import annotations

import importlib
from types import ModuleType

from companion.errors import InvalidAction

#: Game id -> module path. Adding a game is adding a module and a line here.
GAMES: dict[str, str] = {
    "toss-up": "companion.games.toss_up",
    "paper-toss": "companion.games.paper_toss",
    "sorry-21": "companion.games.sorry_21",
    "toss-your-cookies": "companion.games.toss_your_cookies",
    "paper-tales": "companion.games.paper_tales",
}


def find_game(game_id: object) -> ModuleType:
    """Return the rules module for ``game_id``.

    :raises InvalidAction: if no game has that id.
    """
    known = ", ".join(sorted(GAMES))
    if not isinstance(game_id, str):  # {"game": {"x": 1}}: no Python repr in the answer
        raise InvalidAction(f"'game' must be one of: {known}.")
    if game_id not in GAMES:
        raise InvalidAction(f"Unknown game {game_id!r}; the companion knows: {known}.")
    return importlib.import_module(GAMES[game_id])


__all__ = ["GAMES", "find_game"]
