"""A fast first reading: the cleanly outlined cards named, the rest of the table shown bare.

Most of a cold read's time goes to what a plain table of a few whole cards does not need:
the keypoint search (for cards whose edges melt into the table), the naming of dozens of
outline hypotheses that are no card, the completion of corners cut short and the second
looks at cards partly hidden. The fast path reads such a table with the outline search
and the first coarse ranking the full read makes anyway (``cards_find``, ``cards_batch``),
then:

1. picks the *clean* outlines: within ``FastParams.clean_distance`` of a face by the
   coarse ranking, whole in the frame, one per place, none lying on another;
2. clears them (grown by ``grow``) from the work frame's Canny map and goes on only when
   the table left shows no edges: no tile holds more than ``max_edges`` edge pixels (no
   print, no card's side, no pattern: a textured table, a card back, a hand, a card of
   another game or a card partly under another all show edges, and the frame is read
   in full);
3. names the clean outlines with the full naming step (snapped, aligned, the look-alike
   duel and the print test: ``cards_stages.name_stages``), and gives up when any is
   refused or left unsure, or its snapped outline leaves edges uncleared.

A margin on the coarse ranking alone cannot name a card of a deck of look-alikes (the
project's: a card's coarse best lies a median 0.005 from the next face on the bench), so
the margin is the naming's own. A bare table with no outline near a face reads empty.

:func:`fast_first` gives no reading when the frame is not such a table; ``cards.read_cards``
then reads it in full, reusing the outline search and the first ranking.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import cv2
import numpy as np

from vision.cards_beyond import beyond_frame, leaves_frame
from vision.cards_keys import (FrameKeys, KeyParams, find_keypoint_quads, frame_keys,
                               work_gray)
from vision.cards_margin import drop_patterned
from vision.cards_part import WorkView, view_quads, work_view
from vision.cards_stages import (CardParams, coarse_all, edges_at, halve, iou_quads,
                                 name_stages, snap_stages)
from vision.cards_unnamed import recalling, unnamed_tiles
from vision.deck import Deck
from vision.results import CardReading


@dataclass(frozen=True)
class FastParams:
    """Tunables of the fast path (:func:`fast_first`).

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
    busy_keys : bool
        When the frame is read in full, search keypoints only on the busy tiles
        (:func:`busy_keypoint_quads`), not on the bare table or the clean cards the
        naming names (a clean outline it leaves unnamed is searched: ``cards_unnamed``).
        On by default since session 14: the same ids and unsure cards on the bench's 30
        frames and the four recorded suites, ~7% less CPU a cold frame (the keypoints
        of a bare cloth or of a card already named place no card).
    busy_most : float
        ... but the whole frame when the busy tiles, with a tile around each, cover more
        than this share of it (a textured table: little to save, and the keypoint budget
        is shared out differently by parts).
    """

    clean_distance: float = 0.45
    max_edges: int = 6
    tile: int = 32
    grow: float = 1.06
    overlap: float = 0.02
    busy_keys: bool = True
    busy_most: float = 0.5


def _bare_reading(frame: np.ndarray, deck: Deck, first: list, clean: list, *,
                  view: WorkView, params: CardParams, fast: FastParams,
                  halved: np.ndarray | None, fine: Callable | None = None
                  ) -> CardReading | None:
    """The reading of a table bare beyond the ``clean`` outlines (rankings of ``first``,
    the first ranking of every outline found), or None to read the frame in full."""
    if _overlapping(clean, fast.overlap):
        return None  # a card lies partly on another: the full read's second looks
    if not clean:  # a bare table: empty unless an outline comes near a face
        near = any(c[0].min() <= params.match.max_distance for c in first)
        return None if near else CardReading(cards=(), unsure=())
    edges = edges_at(frame, params.find.work_side, halved)
    stages = snap_stages(frame, clean, deck, params, halved=halved, edges=edges)
    named = name_stages(frame, stages, deck, params, fine=fine)
    if len(named) < len(stages) or any(s.card_id is None for s, _ in named):
        return None  # a clean outline refused or left unsure: the full read decides
    if len(drop_patterned(frame, [s for s, _ in named], deck)) < len(named):
        return None  # a cloth's pattern through a name's rim: the full read decides
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
    return not busy_tiles(view, tops, fast).any()


def busy_tiles(view: WorkView, tops: list[np.ndarray], fast: FastParams = FastParams()
               ) -> np.ndarray:
    """Per ``fast.tile`` x ``fast.tile`` tile of the work frame (rows, cols; bool), whether
    its Canny edges outside the ``tops`` outlines (grown by ``fast.grow``) number more
    than ``fast.max_edges``: where something other than those cards and the bare table
    lies."""
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
    return padded.reshape((h + ph) // t, t, (w + pw) // t, t).sum(axis=(1, 3)) > fast.max_edges


def busy_keypoint_quads(frame: np.ndarray, deck: Deck, busy: np.ndarray, *,
                        params: KeyParams = KeyParams(), tile: int = 32
                        ) -> list[tuple[np.ndarray, str]]:
    """``cards_keys.find_keypoint_quads`` with SIFT run only on the ``busy`` tiles of its
    work frame (and a tile around them): the bare table and the clean cards hold no card
    that only keypoints find. The whole frame is searched when the tiles do not fit it."""
    gray, scale = work_gray(frame, params)
    if busy.shape != (-(-gray.shape[0] // tile), -(-gray.shape[1] // tile)):
        return find_keypoint_quads(frame, deck.faces, deck.bank, params=params)
    none = FrameKeys(np.zeros((0, 2), np.float32), np.zeros((0, 128), np.float32),
                     np.zeros(0, np.float32), scale, np.zeros((0, 3)))
    keys = frame_keys(gray, scale, params, reuse=none, changed=busy, tile=tile)
    return find_keypoint_quads(frame, deck.faces, deck.bank, params=params, keys=keys)


def fast_first(frame: np.ndarray, deck: Deck, params: CardParams
               ) -> tuple[CardReading | None, dict]:
    """The fast path (``params.fast``) on ``frame``: its reading, or None and what the full
    read (``cards.read_keyed``) reuses of it as keywords: the outline search's ``view``,
    its outlines (``quads``) and a ``coarse`` ranking that recalls theirs; and, with
    ``FastParams.busy_keys``, the ``busy`` tiles (:func:`busy_tiles` beyond the clean
    outlines) where the keypoint search is to look (:func:`busy_keypoint_quads`)."""
    fast = params.fast or FastParams()
    view = work_view(frame, params.find)
    quads = view_quads(view, deck.aspect, params=params.find)
    whole = quads + beyond_frame(quads, frame.shape, deck.aspect)
    halved = halve(frame)
    first = coarse_all(frame, whole, deck, halved=halved)
    clean = _clean(first, frame.shape, fast)
    busy = busy_tiles(view, [c[1] for c in clean], fast)
    fine = recalling()  # the clean outlines named here are not named again in full
    reading = None if busy.any() else _bare_reading(frame, deck, first, clean, view=view,
                                                    params=params, fast=fast, halved=halved,
                                                    fine=fine)
    if reading is None and fast.busy_keys:  # a clean card left unnamed: its keypoints too
        busy = busy | unnamed_tiles(frame, deck, clean, view, params=params, grow=fast.grow,
                                    tile=fast.tile, fine=fine, halved=halved)

    def coarse(frame: np.ndarray, qs: list[np.ndarray], deck: Deck, *,
               halved: np.ndarray | None = None) -> list:
        k = len(whole)
        if len(qs) < k or not all(np.array_equal(a, b) for a, b in zip(qs, whole)):
            return coarse_all(frame, qs, deck, halved=halved)
        return first + coarse_all(frame, qs[k:], deck, halved=halved)

    reuse = {"view": view, "quads": quads, "coarse": coarse, "fine": fine}
    grown = cv2.dilate(busy.astype(np.uint8), np.ones((3, 3), np.uint8))  # as frame_keys searches
    if fast.busy_keys and grown.mean() <= fast.busy_most:
        reuse["busy"] = busy
    return reading, reuse
