"""Paper Toss: the cards, the action values and how action dicts are parsed.

The rules live in :mod:`companion.games.paper_toss`; this module holds what the
camera must learn (``CARDS``), what the API accepts (``ACTIONS``) and
:func:`parse_action`, which checks an action's shape but not the rules.

A player is named in an action by name (any case) or by seat index (0 = first seat).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping, Union

from companion.errors import InvalidAction
from companion.games.base import (CORRECT_DOC, PLAYER, ActionDoc, Correct, PlayerRef, get_player,
                                  get_type, parse_correct)

#: Toss card id -> change in the tosser's tokens (Sprinklers depends on a discard).
TOSS_EFFECTS: dict[str, int] = {
    "good-throw": 1, "perfect": 2, "bad-throw": 0, "window": -1, "sprinklers": 0,
}
#: Hazard card id -> the Counter card id that cancels it (Shortcut cancels any Hazard).
HAZARDS: dict[str, str] = {"dog": "food", "kid": "trick", "obstacle": "remedy"}
COUNTERS: tuple[str, ...] = ("food", "trick", "remedy", "shortcut")

#: Card id -> name printed on the card: every face the camera must learn.
CARDS: dict[str, str] = {
    # Toss deck (green): outcomes of a toss.
    "good-throw": "Good Throw",
    "perfect": "Perfect",
    "bad-throw": "Bad Throw",
    "window": "Window",
    "sprinklers": "Sprinklers",
    # Paper deck (blue): hands.
    "paper-toss": "Paper Toss",
    "dog": "Dog",
    "kid": "Kid",
    "obstacle": "Obstacle",
    "food": "Food",
    "trick": "Trick",
    "remedy": "Remedy",
    "shortcut": "Shortcut",
    "energy-drink": "Energy Drink",
    "bully": "Bully",
    "flat-tire": "Flat Tire",
}

_TOSS_CARD = {"type": "string", "enum": list(TOSS_EFFECTS)}

ACTIONS: dict[str, ActionDoc] = {
    "pass": ActionDoc(
        summary="The player to act ends the turn without tossing (no Paper Toss card).",
        properties={}, example={"type": "pass"}),
    "toss": ActionDoc(
        summary="The player to act plays a Paper Toss card; the Hazard step opens.",
        properties={}, example={"type": "toss"}),
    "hazard": ActionDoc(
        summary="Another player plays a Hazard (Dog, Kid or Obstacle) against the toss.",
        properties={"player": PLAYER, "card": {"type": "string", "enum": list(HAZARDS)}},
        required=("player", "card"),
        example={"type": "hazard", "player": "Ben", "card": "dog"}),
    "counter": ActionDoc(
        summary="The tosser cancels the waiting Hazard: Food-Dog, Trick-Kid, "
                "Remedy-Obstacle, Shortcut-any.",
        properties={"card": {"type": "string", "enum": list(COUNTERS)}},
        required=("card",), example={"type": "counter", "card": "food"}),
    "no-counter": ActionDoc(
        summary="The tosser lets the waiting Hazard stand; its player becomes the chooser "
                "and flips two Toss cards.",
        properties={}, example={"type": "no-counter"}),
    "energy-drink": ActionDoc(
        summary="The tosser plays Energy Drink (no Hazard standing): two Toss cards are "
                "flipped and the tosser picks one.",
        properties={}, example={"type": "energy-drink"}),
    "flip": ActionDoc(
        summary="The Toss card(s) turned face up: one, or two when there is a chooser. "
                "Two cards while a Hazard waits means the tosser did not counter it.",
        properties={"cards": {"type": "array", "items": _TOSS_CARD,
                              "minItems": 1, "maxItems": 2}},
        required=("cards",), example={"type": "flip", "cards": ["good-throw"]}),
    "pick": ActionDoc(
        summary="The chooser picks which of the two flipped Toss cards the tosser applies.",
        properties={"card": _TOSS_CARD}, required=("card",),
        example={"type": "pick", "card": "window"}),
    "sprinklers": ActionDoc(
        summary="After Sprinklers: does the tosser discard a second Paper Toss card "
                "(+1 token) or not (nothing)?",
        properties={"discard": {"type": "boolean"}}, required=("discard",),
        example={"type": "sprinklers", "discard": True}),
    "bully": ActionDoc(
        summary="Any time: a player plays Bully; the target loses 1 token (never below 0).",
        properties={"target": PLAYER, "by": PLAYER}, required=("target",),
        example={"type": "bully", "target": "Ann", "by": "Ben"}),
    "flat-tire": ActionDoc(
        summary="Any time: a player plays Flat Tire; the target skips their next turn.",
        properties={"target": PLAYER, "by": PLAYER}, required=("target",),
        example={"type": "flat-tire", "target": "Ann", "by": "Ben"}),
    "leave": ActionDoc(
        summary="Between tosses, a player leaves the table: their tokens stay, their seat "
                "is skipped and nothing more is played by or on them. Two players must stay.",
        properties={"player": PLAYER}, required=("player",),
        example={"type": "leave", "player": "Cy"}),
    "correct": CORRECT_DOC,
}


@dataclass(frozen=True)
class Pass:
    """End the turn without a toss."""


@dataclass(frozen=True)
class TossPaper:
    """Play a Paper Toss card."""


@dataclass(frozen=True)
class PlayHazard:
    """``player`` plays Hazard ``card`` against the toss."""

    player: PlayerRef
    card: str


@dataclass(frozen=True)
class Counter:
    """The tosser cancels the waiting Hazard with ``card``."""

    card: str


@dataclass(frozen=True)
class NoCounter:
    """The tosser lets the waiting Hazard stand."""


@dataclass(frozen=True)
class EnergyDrink:
    """The tosser plays Energy Drink."""


@dataclass(frozen=True)
class Flip:
    """Toss cards turned face up, in the order seen."""

    cards: tuple[str, ...]


@dataclass(frozen=True)
class Pick:
    """The chooser's pick among the two flipped cards."""

    card: str


@dataclass(frozen=True)
class Sprinklers:
    """Whether the tosser discards a second Paper Toss card after Sprinklers."""

    discard: bool


@dataclass(frozen=True)
class Bully:
    """``target`` loses a token; ``by`` (optional) played the card."""

    target: PlayerRef
    by: PlayerRef | None = None


@dataclass(frozen=True)
class FlatTire:
    """``target`` skips their next turn; ``by`` (optional) played the card."""

    target: PlayerRef
    by: PlayerRef | None = None


@dataclass(frozen=True)
class Leave:
    """``player`` leaves the table."""

    player: PlayerRef


Action = Union[Pass, TossPaper, PlayHazard, Counter, NoCounter, EnergyDrink, Flip, Pick,
               Sprinklers, Bully, FlatTire, Leave, Correct]


def parse_action(data: Mapping[str, Any]) -> Action:
    """Turn an action dict into an action value; the rules are checked later.

    :raises InvalidAction: unknown type, or a missing or malformed field.
    """
    kind = get_type(data, ACTIONS)
    if kind == "correct":
        return parse_correct(data)
    simple: dict[str, Action] = {"pass": Pass(), "toss": TossPaper(),
                                 "no-counter": NoCounter(), "energy-drink": EnergyDrink()}
    if kind in simple:
        return simple[kind]
    if kind == "hazard":
        return PlayHazard(get_player(data, "player"), _card(data, "card", HAZARDS, "a Hazard"))
    if kind == "counter":
        return Counter(_card(data, "card", COUNTERS, "a Counter"))
    if kind == "flip":
        cards = data.get("cards")
        if not isinstance(cards, list) or not 1 <= len(cards) <= 2:
            raise InvalidAction("'cards' must list the one or two Toss cards turned face up.")
        return Flip(tuple(_card({"card": c}, "card", TOSS_EFFECTS, "a Toss card")
                          for c in cards))
    if kind == "pick":
        return Pick(_card(data, "card", TOSS_EFFECTS, "a Toss card"))
    if kind == "leave":
        return Leave(get_player(data, "player"))
    if kind == "sprinklers":
        discard = data.get("discard")
        if not isinstance(discard, bool):
            raise InvalidAction("'discard' must be true or false.")
        return Sprinklers(discard)
    by = get_player(data, "by") if data.get("by") is not None else None
    target = get_player(data, "target")
    return Bully(target, by) if kind == "bully" else FlatTire(target, by)


def _card(data: Mapping[str, Any], key: str, known: Any, what: str) -> str:
    value = data.get(key)
    if isinstance(value, str) and value in known:
        return value
    names = ", ".join(CARDS[c] + f" ({c})" for c in known)
    if value is None:
        raise InvalidAction(f"'{key}' is missing: {what}, one of: {names}.")
    shown = CARDS.get(value, value) if isinstance(value, str) else value
    raise InvalidAction(f"{shown!r} is not {what}; expected one of: {names}.")
