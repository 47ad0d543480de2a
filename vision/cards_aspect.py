"""The card's own aspect, measured on the cards a frame shows whole and names surely.

A deck's aspect comes from its reference faces, and a reference may be a crop of the card
(cut at top and bottom, say): corners completed at that aspect then run short or long of
the real card. The cards the reader names surely, with an outline that stays inside the
frame, show the real aspect (each foreshortened a little by perspective, hence a median).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

MIN_CARDS = 2  # sure whole cards needed before their aspect is trusted over the deck's
MIN_SHIFT = 0.05  # relative difference from the deck's aspect worth a second search
CARD_RANGE = (0.6, 0.8)  # width / height of playing and game cards (bridge 0.64, poker 0.714)


def outline_aspect(corners: Sequence[Sequence[float]]) -> float:
    """Short over long side of an outline, each the mean of its two opposite sides."""
    q = np.asarray(corners, dtype=np.float64)
    if q.shape != (4, 2):
        raise ValueError(f"An outline has four (x, y) corners, not an array of shape {q.shape}.")
    short, long_ = card_size(q)
    return short / max(long_, 1e-9)


def card_size(corners: np.ndarray) -> tuple[float, float]:
    """(short, long) side of a card outline (4, 2), opposite sides averaged, pixels."""
    q = np.asarray(corners, np.float64)
    sides = np.hypot(*(np.roll(q, -1, axis=0) - q).T)
    a, b = (sides[0] + sides[2]) / 2, (sides[1] + sides[3]) / 2
    return (float(min(a, b)), float(max(a, b)))


def measured_aspect(outlines: Sequence[Sequence[Sequence[float]]], deck_aspect: float
                    ) -> float | None:
    """The aspect the cards themselves show, when it differs from the deck's; else None.

    Parameters
    ----------
    outlines : the corners of the cards named surely and seen whole in one frame
    deck_aspect : float
        The deck's width / height.

    Returns
    -------
    float or None
        The median aspect of the outlines, when there are at least ``MIN_CARDS`` of them,
        the median lies in ``CARD_RANGE`` and it differs from ``deck_aspect`` by more than
        ``MIN_SHIFT`` of it; None otherwise (the deck's aspect stands).
    """
    if len(outlines) < MIN_CARDS:
        return None
    median = float(np.median([outline_aspect(c) for c in outlines]))
    if not CARD_RANGE[0] <= median <= CARD_RANGE[1]:
        return None
    return median if abs(median / deck_aspect - 1) > MIN_SHIFT else None
