"""Paper Toss's table as a value: the State, a toss in progress and its Hazards.

The rules that move it are in :mod:`companion.games.paper_toss`.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class HazardPlay:
    """A Hazard played against a toss, and the Counter that cancelled it (if any)."""

    player: int
    card: str
    counter: str | None = None


@dataclass(frozen=True)
class Toss:
    """A toss in progress (or the last one resolved).

    ``stage``: ``hazards`` (Hazards may be played; one may be waiting for an answer),
    ``flip`` (two Toss cards are due), ``pick`` (two flipped, the chooser picks),
    ``sprinklers`` (Sprinklers applied; the discard is asked), ``done``.
    """

    tosser: int
    hazards: tuple[HazardPlay, ...] = ()
    stage: str = "hazards"
    chooser: int | None = None
    energy_drink: bool = False
    flipped: tuple[str, ...] = ()
    result: str | None = None  # the Toss card the tosser applied
    gained: int = 0  # change in the tosser's tokens

    @property
    def waiting(self) -> HazardPlay | None:
        """The Hazard waiting for the tosser's answer, if any."""
        if self.stage == "hazards" and self.hazards and self.hazards[-1].counter is None:
            return self.hazards[-1]
        return None

    @property
    def cards_due(self) -> int:
        """How many Toss cards the next flip turns over (2 once there is a chooser)."""
        return 2 if self.chooser is not None or self.waiting is not None else 1


@dataclass(frozen=True)
class State:
    """The whole table; ``tokens`` and ``skips`` follow seat order."""

    players: tuple[str, ...]
    tokens: tuple[int, ...]
    skips: tuple[int, ...]  # turns each player will skip
    target: int = 10
    current: int = 0
    toss: Toss | None = None
    last_toss: Toss | None = None
    over: bool = False
    turn_number: int = 1
    history: tuple[tuple[int, ...], ...] = ()  # tokens after each completed turn
    left: tuple[int, ...] = ()  # seats of the players who left the table, in order
