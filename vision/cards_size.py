"""A second look at card corners, completed at the size of the cards already named.

A corner seen with both of its sides cut short (the far end of a side under another
card, or lost where a white card lies on a white card or on a pale square of a checked
cloth) is completed by the outline search from what it sees, or from one seen side and
the deck's aspect: too small, by more than snapping can mend. The cards of one deck are
all one size, and the cards named in the frame show that size as the camera sees it
(the nearest named card: perspective shrinks the far ones). Each outline that ranks near
a face and is not a named card's is completed again from its first corner (the corner
the search saw) at that size, both ways round, and the new outlines go through the usual
stages: ranked, snapped, named with the usual gates and duels, on the whole card.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from vision.cards_aspect import card_size  # (imported by callers from here too)
from vision.cards_find import dedupe_quads
from vision.cards_stages import (CardParams, Evidence, coarse_all, iou_quads, name_stages,
                                 snap_stages, suppress)
from vision.deck import Deck
from vision.results import CardSighting

SIZE_COARSE = 0.8  # coarse distance of an outline worth completing again (near a face)
SIZE_SAME = 0.08  # sides within this share of the named size: the outline is that size
SIZE_APART = 0.3  # IoU with a named card above which an outline is that card's
SIZE_GAP = 0.01  # completions closer than this (of the frame's long side) are one
SIZE_NAMED = 8  # most completed outlines snapped and named per frame, the closest first


def sized_quads(quads: list[np.ndarray], coarse: list[float], named: list[np.ndarray],
                gap: float) -> list[np.ndarray]:
    """Outlines completed from each outline's first corner at the nearest named card's
    size, both ways round.

    Parameters
    ----------
    quads : list of ndarray of shape (4, 2)
        Outline hypotheses (x, y), each from the corner the search saw (``cards_find``).
    coarse : list of float
        Each outline's closest coarse distance to a face.
    named : list of ndarray of shape (4, 2)
        Outlines of the cards named so far.
    gap : float
        Completions whose corners all lie within this many pixels are one.

    Returns
    -------
    list of ndarray of shape (4, 2), float32
        New outlines, none a named card's nor the size of the outline it came from.
    """
    if not named:
        return []
    sizes = [card_size(t) for t in named]
    centres = np.array([t.mean(axis=0) for t in named])
    out = []
    for quad, dist in zip(quads, coarse):
        if dist > SIZE_COARSE or any(iou_quads(quad, t) > SIZE_APART for t in named):
            continue
        corner = quad[0].astype(np.float32)
        a, b = quad[1] - corner, quad[3] - corner
        la, lb = float(np.hypot(*a)), float(np.hypot(*b))
        if min(la, lb) < 1:
            continue
        short, long_ = sizes[int(np.argmin(np.hypot(*(centres - corner).T)))]
        for sa, sb in ((short, long_), (long_, short)):
            if abs(sa / la - 1) < SIZE_SAME and abs(sb / lb - 1) < SIZE_SAME:
                continue  # the outline is that size already
            ua, ub = a / la * sa, b / lb * sb
            out.append(np.array([corner, corner + ua, corner + ua + ub, corner + ub],
                                np.float32))
    return [q for q in dedupe_quads(out, gap)
            if all(iou_quads(q, t) <= 2 * SIZE_APART for t in named)]


def sized_pass(frame: np.ndarray, quads: list[np.ndarray], coarse: list[float],
               found: list[tuple[CardSighting, Evidence]], deck: Deck, params: CardParams,
               *, halved: np.ndarray | None,
               edges: tuple[np.ndarray, np.ndarray, float] | None
               ) -> list[tuple[CardSighting, Evidence]]:
    """Name the cards whose outlines :func:`sized_quads` completes at the named cards'
    size; only cards named outright, none where a card is named or left unsure already.

    ``halved`` and ``edges``: the frame halved (``cards_stages.halve``) and its edge
    gradients (``cards_stages.edges_at``; None when there was nothing to snap, and then
    no card is named either).
    """
    named = [np.array(s.corners, np.float32) for s, _ in found if s.card_id is not None]
    if not named or edges is None:
        return []
    # a place already judged, named or left unsure (a look-alike too close to call), is
    # not judged again from a completion
    judged = [np.array(s.corners, np.float32) for s, _ in found]
    more = [q for q in sized_quads(quads, coarse, named, SIZE_GAP * max(frame.shape[:2]))
            if all(iou_quads(q, t) <= 2 * SIZE_APART for t in judged)]
    stages = [c for c in coarse_all(frame, more, deck, halved=halved)
              if c[0].min() <= params.match.max_distance]
    if not stages:
        return []
    # the closest few only: a checked cloth offers many card-sized squares
    stages = snap_stages(frame, stages, deck,
                         replace(params, snap_best=min(params.snap_best, SIZE_NAMED)),
                         halved=halved, edges=edges)
    new = suppress(name_stages(frame, stages, deck, params), params.same_card_iou)
    return [f for f in new if f[0].card_id is not None and all(
        iou_quads(np.array(f[0].corners, np.float32), t) <= SIZE_APART for t in judged)]

