"""A fast first reading: the cleanly outlined cards named, the rest of the table shown bare.

Most of a cold read's time goes to what a plain table of a few whole cards does not need:
the keypoint search (for cards whose edges melt into the table), the naming of dozens of
outline hypotheses that are no card, the completion of corners cut short and the second
looks at cards partly hidden. The fast path reads such a table with the outline search
and the first coarse ranking the full read makes anyway (``cards_find``, ``cards_batch``),
then:

1. picks the *clean* outlines: within ``FastParams.clean_distance`` of a face by the
   coarse ranking, every face that is no look-alike of it (``cards_name``'s kin) at least
   ``min_gap`` farther, whole in the frame; one per place;
2. names them with the full naming step (snapped, aligned, the look-alike duel:
   ``cards_stages.name_stages``), and gives up when any is left unsure or refused;
3. accepts the reading only when nothing else on the table could be a card: every outline
   within the naming gate lies mostly under the cards named (more than the second looks
   could name, ``CardParams.hidden_seen``), and the table left bare shows no edges
   (no tile of the work frame's Canny map, outside the named cards grown by
   ``grow``, holds more than ``max_edges`` edge pixels): no print, no card's side, no
   pattern. A textured table, a card back, a hand or a card of another game all show
   edges, and the frame is read in full.

:func:`fast_reading` returns None when the frame is not such a table; ``cards.read_cards``
then reads it in full, reusing the outline search and the first ranking.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.cards_beyond import beyond_frame, leaves_frame
from vision.cards_part import WorkView, view_quads, work_view
from vision.cards_stages import (CardParams, coarse_all, edges_at, halve, iou_quads,
                                 name_stages, snap_stages)
from vision.deck import Deck
from vision.results import CardReading


@dataclass(frozen=True)
class FastParams:
    """Tunables of :func:`fast_reading`.

    Attributes
    ----------
    clean_distance : float
        Coarse distance (1 - correlation) at or below which an outline may be named on
        the fast path.
    max_edges : int
        Most Canny edge pixels a tile of the bare table may hold (a card's straight side
        across a tile gives about the tile's side).
    tile : int
        Side of a tile, work pixels (``FindParams.work_side`` frame).
    grow : float
        A named card's outline is grown by this factor about its centre before it clears
        the table (its own edge and shadow).
    overlap : float
        Most share of a clean card's area that may lie under another clean card's (more:
        a card lies partly under another, for the full read's second looks).
    """

    clean_distance: float = 0.45
    max_edges: int = 6
    tile: int = 32
    grow: float = 1.06
    overlap: float = 0.02


def fast_reading(frame: np.ndarray, deck: Deck, view: WorkView, quads: list[np.ndarray],
                 first: list, *, params: CardParams, fast: FastParams = FastParams(),
                 halved: np.ndarray | None = None) -> CardReading | None:
    """The reading of a bare table of clean cards, or None to read the frame in full.

    Parameters
    ----------
    frame : ndarray of shape (H, W, 3), uint8, BGR
    view : WorkView
        The outline search's view of ``frame`` (``cards_part.work_view``).
    quads : list of ndarray of shape (4, 2), float32
        The outlines found (``cards_part.view_quads``, with ``cards_beyond.beyond_frame``'s).
    first : list
        Their first ranking, ``cards_stages.coarse_all(frame, quads, deck)``.
    """
    clean = _clean(first, frame.shape, fast)
    if not is_bare(view, [c[1] for c in clean], fast) or _overlapping(clean, fast.overlap):
        return None  # something else lies on the table, or a card lies on another
    if not clean:  # a bare table: empty unless an outline comes near a face
        near = any(c[0].min() <= params.match.max_distance for c in first)
        return None if near else CardReading(cards=(), unsure=())
    edges = edges_at(frame, params.find.work_side, halved)
    stages = snap_stages(frame, clean, deck, params, halved=halved, edges=edges)
    named = name_stages(frame, stages, deck, params)
    if len(named) < len(stages) or any(s.card_id is None for s, _ in named):
        return None  # a clean outline refused or left unsure: the full read decides
    if not is_bare(view, [np.array(s.corners, np.float32) for s, _ in named], fast):
        return None  # the snapped outlines leave some of a card uncleared
    return CardReading(cards=tuple(s for s, _ in named), unsure=())


def _clean(first: list, shape: tuple[int, ...], fast: FastParams) -> list:
    """The clean outlines' rankings: within ``fast.clean_distance`` of a face, whole in
    the frame, closest first, one per place (IoU over 0.5 is the same card)."""
    picked: list = []
    for c in sorted(first, key=lambda c: float(c[0].min())):
        if c[0].min() > fast.clean_distance:
            break
        if not leaves_frame(c[1], shape) and not any(iou_quads(c[1], p[1]) > 0.5
                                                      for p in picked):
            picked.append(c)
    return picked


def _overlapping(clean: list, most: float) -> bool:
    """Whether any two clean outlines overlap by more than ``most`` of the smaller one."""
    quads = [c[1].astype(np.float32) for c in clean]
    for i, a in enumerate(quads):
        for b in quads[i + 1:]:
            inter = cv2.intersectConvexConvex(a, b)[0]
            if inter > most * min(cv2.contourArea(a), cv2.contourArea(b)):
                return True
    return False


def is_bare(view: WorkView, tops: list[np.ndarray], fast: FastParams = FastParams()) -> bool:
    """Whether the work frame's Canny edges, outside the ``tops`` outlines (frame pixels,
    grown by ``fast.grow``), hold at most ``fast.max_edges`` pixels in every tile."""
    canny = view.maps[3]
    clear = np.full(canny.shape, 255, np.uint8)
    for q in tops:
        centre = q.mean(axis=0)
        grown = (centre + (q - centre) * fast.grow) * view.scale
        cv2.fillConvexPoly(clear, np.round(grown).astype(np.int32), 0)
    left = cv2.bitwise_and(canny, clear) > 0
    h, w = left.shape
    t = fast.tile
    ph, pw = -h % t, -w % t
    padded = np.pad(left, ((0, ph), (0, pw)))
    counts = padded.reshape((h + ph) // t, t, (w + pw) // t, t).sum(axis=(1, 3))
    return int(counts.max()) <= fast.max_edges


def fast_first(frame: np.ndarray, deck: Deck, params: CardParams
               ) -> tuple[CardReading | None, dict]:
    """The fast path (``params.fast``) on ``frame``: its reading, or None and what the full
    read (``cards.read_keyed``) reuses of it as keywords: the outline search's ``view``,
    its outlines (``quads``) and a ``coarse`` ranking that recalls theirs."""
    view = work_view(frame, params.find)
    quads = view_quads(view, deck.aspect, params=params.find)
    whole = quads + beyond_frame(quads, frame.shape, deck.aspect)
    halved = halve(frame)
    first = coarse_all(frame, whole, deck, halved=halved)
    reading = fast_reading(frame, deck, view, whole, first, params=params, fast=params.fast,
                           halved=halved)

    def coarse(frame: np.ndarray, qs: list[np.ndarray], deck: Deck, *,
               halved: np.ndarray | None = None) -> list:
        k = len(whole)
        if len(qs) < k or not all(np.array_equal(a, b) for a, b in zip(qs, whole)):
            return coarse_all(frame, qs, deck, halved=halved)
        return first + coarse_all(frame, qs[k:], deck, halved=halved)

    return reading, {"view": view, "quads": quads, "coarse": coarse}
