"""What every game module provides, and small helpers they share.

A game is a module with pure functions over a frozen state value (see
``companion/games/toss_up.py``)::

    ID: str                      # "toss-up"
    NAME: str                    # "Toss Up!"
    MIN_PLAYERS, MAX_PLAYERS: int
    ACTIONS: dict[str, ActionDoc] # action type -> description, JSON schema, example
    OPTIONS: dict[str, Any]      # option name -> default (documented in the module)

    def new_game(players: list[str], options: dict) -> State        # raises ActionError
    def parse_action(data: dict) -> Action                          # raises InvalidAction
    def check(state: State, action: Action) -> None                 # raises IllegalAction/NotNow
    def apply(state: State, action: Action) -> tuple[State, list[Event]]
    def public_state(state: State) -> dict                          # JSON-ready

``public_state`` returns at least ``game``, ``players`` (objects with ``name`` and
``score``), ``current``, ``over`` and ``winners``; the session adds ``version``.

Time and randomness come from outside: the session stamps every action dict with
``"at"`` (seconds since the epoch, float) before ``parse_action``, so replaying the
journal gives the same state. A game that needs random faces defines
``prepare(state, data, rng) -> dict``, which the session calls before journaling so
the faces are stored in the action.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

from companion.errors import InvalidAction


@dataclass(frozen=True)
class Event:
    """Something that happened, for cues on the phones and the Pi (sound, LEDs).

    ``kind`` is a short kebab-case word ("red-light", "bank", "game-over");
    ``data`` holds JSON-ready details.
    """

    kind: str
    data: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class ActionDoc:
    """One action type of a game, for the OpenAPI description and the host page."""

    summary: str
    properties: Mapping[str, Any]  # JSON schema properties, "type" excluded
    example: Mapping[str, Any]
    required: tuple[str, ...] = ()


def check_players(players: Any, low: int, high: int) -> tuple[str, ...]:
    """Return the player names as a tuple, or raise InvalidAction with a table sentence.

    Names are stripped, 1-40 characters, and unique (case-insensitive).
    """
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise InvalidAction("Players must be a list of names.")
    names = tuple(p.strip() for p in players)
    if not low <= len(names) <= high:
        raise InvalidAction(f"This game needs {low} to {high} players, not {len(names)}.")
    for name in names:
        if not name:
            raise InvalidAction("Every player needs a name.")
        if len(name) > 40:
            raise InvalidAction(f"The name {name[:20]!r}... is too long (40 characters at most).")
    if len({n.casefold() for n in names}) != len(names):
        raise InvalidAction("Two players have the same name.")
    return names


def get_int(data: Mapping[str, Any], key: str, *, low: int = 0, high: int = 10**6) -> int:
    """Read an integer field of an action dict, or raise InvalidAction naming it."""
    value = data.get(key)
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidAction(f"'{key}' must be a whole number.")
    if not low <= value <= high:
        raise InvalidAction(f"'{key}' must be between {low} and {high}.")
    return value


def get_type(data: Any, known: Mapping[str, Any]) -> str:
    """Return ``data["type"]`` if it is one of ``known``, else raise InvalidAction."""
    if not isinstance(data, Mapping):
        raise InvalidAction("An action must be a JSON object.")
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in known:
        names = ", ".join(sorted(known))
        raise InvalidAction(f"Unknown action {kind!r}; this game knows: {names}.")
    return kind
