"""Actions every game takes the same way, handled once: ``rename`` a player.

A name typed wrong at the start ("Bea" for "Ben") used to stay for the whole game. Every
game's State keeps the names as ``players`` (a tuple in seat order) and reads them from
there alone, so renaming is one field replaced, whatever the game: the session sends a
``rename`` here instead of to the game (:func:`parse`, :func:`check`, :func:`apply` wrap
the game's own), and replaying the journal goes the same way. The new name follows the
rules of a name at the start (``base.check_name``: 1-40 characters as a person sees them,
no control characters) and must not be another player's (case and invisible characters
aside).

    {"type": "rename", "player": 1, "name": "Ben"}       (player: a seat or the old name)
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from types import ModuleType
from typing import Any, Mapping

from companion.errors import IllegalAction, InvalidAction, NotNow
from companion.games.base import (PLAYER, ActionDoc, Event, PlayerRef, check_name,
                                  get_player, same_name, seat_of)

RENAME_DOC = ActionDoc(
    summary="Rename a player (a name typed wrong at the start): 1-40 characters, not "
            "another player's name.",
    properties={"player": PLAYER,
                "name": {"type": "string", "minLength": 1, "maxLength": 400,
                         "description": "the new name (40 characters as a person sees them)"}},
    required=("player", "name"),
    example={"type": "rename", "player": 1, "name": "Ben"},
)

#: Action type -> description, for the actions every game takes through this module.
TABLE_ACTIONS: dict[str, ActionDoc] = {"rename": RENAME_DOC}


@dataclass(frozen=True)
class Rename:
    """``player`` (a seat or the current name) is called ``name`` from now on."""

    player: PlayerRef
    name: str


def actions(module: ModuleType) -> dict[str, ActionDoc]:
    """Every action ``module``'s game takes: its own, then the table's (``rename``)."""
    return {**module.ACTIONS, **TABLE_ACTIONS}


def parse(module: ModuleType, data: Mapping[str, Any]) -> Any:
    """The action value of ``data``: a :class:`Rename`, or what the game parses."""
    if not (isinstance(data, Mapping) and data.get("type") == "rename"):
        return module.parse_action(data)
    name = data.get("name")
    if not isinstance(name, str):
        raise InvalidAction("'name' must be the player's new name.")
    return Rename(get_player(data, "player"), check_name(name))


def check(module: ModuleType, state: Any, action: Any) -> None:
    """Raise if ``action`` cannot be taken now; the game checks its own actions.

    :raises NotNow: the game is over (its result is kept under the names it ended with).
    :raises IllegalAction: nobody at the table is that player, the name is another
        player's, or it is the name they already have.
    """
    if not isinstance(action, Rename):
        module.check(state, action)
        return
    if module.public_state(state)["over"]:
        raise NotNow("The game is over; rename players in the next game.")
    players = state.players
    seat = seat_of(players, action.player)
    if action.name == players[seat]:
        raise IllegalAction(f"{players[seat]} is already called that.")
    for other, name in enumerate(players):
        if other != seat and same_name(name) == same_name(action.name):
            raise IllegalAction(f"{name} is already at this table; choose another name.")


def note(module: ModuleType, state: Any, data: Mapping[str, Any]) -> dict[str, Any]:
    """What the host's recent list adds to an action taken in ``state``: a rename's old
    name as ``was`` (by then a seat names the new one), else the game's ``note`` if it has one."""
    if data.get("type") == "rename":
        return {"was": state.players[seat_of(state.players, get_player(data, "player"))]}
    game_note = getattr(module, "note", None)
    return game_note(state, data) if game_note else {}


def apply(module: ModuleType, state: Any, action: Any) -> tuple[Any, list[Event]]:
    """The state after ``action`` (checked); a rename replaces one name in ``players``."""
    if not isinstance(action, Rename):
        return module.apply(state, action)
    seat = seat_of(state.players, action.player)
    old = state.players[seat]
    players = state.players[:seat] + (action.name,) + state.players[seat + 1:]
    return replace(state, players=players), [
        Event("rename", {"seat": seat, "was": old, "name": action.name})]
