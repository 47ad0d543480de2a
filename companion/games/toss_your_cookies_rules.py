"""Toss Your Cookies: the deck, the dice, the winning hand, and what each roll asks.

Pure helpers behind ``toss_your_cookies.py``. The eight cookies are named as in Tom
Vasel's review of the Gamewright edition (BoardGameGeek thread 189121); a learned deck
uses these ids. The digest does not give the dice's face layout, so the virtual dice
show each distinct face with equal chance.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any, Mapping

from companion import timers
from companion.errors import IllegalAction, InvalidAction, NotNow
from companion.games.base import PlayerRef, get_player, seat_of
from companion.timers import TimerAction  # toss, start (resume), pause, add_time, skip, timeout

#: Cookie id -> display name, in the order sets are taken by default.
COOKIES: dict[str, str] = {
    "chocolate-chip": "Chocolate Chip Cookie", "iced-sugar": "Iced Sugar Cookie",
    "gingerbread": "Gingerbread Man", "fortune": "Fortune Cookie",
    "sandwich": "Sandwich Cookie", "macadamia": "Macadamia Nut Cookie",
    "fudge-swirl": "Fudge Swirl Cookie", "fruit-center": "Fruit Center Cookie",
}
SET_SIZE = 6
HAND = 7
#: Players -> wild cards and half-eaten cookies, so that wild + half-eaten = players - 1.
WILD = {3: 1, 4: 2, 5: 2, 6: 3, 7: 3, 8: 3}
HALF_EATEN = {3: 1, 4: 1, 5: 2, 6: 2, 7: 3, 8: 4}
ACTION_FACES = ("swap", "pass-left", "pass-right", "toss")
NUMBER_FACES = ("1", "2", "3", "all", "milk")
CALLS = ("One", "Two", "Three", "Toss!")


@dataclass(frozen=True)
class Roll:
    """The two dice: ``action`` one of ACTION_FACES, ``number`` one of NUMBER_FACES.

    ``number`` is None when the ``toss`` button started a Toss without entering dice.
    """

    action: str
    number: str | None
    at: float
    virtual: bool = False


@dataclass(frozen=True)
class Claim:
    """"Snickerdoodle!" by ``player``, with the hand shown (card ids) or None."""

    player: PlayerRef
    hand: tuple[str, ...] | None = None


@dataclass(frozen=True)
class Call:
    """"Snickerdoodle!" shouted by ``player``, whose hand is about to be shown (``claim``)."""

    player: PlayerRef
    at: float
    #: The claim takes a timer already past its deadline as spent (stopped at 0, not
    #: paused by the claim). Claims journaled before this rule lack the stamp and replay
    #: as they did: paused by the claim, run again (and out at once) by a withdraw.
    spends_expired: bool = False


@dataclass(frozen=True)
class Withdraw:
    """The open claim was a false alarm (``withdraw``)."""

    at: float


@dataclass(frozen=True)
class LastClaim:
    """The claim that won the last round: the seat, the hand if shown, the verdict."""

    player: int
    hand: tuple[str, ...] | None = None
    text: str | None = None


def check_call(action: Call | Withdraw, claim: int | None, players: tuple[str, ...]) -> None:
    """Raise unless a claim can be opened (none open) or withdrawn (one open) now.

    :raises IllegalAction: nobody at the table is that name or seat.
    :raises NotNow: a claim already open, or none to withdraw.
    """
    if isinstance(action, Withdraw):
        if claim is None:
            raise NotNow("No Snickerdoodle! claim is open.")
        return
    seat_of(players, action.player)
    if claim is not None:
        raise NotNow(f"{players[claim]} already claims Snickerdoodle!: check that hand "
                     f"(or withdraw the claim) first.")


def parse_cookies(value: Any, players: int) -> tuple[str, ...]:
    """The cookie sets in play: one per player, default the first of COOKIES.

    A cookie is named by its id or as the box says it, in any case, with or without
    "Cookie" ("gingerbread", "Gingerbread Man", "chocolate chip").
    """
    if value is None:
        return tuple(COOKIES)[:players]
    if not isinstance(value, list) or not all(isinstance(c, str) for c in value):
        raise InvalidAction("'cookies' must list the cookies in play, by name.")
    value = [_cookie_id(cookie) for cookie in value]
    if len(set(value)) != len(value) or len(value) != players:
        raise InvalidAction(f"Choose {players} different cookies, one set per player.")
    return tuple(value)


def _cookie_id(said: str) -> str:
    """The id of the cookie ``said`` names (see :func:`parse_cookies`)."""
    def plain(text: str) -> str:
        return " ".join(text.replace("-", " ").lower().removesuffix(" cookie").split())

    for cookie, name in COOKIES.items():
        if plain(said) in (plain(cookie), plain(name)):
            return cookie
    raise InvalidAction(f"There is no cookie {said!r}; the cookies are "
                        f"{', '.join(COOKIES.values())}.")


def parse_roll(data: Mapping[str, Any], at: float) -> Roll:
    """A roll dict with both faces (``number`` 1-3 as integer or text, "all", "milk").

    :raises InvalidAction: a face missing (half a roll) or not on its die.
    """
    action, number = data.get("action"), data.get("number")
    if (action is None) != (number is None):
        die = "action" if action is None else "number"
        raise InvalidAction(f"Enter both dice: the {die} die is missing (leave both out "
                            f"for a virtual roll).")
    if action not in ACTION_FACES:
        said = "nothing ('action' is empty)" if action is None else repr(action)
        raise InvalidAction(f"The action die shows {', '.join(ACTION_FACES)}, not {said}.")
    if isinstance(number, int) and not isinstance(number, bool):
        number = str(number)
    if number not in NUMBER_FACES:
        said = "nothing ('number' is empty)" if number is None else repr(number)
        raise InvalidAction(f"The number die shows 1, 2, 3, all or milk, not {said}.")
    virtual = data.get("virtual", False)
    if not isinstance(virtual, bool):
        raise InvalidAction("'virtual' must be true or false.")
    return Roll(action, number, at, virtual)


def parse_claim(data: Mapping[str, Any], cards: Mapping[str, str]) -> Claim:
    """A Snickerdoodle claim: the player (a name or seat), and optionally the hand."""
    player = get_player(data, "player")
    hand = data.get("hand")
    if hand is None:
        return Claim(player)
    if not isinstance(hand, list) or not all(isinstance(c, str) for c in hand):
        raise InvalidAction("'hand' must list card ids.")
    for card in hand:
        if card not in cards:
            raise InvalidAction(f"There is no card {card!r} in Toss Your Cookies.")
    return Claim(player, tuple(hand))


def check_deck(hand: tuple[str, ...], cookies: tuple[str, ...], players: int) -> Counter[str]:
    """The hand's card counts, once every card is one this game's deck has enough of.

    A hand is never more than 7 cards: 7 are dealt, and every roll keeps it at 7 (swaps
    and passes give as many as they take, a toss ends with everyone back at 7, a milk
    move trades the milk for a card drawn). Fewer may be shown: the cards that win are
    enough (the camera may not see a card that does not matter).

    :raises IllegalAction: more than 7 cards, a card not in this game's deck, or more
        copies than it has.
    """
    if len(hand) > HAND:
        raise IllegalAction(f"A hand holds {HAND} cards, not {len(hand)}.")
    counts = Counter(hand)
    limits = {**{c: SET_SIZE for c in cookies}, "wild": WILD[players],
              "half-eaten": HALF_EATEN[players], "milk": 1}
    for card, count in counts.items():
        if card not in limits:
            raise IllegalAction(f"The {COOKIES[card]} cards are not in this game.")
        if count > limits[card]:
            name = COOKIES.get(card, card.replace("-", " "))
            raise IllegalAction(f"This game has {limits[card]} {name} card"
                                f"{'s' if limits[card] > 1 else ''}, not {count}.")
    return counts


def winning_cookie(hand: tuple[str, ...], cookies: tuple[str, ...], players: int) -> str:
    """The cookie a hand wins with: five of it (wilds standing in) plus the milk.

    :raises IllegalAction: a card not in this game's deck, too many copies, no milk,
        or fewer than five of every cookie.
    """
    counts = check_deck(hand, cookies, players)
    if not counts["milk"]:
        raise IllegalAction("No milk in that hand: Snickerdoodle needs five of one cookie "
                            "and the milk.")
    best = max(cookies, key=lambda c: counts[c])  # first of the most-held cookies
    if counts[best] + counts["wild"] < 5:
        raise IllegalAction(f"That hand has at most {counts[best] + counts['wild']} of one "
                            f"cookie, wilds counted; Snickerdoodle needs five and the milk.")
    return best


#: The timed phases a ``skip`` may name.
SKIP_PHASES = ("countdown", "scramble")


def parse_skip_phase(data: Mapping[str, Any]) -> str | None:
    """The phase a ``skip`` ends (``countdown`` or ``scramble``), or None: whichever is on.

    :raises InvalidAction: another value.
    """
    phase = data.get("phase")
    if phase is not None and phase not in SKIP_PHASES:
        raise InvalidAction("'phase' must be \"countdown\" or \"scramble\".")
    return phase  # type: ignore[return-value]


def check_timer(timer: timers.Timer | None, phase: str, action: TimerAction) -> None:
    """Raise NotNow if a timer action does not fit the countdown or scramble now."""
    kind = action.kind
    if phase == "roll":
        raise NotNow("No Toss is on; roll the dice (or press Toss).")
    if kind == "skip":
        if action.phase not in (None, phase):  # a tap on a page that had not seen the change
            if SKIP_PHASES.index(action.phase) > SKIP_PHASES.index(phase):
                raise NotNow(f"The {action.phase} has not started yet: the {phase} is on.")
            raise NotNow(f"The {action.phase} is already over: the {phase} is on.")
        return
    if timer is None:
        raise NotNow(f"The {phase} has no timer; skip ends it.")
    if not timer.running and timer.left <= 0 and kind in ("pause", "start"):
        raise NotNow(f"Time is up for the {phase}; add time or skip it.")
    if kind == "timeout":
        if timer.deadline is None:
            raise NotNow(f"The {phase} timer is paused.")
        if action.at < timer.deadline:
            raise NotNow(f"The {phase} still has {timer.deadline - action.at:.1f} seconds.")
    elif kind == "pause" and not timer.running:
        raise NotNow(f"The {phase} timer is already paused.")
    elif kind == "start" and timer.running:
        raise NotNow(f"The {phase} timer is already running.")
    elif kind == "add_time" and not timer.running and timer.left > 0:
        raise NotNow(f"Resume the {phase} timer before adding time.")


def countdown_calls(deadline: float) -> list[dict[str, Any]]:
    """"One, two, three, Toss!" one second apart, "Toss!" at ``deadline`` (epoch s)."""
    return [{"say": say, "at": deadline - 3 + i} for i, say in enumerate(CALLS)]


def _cards(number: str) -> str:
    """"1 card", "2 cards": how many cards a number face asks for (not "all")."""
    return f"{number} card" if number == "1" else f"{number} cards"


def roll_text(roll: Roll, roller: str) -> str:
    """What the table does for this roll, as a sentence (the milk rules included).

    ``roll.number`` None is the Toss button (no dice entered): each player picks as many
    cards as the number die shows. "All" is the whole hand (always 7 cards in this game).
    """
    way = "left" if roll.action == "pass-left" else "right"
    number = roll.number
    if number == "milk":
        if roll.action == "toss":
            return ("Milk toss: on Toss! whoever holds the milk tosses it in the middle; "
                    "everyone else grabs for it, and the grabber lets the tosser draw one "
                    "card blind. The tosser may not grab it.")
        if roll.action == "swap":
            return (f"Milk swap: whoever holds the milk gives it to {roller}, who first lets "
                    f"them draw one card blind (nothing happens if {roller} holds it).")
        return (f"Milk pass {way}: whoever holds the milk passes it {way}; the receiver "
                f"first lets them draw one card blind.")
    call = "on \"One, two, three, Toss!\""
    if roll.action == "toss":
        if number is None:
            return (f"Toss: everyone picks as many cards as the number die shows; {call} "
                    f"toss them face up in the middle and grab as many back.")
        if number == "all":
            return (f"Toss all: {call} everyone tosses their whole hand face up in the "
                    f"middle and grabs as many cards back.")
        them = "it" if number == "1" else "them"
        back = "one" if number == "1" else "as many"
        return (f"Toss {number}: everyone picks {_cards(number)}; {call} toss {them} face "
                f"up in the middle and grab {back} back.")
    if roll.action == "swap":
        if number == "all":
            return f"Swap all: {roller} swaps whole hands with any one player."
        return (f"Swap {number}: {roller} gives {_cards(number)} to any one player and takes "
                f"as many blind from them.")
    if number == "all":
        return f"Pass {way} all: everyone passes their whole hand face down to the {way}."
    return (f"Pass {way} {number}: everyone passes {_cards(number)} face down to the "
            f"{way}.")


def setup(cookies: tuple[str, ...], players: int, cards: Mapping[str, str]) -> dict[str, Any]:
    """The setup helper: which sets, how many wild and half-eaten cards, 7 cards each."""
    return {"cookies": [{"id": c, "name": cards[c]} for c in cookies],
            "sets": players, "per_set": SET_SIZE, "wild": WILD[players],
            "half_eaten": HALF_EATEN[players], "milk": 1,
            "cards": SET_SIZE * players + WILD[players] + HALF_EATEN[players] + 1,
            "deal": HAND}
