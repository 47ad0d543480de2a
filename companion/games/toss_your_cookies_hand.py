"""Toss Your Cookies: a hand shown to the camera, read as a sentence and as a claim.

Pure helpers behind ``toss_your_cookies.py``'s camera hook. The flow (see
``docs/games/toss-your-cookies.md``): a player shouts "Snickerdoodle!", the host taps
their name (the ``claim`` action pauses any running timer), the player lays the hand
face up under the camera, and the cards the camera names become the claim's ``hand``.
A winning hand is offered as a ``snickerdoodle`` for the host to confirm; any other hand
gets a sentence saying why ("4 Chocolate Chip and a Wild: that is five, but no milk.").
With no claim open, the camera only speaks up when it sees a winning hand (in the
scramble a player may slap one down before anyone taps), and never offers, since it
cannot tell whose hand it is.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Protocol, Sequence

from companion.errors import IllegalAction
from companion.games.toss_your_cookies_rules import (COOKIES, LastClaim, check_deck,
                                                     winning_cookie)

__all__ = ["short_name", "describe_hand", "hand_verdict", "from_cards", "cards_message",
           "last_claim_json"]

_NUMBERS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five"}


class _Table(Protocol):
    """What the hook reads of the game's State (kept loose to avoid an import cycle)."""

    @property
    def players(self) -> tuple[str, ...]: ...

    @property
    def cookies(self) -> tuple[str, ...]: ...

    @property
    def claim(self) -> int | None: ...

    @property
    def over(self) -> bool: ...


def short_name(cookie: str) -> str:
    """A cookie's name as the table says it: "Chocolate Chip", "Gingerbread Man"."""
    name = COOKIES.get(cookie, cookie.replace("-", " ").title())
    return name.removesuffix(" Cookie")


def _best(counts: Counter[str], cookies: Sequence[str]) -> str:
    """The cookie of ``cookies`` the hand holds most of (the first one on a tie)."""
    return max(cookies, key=lambda c: counts[c])


def describe_hand(hand: Sequence[str], cookies: Sequence[str]) -> str:
    """The hand's best run as a table says it: "4 Chocolate Chip and a Wild".

    The best run is the cookie held most often (of those in play) plus the wild cards;
    the milk and other cards are left out (the verdict speaks of the milk).
    """
    counts = Counter(hand)
    best = _best(counts, cookies) if cookies else None
    parts = []
    if best is not None and counts[best]:
        parts.append(f"{counts[best]} {short_name(best)}")
    wild = counts["wild"]
    if wild:
        parts.append("a Wild" if wild == 1 else f"{wild} Wilds")
    if not parts:
        return "No cookie"
    return " and ".join(parts)


def _and_milk(said: str) -> str:
    """ "4 Fortune and a Wild" -> "4 Fortune, a Wild and the milk"."""
    return said.replace(" and ", ", ", 1) + " and the milk"


def hand_verdict(hand: Sequence[str], cookies: tuple[str, ...], players: int
                 ) -> tuple[str | None, str]:
    """(the winning cookie or None, a sentence for the table) for a shown hand.

    >>> hand_verdict(["chocolate-chip"] * 4 + ["wild"], ("chocolate-chip", "fortune",
    ...              "gingerbread"), 3)
    (None, '4 Chocolate Chip and a Wild: that is five, but no milk.')
    """
    try:
        counts = check_deck(tuple(hand), cookies, players)
    except IllegalAction as error:
        return None, str(error)
    run = counts[_best(counts, cookies)] + counts["wild"]
    said = describe_hand(hand, cookies)
    if run >= 5 and counts["milk"]:
        cookie = winning_cookie(tuple(hand), cookies, players)
        return cookie, f"{_and_milk(said)}: five {short_name(cookie)} and the milk. Snickerdoodle!"
    if counts["milk"] and run == 0:
        return None, "Only the milk: Snickerdoodle needs five of one cookie too."
    if counts["milk"]:
        count = _NUMBERS.get(run, str(run))
        return None, (f"{_and_milk(said)}: that is only {count} of one cookie; "
                      f"Snickerdoodle needs five.")
    if run >= 5:
        return None, f"{said}: that is five, but no milk."
    return None, f"{said} and no milk: Snickerdoodle needs five of one cookie and the milk."


def _hand(seen: Sequence[str], cards: Sequence[str]) -> list[str]:
    """The cards of this game among those seen, sorted (other faces are ignored)."""
    return sorted(c for c in seen if c in cards)


def from_cards(state: _Table, seen: Sequence[str], before: Sequence[str],
               cards: Sequence[str]) -> dict[str, Any] | None:
    """The ``snickerdoodle`` a hand seen during an open claim stands for, or None.

    Only a winning hand is offered (the host confirms it); ``before`` does not matter,
    since the hand shown is whatever is in view. No claim open: nothing is offered.
    """
    del before
    if state.over or state.claim is None:
        return None
    hand = _hand(seen, cards)
    cookie, _ = hand_verdict(hand, state.cookies, len(state.players))
    if cookie is None:
        return None
    return {"type": "snickerdoodle", "player": state.claim, "hand": hand}


def cards_message(state: _Table, seen: Sequence[str], before: Sequence[str],
                  cards: Sequence[str]) -> str | None:
    """The sentence the phones show for the cards in view, or None (nothing to say).

    During a claim: the verdict on the hand, good or bad. Otherwise only a winning
    hand is worth a word (the cards in the middle during a scramble are not a hand).
    """
    del before
    hand = _hand(seen, cards)
    if state.over or not hand:
        return None
    cookie, sentence = hand_verdict(hand, state.cookies, len(state.players))
    if state.claim is not None:
        return f"{state.players[state.claim]} shows: {sentence}"
    if cookie is None:
        return None
    return f"{sentence} Tap Snickerdoodle! for whoever holds it."


def last_claim_json(last: LastClaim | None, players: tuple[str, ...], round_number: int
                    ) -> dict[str, Any] | None:
    """The public view of the claim that won round ``round_number``, or None."""
    if last is None:
        return None
    return {"player": last.player, "name": players[last.player], "round": round_number,
            "checked": last.hand is not None,
            "hand": None if last.hand is None else list(last.hand), "text": last.text}
