"""A card named inside another card's outline is that card's print, not a card.

Every card of a deck has the same size and lies flat on the one table, so no whole card's
outline fits inside another's: a card lying on another shows its whole outline, part of
it beyond the card below (two outlines much alike are one card, ``cards_stages.suppress``),
and a card under another is seen only beyond it. An outline that lies mostly within the
outline of a card matched surely, yet is not that card, is a piece of that card's print
(a group of pips on a seven of hearts looks like an ace of hearts a third of its size, at
a distance just inside the gate). Of the two, the closer match is the card; the other is
left unsure, which names nothing. Where the outline inside is the closer match, the outer
one (an outline taking in a card and the table around it) is left unsure instead.
"""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np

from vision.results import CardSighting

__all__ = ["doubt_nested"]

# the share of an outline's area lying inside another card's for it to be nested in it
NEST_WITHIN = 0.8
# ... when its area is at most this share of the other's: smaller than a whole card (two
# outlines of one size nested that deeply are one place, a card stacked on another)
NEST_SMALLER = 0.7


def doubt_nested(sightings: list[CardSighting], sure_distance: float) -> list[CardSighting]:
    """``sightings`` with each named card that is nested with a surer card left unsure.

    Parameters
    ----------
    sightings : list of CardSighting
        One frame's sightings, named and unsure (``corners`` (x, y) in frame pixels).
    sure_distance : float
        ``MatchParams.sure_distance``: only a card matched at least this closely (named
        or unsure) vouches that its outline is a card's.

    Returns
    -------
    list of CardSighting
        The same sightings in the same order; a named one nested with a closer, sure
        match has ``card_id`` None (its best guess kept, confidence at most 0.49).
    """
    quads = [np.array(s.corners, np.float32) for s in sightings]
    areas = [abs(float(cv2.contourArea(q))) for q in quads]
    out = list(sightings)
    for i, s in enumerate(sightings):
        if s.card_id is None:
            continue
        for j, t in enumerate(sightings):
            if j == i or t.distance > sure_distance or t.distance >= s.distance:
                continue
            small, large = sorted((areas[i], areas[j]))
            if not 0 < small <= NEST_SMALLER * large or t.best_guess == s.card_id:
                continue
            inter, _ = cv2.intersectConvexConvex(quads[i], quads[j])
            if inter >= NEST_WITHIN * small:
                out[i] = replace(s, card_id=None, confidence=min(s.confidence, 0.49))
                break
    return out
