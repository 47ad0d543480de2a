"""A card's outline is its own edge: just inside it runs the margin its face shows.

A card is a sheet of paper lying on the table, so the band just inside its outline is the
face's own margin: plain paper on most decks, whatever the light does across the card.
An outline drawn over a patterned cloth is no card's edge: the cloth's pattern runs on
under it, through the band, on every side. On a red and white checkered cloth, outlines
found along its squares came within the gate of faces with large red pips (Byron Knoll's
five of hearts at fine distance 0.385, its ace of diamonds at 0.34: the distances forgive
the worst cells, which is what keeps cards under a hand or glare nameable).

So a named card is measured on its margin: per side of the card, the band
(``MARGIN_BAND`` of the card's height in from the outline) is averaged across its width,
and the points along the side that are ink are marked: darker than that side's own paper
(its 90th percentile) by more than ``_INK_CONTRAST`` of the card's print contrast. A line
printed along the edge (a frame) is alike at every point along it and counts as no ink;
a pattern crossing the edge does. The same is marked on the face it is named (each of its
reference photos, either way up: a face may be taught upside down), and only the card's
ink where its face shows none counts, point by point along the side: art that runs off
the face's edge is the face's own ink there, not a cloth's, and some decks print to the
edge. A card partly under a hand or another card, or cut by the frame, still shows one
plain side, so the side seen with the least such ink counts: a card with more than
``MARGIN_SLACK`` of it there is no card, and the name is dropped. (Of 356 right names on
the Pinochle photos, the Kennard and the rendered suites the plainest side was at most
0.094 inked beyond the face's plainest; the two wrong names on the checkered cloth showed
0.375 and 0.469 of their plainest side inked where the face is not. A deck taught from
photos named its act-skip at distance 0.129 on a checkered cloth through an outline askew
by a corner: its sides inked 0.47 / 0.28 / 0.30 / 0.23, the last the orange disc that runs
off the face's right side (0.19 of it on the face), so the plainest side against the
face's plainest side, 0.23 beyond, dropped a right name; point by point, 0.05.)
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.cards_tell import bank_memo
from vision.cvcompat import warp_perspective
from vision.deck import Deck
from vision.results import CardSighting

__all__ = ["drop_patterned", "margin_ink"]

MARGIN_BAND = (0.015, 0.045)  # the band measured: from, to (fractions of the card height)
MARGIN_SLACK = 0.2  # share of a side that may be inked where the face is not
MARGIN_SEEN = 0.3  # least share of a side's band in the frame for the side to count
_INK_CONTRAST = 0.3  # ink: darker than the side's paper by this share of the print contrast
_INK_FLOOR = 12.0  # ... and by at least this much (Lab lightness, 0-255)


def margin_ink(card: np.ndarray, valid: np.ndarray) -> float | None:
    """Share of the band just inside the card's edge that is ink, on its plainest side.

    Parameters
    ----------
    card : ndarray of shape (h, w, 3), uint8, BGR
        The card rectified upright (its outline on the image's border).
    valid : ndarray of shape (h, w), bool
        Where the card is seen (False beyond the frame's edge).

    Returns
    -------
    float or None
        0.0 (the side's band is all paper) to 1.0; None when no side is seen enough.

    :raises ValueError: ``card`` is not (h, w, 3) uint8 or ``valid`` not its (h, w) mask.
    """
    shares = [ink.sum() / seen.sum() for ink, seen in _side_marks(card, valid) if seen.any()]
    return float(min(shares)) if shares else None


def _side_marks(card: np.ndarray, valid: np.ndarray) -> list[tuple[np.ndarray, np.ndarray]]:
    """Per side (top, bottom, left, right): which points along it are ink, and which are
    seen (none when the side is seen too little), as bool arrays along the side.

    :raises ValueError: ``card`` is not (h, w, 3) uint8 or ``valid`` not its (h, w) mask.
    """
    if card.ndim != 3 or card.shape[2] != 3 or card.dtype != np.uint8:
        raise ValueError("card must be an (h, w, 3) uint8 BGR image")
    if valid.shape != card.shape[:2]:
        raise ValueError("valid must be the card's (h, w) mask")
    h, w = valid.shape
    a, b = (max(1, int(f * h)) for f in MARGIN_BAND)
    if not valid.any():
        unseen = [np.zeros(max(0, n - 2 * b), bool) for n in (w, w, h, h)]
        return [(none, none) for none in unseen]
    light = cv2.cvtColor(card, cv2.COLOR_BGR2LAB)[:, :, 0].astype(np.float32)
    every = np.sort(light[::2, ::2][valid[::2, ::2]] if valid[::2, ::2].any() else light[valid])
    low, high = _rank(every, 0.05), _rank(every, 0.95)
    delta = max(_INK_FLOOR, _INK_CONTRAST * (high - low))
    # each side's band, laid along the side (rows across it, columns along it)
    sides = [(light[a:b, b:w - b], valid[a:b, b:w - b]),
             (light[h - b:h - a, b:w - b], valid[h - b:h - a, b:w - b]),
             (light[b:h - b, a:b].T, valid[b:h - b, a:b].T),
             (light[b:h - b, w - b:w - a].T, valid[b:h - b, w - b:w - a].T)]
    marks = []
    for band, seen in sides:
        # averaged across the band: a line printed along the edge (a frame) is the same
        # at every point along it, a pattern crossing the edge is not
        count = seen.sum(axis=0)
        along = count >= max(1, seen.shape[0] // 2)
        if band.size == 0 or along.mean() < MARGIN_SEEN:
            along = np.zeros_like(along)
        if not along.any():
            marks.append((along, along))
            continue
        profile = (band * seen).sum(axis=0) / np.maximum(count, 1)
        paper = _rank(np.sort(profile[along]), 0.9)
        marks.append(((profile < paper - delta) & along, along))
    return marks


def _rank(ordered: np.ndarray, q: float) -> float:
    """The value at fraction ``q`` of an ascending array (a percentile, not interpolated)."""
    return float(ordered[int(q * (len(ordered) - 1))])


def drop_patterned(frame: np.ndarray, sightings: list[CardSighting],
                   deck: Deck) -> list[CardSighting]:
    """``sightings`` without the named cards whose margin is inked where their face's is not.

    Parameters
    ----------
    frame : ndarray of shape (H, W, 3), uint8, BGR
    sightings : list of CardSighting
        One frame's sightings (``corners`` (x, y) in frame pixels, in the order
        top-left, top-right, bottom-right, bottom-left of the card upright).
    deck : Deck

    Returns
    -------
    list of CardSighting
        The same sightings in the same order, less the named ones whose every side seen
        is inked over more than ``MARGIN_SLACK`` of it where their face shows no ink
        (unsure ones kept).
    """
    h, w = deck.faces.shape[1:3]
    dst = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    everywhere = np.full(frame.shape[:2], 255, np.uint8)
    out = []
    for s in sightings:
        if s.card_id is not None:
            m = cv2.getPerspectiveTransform(np.array(s.corners, np.float32), dst)
            card = warp_perspective(frame, m, (w, h), flags=cv2.INTER_LINEAR,
                                    borderMode=cv2.BORDER_REPLICATE)
            valid = cv2.warpPerspective(everywhere, m, (w, h), flags=cv2.INTER_NEAREST,
                                        borderMode=cv2.BORDER_CONSTANT, borderValue=0) > 0
            if _beyond_face(_side_marks(card, valid), _face_marks(deck, s.card_id)) > MARGIN_SLACK:
                continue
        out.append(s)
    return out


_Marks = list[tuple[np.ndarray, np.ndarray]]
_TURNED = (1, 0, 3, 2)  # each side's opposite: where it lies on the face upside down


def _beyond_face(card: _Marks, faces: list[_Marks]) -> float:
    """The least share of a side seen on the card that is ink where the face shows none,
    side by side and point by point, on the face (reference, either way up) it fits best;
    0.0 when no side is seen."""
    best = 1.0
    for face in faces:
        for turned in (False, True):
            shares = []
            for side, (ink, seen) in enumerate(card):
                if seen.any():
                    inked = face[_TURNED[side]][0][::-1] if turned else face[side][0]
                    shares.append((ink & ~inked).sum() / seen.sum())
            best = min(best, min(shares, default=0.0))
    return float(best)


_FACE_MARKS: dict = {}  # per deck (bank_memo): card id -> each reference photo's marks


def _face_marks(deck: Deck, card_id: str) -> list[_Marks]:
    """Each reference photo's marks of the face (kept per deck)."""
    held = bank_memo(_FACE_MARKS, deck.faces)
    if card_id not in held:
        held[card_id] = [_side_marks(f, np.ones(f.shape[:2], bool))
                         for f, cid in zip(deck.faces, deck.ids) if cid == card_id]
    return held[card_id]
