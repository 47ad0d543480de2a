"""The frame where a card lands, read from the change alone.

In the camera loop (``cards_track``) a card that lands changes only its own part of the
table. The reader knows which tiles changed since the frame it read last, and what it
named there. :func:`landed_reading` reads such a frame without the rest of the table:

1. the card outlines are searched only in a box around the changed tiles (on the whole
   frame's thresholds, ``cards_part``), and only those touching a changed tile are kept;
   the change's own outline is one more (``cards_change``: a card that lands is the
   change, however the table around it looks);
2. they are ranked coarsely, snapped and named by the full naming step (alignment, the
   look-alike duel, the print test: ``cards_stages.name_stages``);
3. the change must be *explained* by the new cards named: every tile's grey difference
   from the last frame, outside the new cards' outlines (grown by their edge and shadow),
   is below the reader's stillness threshold (no hand, no card back, no second card, no
   card revealed or nudged); the new cards lie whole in the frame, none on another; and
   each card of the last reading lies either nearly clear of them (a named one less under
   them than the full read's second looks look under, ``CardParams.hidden_cover``: what
   is still seen of it is unchanged, and named by its own outline; one left unsure by
   ``LandParams.clear`` at most, as the full read may settle it) or (nearly) wholly
   under one (then it is gone from view, as the full read would not look under it
   either);
4. the box is searched at the deck's aspect and at the one the last reading's sure cards
   showed (``cards_aspect``), as a full read searches at both.

Otherwise (nothing named there, a card left unsure, a change left over) there is no
reading and the reader reads the frame in full. The cards of the last reading that are
still seen are kept as they were named.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import cv2
import numpy as np

from vision.cards_aspect import measured_aspect
from vision.cards_beyond import leaves_frame
from vision.cards_change import change_quads
from vision.cards_margin import drop_patterned
from vision.cards_part import WorkView, view_quads, work_view
from vision.cards_stages import (CardParams, coarse_all, edges_at, halve, name_stages,
                                 snap_stages, suppress)
from vision.deck import Deck
from vision.results import CardReading, CardSighting


@dataclass(frozen=True)
class LandParams:
    """Tunables of :func:`landed_reading`.

    Attributes
    ----------
    margin : int
        Tiles added on every side of the changed tiles' box searched for outlines.
    most : float
        Largest share of the frame the changed tiles' box may cover (a larger change is
        no card landing: the frame is read in full).
    shadow : float
        A new card's outline is grown by this fraction of its longer side (its edge, its
        shadow, the blur) before its tiles count as explained.
    clear : float
        Most share of a new card's area that may lie under another new card, and of a
        card left unsure by the last reading under a new one while it is kept.
    gone : float
        A card of the last reading under a new one by at least this share of its area is
        gone from view (the full read's second looks do not look under a card covered
        more: ``CardParams.hidden_cover``); a named one under by less than
        ``hidden_cover[0]`` is still seen as it was; in between, the frame is read in full.
    """

    margin: int = 2
    most: float = 0.5
    shadow: float = 0.04
    clear: float = 0.02
    gone: float = 0.88


def landed_reading(frame: np.ndarray, deck: Deck, last: CardReading, diff: np.ndarray,
                   changed: np.ndarray, scale: float, *, still: float, tile: int,
                   params: CardParams, land: LandParams = LandParams(),
                   fine: Callable | None = None) -> tuple[CardReading | None, WorkView | None]:
    """The reading of ``frame`` when the change from the last frame read is cards landing.

    Parameters
    ----------
    frame : ndarray of shape (H, W, 3), uint8, BGR
    last : CardReading
        The reading of the last frame read.
    diff : ndarray of shape (h, w), float32
        Absolute grey difference from the last frame read, on the work frame (``scale``
        work pixels per frame pixel), blurred against sensor noise.
    changed : ndarray of shape (ceil(h / tile), ceil(w / tile)), bool
        Per tile, whether it changed: ``tile_means(diff, tile) >= still``.
    still, tile : float, int
        A ``tile`` x ``tile`` tile whose mean difference is below ``still`` has not changed.
    fine : callable, optional
        Stands in for ``cards_stages.fine_stage`` (as ``name_stages`` takes it).

    Returns
    -------
    reading : CardReading or None
        None when the change is not explained by cards landing (read the frame in full).
    view : WorkView or None
        The outline search's view of the frame, when made (the full read may reuse it).
    """
    if not changed.any():
        return None, None
    box = _box(changed, tile, scale, frame.shape[:2], land)
    if box is None:
        return None, None
    view = work_view(frame, params.find)
    shown = _shown_aspect(last.cards, frame.shape, deck, params)
    drawn = change_quads(diff, changed, scale, still=still, tile=tile, params=params.find)
    quads = [q for q in [q for a in (deck.aspect, shown) if a is not None
                         for q in view_quads(view, a, box, params=params.find)] + drawn
             if (touched_tiles(q, changed.shape, scale, tile) & changed).any()
             and is_inside_box(q, box, frame.shape[:2], tile / scale)]
    if not quads:
        return None, view
    halved = halve(frame)
    first = coarse_all(frame, quads, deck, halved=halved)
    promising = [c for c in first if c[0].min() <= params.match.max_distance]
    if not promising:
        return None, view
    edges = edges_at(frame, params.find.work_side, halved)
    stages = snap_stages(frame, promising, deck, params, halved=halved, edges=edges)
    found = suppress(name_stages(frame, stages, deck, params, fine=fine), params.same_card_iou)
    new = [s for s, _ in found]
    if not new or any(s.card_id is None or leaves_frame(s.corners, frame.shape) for s in new):
        return None, view  # a card left unsure, or cut by the frame: the full read decides
    if len(drop_patterned(frame, new, deck)) < len(new):
        return None, view  # a cloth's pattern through a name's rim: the full read decides
    if any(share_under(a, b) > land.clear for i, a in enumerate(new) for b in new[i + 1:]):
        return None, view  # a card partly on another: the full read's second looks
    kept = []
    for s in last.cards + last.unsure:
        covered = max(share_under(s, n) for n in new)
        seen = params.hidden_cover[0] if s.card_id is not None else land.clear
        if seen <= covered < land.gone:
            return None, view  # a card partly under the new one: the full read looks under
        if covered < seen:
            kept.append(s)  # what is still seen of it is unchanged: named by its own outline
    if not is_explained(diff, new, scale, still=still, tile=tile, shadow=land.shadow):
        return None, view
    every = kept + new
    return CardReading(cards=tuple(s for s in every if s.card_id is not None),
                       unsure=tuple(s for s in every if s.card_id is None)), view


def tile_means(diff: np.ndarray, tile: int) -> np.ndarray:
    """Mean of ``diff`` (h, w) over each ``tile`` x ``tile`` tile (a tile cut by the
    frame's edge over its own pixels): shape (ceil(h / tile), ceil(w / tile))."""
    h, w = diff.shape
    rows, cols = -(-h // tile), -(-w // tile)
    padded = np.zeros((rows * tile, cols * tile), np.float32)
    padded[:h, :w] = diff
    area = np.zeros_like(padded)
    area[:h, :w] = 1
    return (padded.reshape(rows, tile, cols, tile).sum(axis=(1, 3))
            / area.reshape(rows, tile, cols, tile).sum(axis=(1, 3)))


def is_explained(diff: np.ndarray, cards: list[CardSighting], scale: float, *, still: float,
                 tile: int, shadow: float) -> bool:
    """Whether the grey difference ``diff`` (work frame) outside the ``cards``' outlines
    (frame pixels, grown by ``shadow`` of their longer side) leaves every tile still: the
    tile's sum of what is left, over its area, below ``still``."""
    left = diff.copy()
    for s in cards:
        q = np.array(s.corners, np.float32) * scale
        side = float(np.hypot(*(q - np.roll(q, -1, axis=0)).T).max())
        mask = np.zeros(diff.shape, np.uint8)
        cv2.fillConvexPoly(mask, np.round(q).astype(np.int32), 1)
        g = max(1, int(np.ceil(shadow * side)))
        disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * g + 1, 2 * g + 1))
        mask = cv2.dilate(mask, disc)
        left[mask > 0] = 0
    return not (tile_means(left, tile) >= still).any()


def _shown_aspect(cards: tuple[CardSighting, ...], shape: tuple[int, ...], deck: Deck,
                  params: CardParams) -> float | None:
    """The aspect the named ``cards`` show, as ``cards.read_keyed`` measures it on those
    named surely and seen whole; None when the deck's stands."""
    sure = [s.corners for s in cards if s.card_id is not None
            and s.distance <= params.match.sure_distance and not leaves_frame(s.corners, shape)]
    return measured_aspect(sure, deck.aspect)


def _box(changed: np.ndarray, tile: int, scale: float, shape: tuple[int, int],
         land: LandParams) -> tuple[int, int, int, int] | None:
    """The box (x0, y0, x1, y1), frame pixels, around the changed tiles with
    ``land.margin`` tiles on every side; None when it covers more than ``land.most``."""
    rows, cols = np.nonzero(changed)
    m, t = land.margin, tile / scale
    h, w = shape
    x0, y0 = max(0, int((cols.min() - m) * t)), max(0, int((rows.min() - m) * t))
    x1 = min(w, int(np.ceil((cols.max() + 1 + m) * t)))
    y1 = min(h, int(np.ceil((rows.max() + 1 + m) * t)))
    if (x1 - x0) * (y1 - y0) > land.most * h * w:
        return None
    return x0, y0, x1, y1


def touched_tiles(quad: np.ndarray, shape: tuple[int, int], scale: float, tile: int
                  ) -> np.ndarray:
    """The tiles (bool, of ``shape`` (rows, cols)) that the outline (frame pixels) touches:
    it is drawn on a grid four times finer than the tiles, so a tile it only clips counts."""
    rows, cols = shape
    fine = np.zeros((rows * 4, cols * 4), np.uint8)
    cv2.fillConvexPoly(fine, np.round(quad * scale * 4 / tile - 0.5).astype(np.int32), 1)
    return fine.reshape(rows, 4, cols, 4).max(axis=(1, 3)) > 0


def is_inside_box(quad: np.ndarray, box: tuple[int, int, int, int], shape: tuple[int, int],
                  gap: float) -> bool:
    """Whether the outline keeps ``gap`` pixels from the box's edges inside the frame (an
    outline drawn along them is a card the box cuts, not one of the table's)."""
    x0, y0, x1, y1 = box
    h, w = shape
    lo = np.array([x0 + gap if x0 > 0 else -np.inf, y0 + gap if y0 > 0 else -np.inf])
    hi = np.array([x1 - gap if x1 < w else np.inf, y1 - gap if y1 < h else np.inf])
    return bool((quad >= lo).all() and (quad <= hi).all())


def share_under(s: CardSighting, by: CardSighting) -> float:
    """Share of ``s``'s outline under ``by``'s."""
    a, b = np.array(s.corners, np.float32), np.array(by.corners, np.float32)
    area = cv2.contourArea(a)
    return float(cv2.intersectConvexConvex(a, b)[0] / area) if area > 0 else 1.0
