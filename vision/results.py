"""Typed readings the recognizers return: frozen dataclasses, free of cv2 and numpy.

The session and the web layer import this module without pulling in OpenCV. Points are
image (x, y) pixels of the frame that was read, not (row, col).
"""

from __future__ import annotations

from dataclasses import dataclass

DICE_COLOURS = ("green", "yellow", "red", "other")


@dataclass(frozen=True)
class Die:
    """One die found in a frame.

    Attributes
    ----------
    outline : tuple of (x, y) points, the die's outline in frame pixels (clockwise)
    centre : (x, y) of the top face's centre in frame pixels
    colour : "green", "yellow", "red" or "other" (another game's die)
    confidence : 0..1, how sure the colour call is
    """

    outline: tuple[tuple[float, float], ...]
    centre: tuple[float, float]
    colour: str
    confidence: float


@dataclass(frozen=True)
class DiceReading:
    """The dice in one frame: totals per top-face colour and the dice themselves."""

    green: int = 0
    yellow: int = 0
    red: int = 0
    other: int = 0
    dice: tuple[Die, ...] = ()

    @property
    def count(self) -> int:
        """Number of dice found, of any colour."""
        return self.green + self.yellow + self.red + self.other

    @property
    def confidence(self) -> float:
        """The least confident die's confidence (1.0 when there are no dice)."""
        return min((d.confidence for d in self.dice), default=1.0)

    def counts(self) -> tuple[int, int, int, int]:
        """(green, yellow, red, other): what the settling vote compares frame to frame."""
        return (self.green, self.yellow, self.red, self.other)

    def to_dict(self) -> dict:
        """The totals as a JSON-ready dict, as ``companion detect dice --json`` prints them."""
        return {"green": self.green, "yellow": self.yellow, "red": self.red, "other": self.other}

    @classmethod
    def from_dice(cls, dice: tuple[Die, ...] | list[Die]) -> "DiceReading":
        """Build a reading whose totals are counted from ``dice``."""
        dice = tuple(dice)
        tally = {c: sum(1 for d in dice if d.colour == c) for c in DICE_COLOURS}
        return cls(dice=dice, **tally)


# --- Card readings (owned by the card-vision engineer; restored here after an accidental
# overwrite: the fields follow vision/cards.py's use of them) ---


@dataclass(frozen=True)
class CardSighting:
    """One card face outline seen in a frame and what it was matched to.

    Attributes
    ----------
    card_id : the deck id, or None when it could not be told from a look-alike
    best_guess : the closest deck id even when unsure
    confidence : 0..1
    runner_up : the next closest id, or None
    distance : match distance to ``best_guess`` (smaller is closer)
    corners : four (x, y) frame points of the card's outline
    """

    card_id: str | None
    best_guess: str
    confidence: float
    runner_up: str | None
    distance: float
    corners: tuple[tuple[float, float], ...]


@dataclass(frozen=True)
class CardReading:
    """The named card faces in one frame, and the faces that stayed unsure."""

    cards: tuple[CardSighting, ...] = ()
    unsure: tuple[CardSighting, ...] = ()

    @property
    def ids(self) -> tuple[str, ...]:
        """Ids of the named cards, sorted (an id may appear twice)."""
        return tuple(sorted(s.card_id for s in self.cards if s.card_id is not None))
