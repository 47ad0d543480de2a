"""Playing a game module the way the session does, for the rules tests."""

from __future__ import annotations

from types import ModuleType
from typing import Any

import pytest

#: The "at" stamp the session would put on an action.
T0 = 1_700_000_000.0


def apply_action(game: ModuleType, state: Any, data: dict, at: float | None = T0
                 ) -> tuple[Any, list]:
    """Parse, check and apply one action dict; (new state, events).

    ``at`` is stamped on the action unless it is None or the dict carries its own.
    """
    action = game.parse_action(data if at is None else {"at": at, **data})
    game.check(state, action)
    return game.apply(state, action)


def replay(game: ModuleType, state: Any, actions: list[dict], at: float | None = T0) -> Any:
    """The state after applying every action in order (a journal replay)."""
    for data in actions:
        state, _ = apply_action(game, state, data, at)
    return state


def refused(game: ModuleType, state: Any, data: dict, error: type, match: str) -> None:
    """The action is refused with ``error`` and a sentence matching ``match``, and nothing
    changes."""
    before = state
    with pytest.raises(error, match=match):
        game.check(state, game.parse_action({"at": T0, **data}))
    assert state == before, "a refused action changes nothing"
