"""Sorry! Revenge: the cards, the pile arithmetic, the actions and how dicts are parsed.

The rules live in :mod:`companion.games.sorry_21`. Here: what the camera must learn
(``CARDS``), what each pile card does to the total (:func:`pile_total`), the pawns
(``PAWNS``, :func:`pawns_home`), what the API accepts (``ACTIONS``) and
:func:`parse_action`, which checks shape but not the rules.

A player is named in an action by name (any case) or by seat index (0 = first seat).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, Mapping, Union

from companion.errors import InvalidAction
from companion.games.base import (CORRECT_DOC, PLAYER, ActionDoc, Correct, PlayerRef, get_player,
                                  get_type, parse_correct)

#: Number card id -> value added to the play pile total.
NUMBERS: dict[str, int] = {f"number-{v}": v for v in range(11)}
#: Slide card id -> the total it sets, up or down.
SLIDES: dict[str, int] = {"slide-10": 10, "slide-15": 15, "slide-21": 21}
#: Cards a turn puts on the play pile (SORRY! cards have their own actions).
PILE_CARDS: tuple[str, ...] = (*NUMBERS, *SLIDES, "switch", "draw-2", "play-2")
#: Cards a tiebreaker pile may hold: those that move a total.
TIEBREAK_CARDS: tuple[str, ...] = (*NUMBERS, *SLIDES)

#: Card id -> name on the card: every face the camera must learn.
CARDS: dict[str, str] = {
    **{card: str(value) for card, value in NUMBERS.items()},
    **{card: f"Slide to {value}" for card, value in SLIDES.items()},
    "switch": "Switch",
    "draw-2": "Draw 2",
    "play-2": "Play 2",
    "sorry": "SORRY!",
    "dont-be-sorry": "Don't Be SORRY!",
}


#: Pawns per player; the normal game is won with all of them HOME.
PAWNS = 4


def pawns_home(progress: int) -> int:
    """Pawns HOME for a player's progress (the longer game brings them back after 4)."""
    return progress if progress <= PAWNS else 2 * PAWNS - progress


def pile_total(cards: Iterable[str]) -> int:
    """The total of a pile built from ``cards`` in order: numbers add, slides set it."""
    total = 0
    for card in cards:
        if card in SLIDES:
            total = SLIDES[card]
        else:
            total += NUMBERS.get(card, 0)
    return total



ACTIONS: dict[str, ActionDoc] = {
    "play": ActionDoc(
        summary="The player to act puts a card on the play pile: a number (adds), a slide "
                "(sets the total), Switch, Draw 2 or Play 2 (then two number cards).",
        properties={"card": {"type": "string", "enum": list(PILE_CARDS)}},
        required=("card",), example={"type": "play", "card": "number-7"}),
    "take-back": ActionDoc(
        summary="On their turn, the player to act plays SORRY! on a player: one of that "
                "player's HOME pawns goes back to START unless they block it.",
        properties={"target": PLAYER}, required=("target",),
        example={"type": "take-back", "target": "Ben"}),
    "steal": ActionDoc(
        summary="Right after another player makes exactly 21: this player says SORRY! and "
                "flips one of their own pawns HOME instead, unless blocked.",
        properties={"player": PLAYER}, required=("player",),
        example={"type": "steal", "player": "Cy"}),
    "block": ActionDoc(
        summary="The player a SORRY! was played on blocks it with Don't Be SORRY!.",
        properties={}, example={"type": "block"}),
    "accept": ActionDoc(
        summary="Nobody answers: the 21 stands (no steal), or the SORRY! takes effect "
                "(no block). The next card played also means this.",
        properties={}, example={"type": "accept"}),
    "tiebreak": ActionDoc(
        summary="A tied player's own tiebreaker pile: the cards played, in order; closest "
                "to 21 without going over wins.",
        properties={"player": PLAYER,
                    "cards": {"type": "array", "items": {"type": "string",
                                                         "enum": list(TIEBREAK_CARDS)}}},
        required=("player", "cards"),
        example={"type": "tiebreak", "player": "Ann", "cards": ["number-10", "number-9"]}),
    "leave": ActionDoc(
        summary="Between cards, a player leaves the table: their pawns stay, their seat is "
                "skipped, they flip no pawn and no SORRY! is played by or on them. Two "
                "players must stay.",
        properties={"player": PLAYER}, required=("player",),
        example={"type": "leave", "player": "Cy"}),
    "correct": CORRECT_DOC,
}


@dataclass(frozen=True)
class Play:
    """Put ``card`` on the play pile."""

    card: str


@dataclass(frozen=True)
class TakeBack:
    """The player to act plays SORRY! on ``target``."""

    target: PlayerRef


@dataclass(frozen=True)
class Steal:
    """``player`` steals the 21 just made with SORRY!."""

    player: PlayerRef


@dataclass(frozen=True)
class Block:
    """The player a SORRY! was played on answers with Don't Be SORRY!."""


@dataclass(frozen=True)
class Accept:
    """The waiting 21 or SORRY! goes through unanswered."""


@dataclass(frozen=True)
class TiebreakPile:
    """``player``'s own tiebreaker pile, card by card."""

    player: PlayerRef
    cards: tuple[str, ...]


@dataclass(frozen=True)
class Leave:
    """``player`` leaves the table."""

    player: PlayerRef


Action = Union[Play, TakeBack, Steal, Block, Accept, TiebreakPile, Leave, Correct]


def parse_action(data: Mapping[str, Any]) -> Action:
    """Turn an action dict into an action value; the rules are checked later.

    :raises InvalidAction: unknown type, or a missing or malformed field.
    """
    kind = get_type(data, ACTIONS)
    if kind == "correct":
        return parse_correct(data)
    if kind == "play":
        card = data.get("card")
        if card in ("sorry", "dont-be-sorry"):
            raise InvalidAction(f"{CARDS[card]} is not played with 'play': use take-back or "
                                "steal for SORRY!, block for Don't Be SORRY!.")
        return Play(_card(card, PILE_CARDS))
    if kind == "take-back":
        return TakeBack(get_player(data, "target"))
    if kind == "steal":
        return Steal(get_player(data, "player"))
    if kind == "block":
        return Block()
    if kind == "accept":
        return Accept()
    if kind == "leave":
        return Leave(get_player(data, "player"))
    cards = data.get("cards")
    if not isinstance(cards, list) or len(cards) > 40:
        raise InvalidAction("'cards' must list the cards of the tiebreaker pile, in order.")
    return TiebreakPile(get_player(data, "player"),
                        tuple(_card(c, TIEBREAK_CARDS) for c in cards))


def _card(value: Any, known: tuple[str, ...]) -> str:
    if isinstance(value, str) and value in known:
        return value
    shown = CARDS.get(value, value) if isinstance(value, str) else value
    return _refuse(shown, known)


def _refuse(shown: Any, known: tuple[str, ...]) -> str:
    kinds = "number-0 to number-10, slide-10, slide-15, slide-21"
    if "switch" in known:
        kinds += ", switch, draw-2, play-2"
    if shown is None:
        raise InvalidAction(f"'card' is missing: a card for this pile, one of: {kinds}.")
    raise InvalidAction(f"{shown!r} is not a card for this pile; expected one of: {kinds}.")
