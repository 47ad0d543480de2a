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
and the share of the points along the side that are ink is taken: darker than that side's
own paper (its 90th percentile) by more than ``_INK_CONTRAST`` of the card's print
contrast. A line printed along the edge (a frame) is alike at every point along it and
counts as no ink; a pattern crossing the edge does. A card partly under a hand or another
card, or cut by the frame, still shows one plain side, so the plainest side seen is what
counts; the same is measured on the face it is named (its reference photos, the most
inked one), since some decks print to the edge. A card whose plainest side is inked by
more than ``MARGIN_SLACK`` beyond its face's is no card: the name is dropped. (Of 356
right names on the Pinochle photos, the Kennard and the rendered suites the excess was at
most 0.094; of the two wrong names on the checkered cloth, 0.32 and 0.42.)
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.deck import Deck
from vision.results import CardSighting

__all__ = ["drop_patterned", "margin_ink"]

MARGIN_BAND = (0.015, 0.045)  # the band measured: from, to (fractions of the card height)
MARGIN_SLACK = 0.2  # share of the plainest side's band that may be inked beyond the face's
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
    if card.ndim != 3 or card.shape[2] != 3 or card.dtype != np.uint8:
        raise ValueError("card must be an (h, w, 3) uint8 BGR image")
    if valid.shape != card.shape[:2]:
        raise ValueError("valid must be the card's (h, w) mask")
    h, w = valid.shape
    light = cv2.cvtColor(card, cv2.COLOR_BGR2LAB)[:, :, 0].astype(np.float32)
    if not valid.any():
        return None
    every = np.sort(light[::2, ::2][valid[::2, ::2]] if valid[::2, ::2].any() else light[valid])
    low, high = _rank(every, 0.05), _rank(every, 0.95)
    delta = max(_INK_FLOOR, _INK_CONTRAST * (high - low))
    a, b = (max(1, int(f * h)) for f in MARGIN_BAND)
    # each side's band, laid along the side (rows across it, columns along it)
    sides = [(light[a:b, b:w - b], valid[a:b, b:w - b]),
             (light[h - b:h - a, b:w - b], valid[h - b:h - a, b:w - b]),
             (light[b:h - b, a:b].T, valid[b:h - b, a:b].T),
             (light[b:h - b, w - b:w - a].T, valid[b:h - b, w - b:w - a].T)]
    shares = []
    for band, seen in sides:
        # averaged across the band: a line printed along the edge (a frame) is the same
        # at every point along it, a pattern crossing the edge is not
        count = seen.sum(axis=0)
        along = count >= max(1, seen.shape[0] // 2)
        if band.size == 0 or along.mean() < MARGIN_SEEN:
            continue
        profile = (band * seen).sum(axis=0)[along] / count[along]
        shares.append(float((profile < _rank(np.sort(profile), 0.9) - delta).mean()))
    return min(shares) if shares else None


def _rank(ordered: np.ndarray, q: float) -> float:
    """The value at fraction ``q`` of an ascending array (a percentile, not interpolated)."""
    return float(ordered[int(q * (len(ordered) - 1))])


def drop_patterned(frame: np.ndarray, sightings: list[CardSighting],
                   deck: Deck) -> list[CardSighting]:
    """``sightings`` without the named cards whose margin is inked beyond their face's.

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
        The same sightings in the same order, less the named ones whose plainest side's
        band is inked more than ``MARGIN_SLACK`` beyond the face's own (unsure ones kept).
    """
    h, w = deck.faces.shape[1:3]
    dst = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    everywhere = np.full(frame.shape[:2], 255, np.uint8)
    out = []
    for s in sightings:
        if s.card_id is not None:
            m = cv2.getPerspectiveTransform(np.array(s.corners, np.float32), dst)
            card = cv2.warpPerspective(frame, m, (w, h), flags=cv2.INTER_LINEAR,
                                       borderMode=cv2.BORDER_REPLICATE)
            valid = cv2.warpPerspective(everywhere, m, (w, h), flags=cv2.INTER_NEAREST,
                                        borderMode=cv2.BORDER_CONSTANT, borderValue=0) > 0
            seen = margin_ink(card, valid)
            if seen is not None and seen > _face_ink(deck, s.card_id) + MARGIN_SLACK:
                continue
        out.append(s)
    return out


_FACE_INK: dict[int, tuple[np.ndarray, dict[str, float]]] = {}


def _face_ink(deck: Deck, card_id: str) -> float:
    """The most inked plainest side among the face's reference photos (kept per deck)."""
    held = _FACE_INK.get(id(deck.faces))
    if held is None or held[0] is not deck.faces:
        if len(_FACE_INK) > 8:
            _FACE_INK.clear()
        held = _FACE_INK[id(deck.faces)] = (deck.faces, {})
    if card_id not in held[1]:
        faces = [deck.faces[i] for i, cid in enumerate(deck.ids) if cid == card_id]
        inks = [margin_ink(f, np.ones(f.shape[:2], bool)) for f in faces]
        held[1][card_id] = max((v for v in inks if v is not None), default=1.0)
    return held[1][card_id]
