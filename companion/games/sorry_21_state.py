"""Sorry! Revenge's table as a value: the State, what waits for an answer, a round's end.

The rules that move it are in :mod:`companion.games.sorry_21`.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.games.sorry_21_cards import PAWNS


@dataclass(frozen=True)
class Pending:
    """What waits for an answer: a ``claim`` (``by`` made 21), or a SORRY! (``take-back``
    or ``steal``) played by ``by`` on ``target``."""

    kind: str
    by: int
    target: int | None = None


@dataclass(frozen=True)
class RoundEnd:
    """How round ``number`` ended: ``how`` is ``21``, ``steal`` or ``bust``; ``player``
    made the 21 or busted; ``flipped`` lists the seats that earned a pawn flip."""

    number: int
    how: str
    player: int
    flipped: tuple[int, ...]
    total: int


@dataclass(frozen=True)
class State:
    """The whole table; ``progress`` follows seat order, ``current`` is a seat index."""

    players: tuple[str, ...]
    progress: tuple[int, ...]
    longer: bool = False
    current: int = 0
    direction: int = 1  # +1: seat order (clockwise); -1 after a Switch
    pile: tuple[str, ...] = ()  # this round's play pile, bottom first
    total: int = 0
    play2_left: int = 0  # number cards still owed after a Play 2
    round_number: int = 1
    pending: Pending | None = None
    tied: tuple[int, ...] = ()  # seats playing the tiebreaker
    tiebreak: tuple[tuple[int, int], ...] = ()  # (seat, pile total) reported this tiebreaker
    #: the earlier tiebreaker rounds' reports (tied again), kept so the table sees who went out
    tiebreak_rounds: tuple[tuple[tuple[int, int], ...], ...] = ()
    champion: int | None = None  # the tiebreaker's winner
    over: bool = False
    last_round: RoundEnd | None = None
    history: tuple[tuple[int, ...], ...] = ()  # progress after each round
    left: tuple[int, ...] = ()  # seats of the players who left the table, in order

    @property
    def goal(self) -> int:
        """Pawn flips a player needs to win: 4, or 8 in the longer game (home, then START)."""
        return 2 * PAWNS if self.longer else PAWNS
