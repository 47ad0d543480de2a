"""Touching dice joined by a neck: a face candidate cut where it narrows.

Two dice that touch at a corner, or along a short stretch of their edges, make one run of
their colour class; dark and translucent dice do so most, for their tops have no bright
core to cut the run at (``dice_runs``): the dark seam between them is no darker than
their bodies. The run is then two squares joined by a neck, too long or too hollow to be
a top face, and neither die is found. A die's top face holds a disc half a die across
anywhere in its middle; the neck where two dice meet is narrower. So a candidate bigger
than a die is opened with such a disc (its pips filled in first: they are the die's), and
when it falls apart into several pieces, each piece is a candidate of its own. A single
die's face, however it is drawn out by its side faces or shadow, stays one piece.
Points are (x, y) ROI pixels.
"""

from __future__ import annotations

import numpy as np

import cv2

NECK = 0.5  # the disc's diameter, in die edges: a top face holds it, a neck does not
BIG = 1.3  # only candidates bigger than this many dice's faces (area) are looked at
PIECE = 0.5  # a piece cut off is a die's top only if this many dice's faces or more:
#              smaller ones are slivers of a shadow or a rim the disc just fitted in
LONG, FULL = 1.6, 0.8  # ... and only outlines longer than wide or filling less of their
#                         rectangle (two squares corner to corner fill 3/4 of theirs; one
#                         die's rounded face nearly all): a square, full outline has no neck


def hull_area(hull: np.ndarray) -> float:
    """A candidate's area: its convex hull's (N, 1, 2) area plus half its perimeter."""
    return cv2.contourArea(hull) + 0.5 * cv2.arcLength(hull, True)


def neck_pieces(hull: np.ndarray, area: float, own: np.ndarray, origin: tuple[int, int],
                side: float, *, min_area: float, max_area: float
                ) -> list[tuple[np.ndarray, float]]:
    """The pieces a candidate falls into when opened with a disc half a die across.

    Parameters
    ----------
    hull : ndarray of shape (N, 1, 2), int32, the candidate's convex hull (ROI pixels)
    area : the candidate's area (its hull's plus half its perimeter)
    own : ndarray of shape (h, w), uint8, 0/255, the candidate's run (or bright core)
        pixels over the run's box; the hull's pixels outside it are not the candidate's
    origin : (x, y) of ``own``'s top-left pixel in the ROI
    side : die edge length in pixels
    min_area, max_area : the area range of a piece kept (its hull's area plus half its
        perimeter, as the candidates are measured); a piece under ``PIECE`` dice's faces
        is left out too

    Returns
    -------
    list of (hull (M, 1, 2) int32 in ROI pixels, area)
        Empty unless the candidate is bigger than ``BIG`` dice, drawn out or hollow, and
        falls into two or more pieces.
    """
    if area < BIG * side * side or not _is_drawn_or_hollow(hull):
        return []
    x, y, w, h = cv2.boundingRect(hull)
    x, y, w, h = x - 1, y - 1, w + 2, h + 2  # an empty pixel all round: the disc's erosion
    shape = np.zeros((h, w), np.uint8)
    cv2.drawContours(shape, [hull], -1, 255, cv2.FILLED, offset=(-x, -y))
    # the candidate's own pixels inside its hull (``own`` may not cover all of the hull)
    ox, oy = x - origin[0], y - origin[1]
    mine = np.zeros_like(shape)
    sy0, sx0 = max(0, oy), max(0, ox)
    sy1, sx1 = min(own.shape[0], oy + h), min(own.shape[1], ox + w)
    if sy1 <= sy0 or sx1 <= sx0:
        return []
    mine[sy0 - oy:sy1 - oy, sx0 - ox:sx1 - ox] = own[sy0:sy1, sx0:sx1]
    shape = cv2.bitwise_and(shape, mine)
    outer, _ = cv2.findContours(shape, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    shape = cv2.drawContours(np.zeros_like(shape), outer, -1, 255, cv2.FILLED)  # pips in
    k = max(3, int(NECK * side) | 1)
    opened = cv2.morphologyEx(shape, cv2.MORPH_OPEN,
                              cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    parts, _ = cv2.findContours(opened, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    if len(parts) < 2:
        return []
    out = []
    for part in parts:
        piece = cv2.convexHull(part) + np.array([x, y], np.int32)
        piece_area = hull_area(piece)
        if max(min_area, PIECE * side * side) <= piece_area < max_area:
            out.append((piece, piece_area))
    return out


def _is_drawn_or_hollow(hull: np.ndarray) -> bool:
    """True for a hull longer than wide (``LONG``) or filling its minimum-area rectangle
    poorly (``FULL``): two dice joined by a neck make one or the other (side by side, or
    corner to corner); a die's face, or a square block of dice, makes neither."""
    (_, _), (w, h), _ = cv2.minAreaRect(hull)
    short, long_ = min(w, h), max(w, h)
    if short <= 0:
        return False
    return long_ > LONG * short or cv2.contourArea(hull) < FULL * w * h
