"""The die size from the dice lying alone on the table.

The face candidates vote for the die size (``dice_pick.die_side``), but a die broken up
by its pips, its corners cut off by glare or its top ringed by a light table gives
pieces, and when pieces are most of the votes their median is a third or half of a die.
A die lying alone on a plain table is the easiest outline there is: its foreground blob
is a square (a round blob, a pip of a white die on a white table or a coin, fills pi/4
of its rectangle, a die's blob nearly all of it), and of the top faces inside it the
biggest one is the die's top; the others are its pieces (a square block of four dice
holds tops a quarter of its area: left out). How big a top is against its
blob (the side faces and the shadow a camera and a lamp add) is measured on the lone
dice whose top was found, and every lone die's blob then bounds the size from below.
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

from vision.dice_faces import Face

SQUARE_FILL = 0.8  # least share of its minimum-area rectangle a lone die's blob fills
SQUARE_ASPECT = 1.3  # most long/short side ratio of that rectangle
TOP_OVER = 1.15  # a top reaches past its blob at most this much (a mask is cautious)
TOP_SHARE = 0.8  # the size is at least this share of the lone dice's tops
PIECE = 0.5  # a top covers at least this share of its lone blob's edge, a piece less
MIN_LONE = 2  # lone dice needed: one square blob alone may be a block of four dice


def lone_dice(contours: Sequence[np.ndarray], shape: tuple[int, int], tops: list[Face], *,
              min_side: float) -> list[tuple[float, float]]:
    """The dice lying alone: each square blob's edge and its top's edge (0.0 when none of
    the ``tops`` lies inside it), in pixels.

    Parameters
    ----------
    contours : outer outlines of the foreground blobs (``dice_measure.outer_contours``)
    shape : (H, W) of the mask they were traced on; a blob cut by its border is left out
    tops : the face candidates that vote for the die size (top-shaped and crisp, or marks
        measured with their light body), in the same pixels
    min_side : least edge (pixels) of a die's blob: a smaller one is a speck or a pip

    Returns
    -------
    list of (edge, top)
        ``edge`` the root of the blob's minimum-area rectangle's area (grown a pixel:
        pixel centres to pixel edges), for blobs filling ``SQUARE_FILL`` of it (pixels
        counted from the outline by Pick's theorem) with sides within ``SQUARE_ASPECT``;
        ``top`` the biggest top (the root of its area, or a mark's body edge) centred in
        the blob and at most ``TOP_OVER`` times its edge.
    """
    h, w = shape
    at = np.asarray([f.centre for f in tops], np.float64).reshape(-1, 2)
    size = np.asarray([f.body if f.body > 0 else np.sqrt(f.area) for f in tops], np.float64)
    out = []
    for cnt in contours:
        x, y, bw, bh = cv2.boundingRect(cnt)
        if x == 0 or y == 0 or x + bw >= w or y + bh >= h or min(bw, bh) < min_side:
            continue
        (_, _), (rw, rh), _ = cv2.minAreaRect(cnt)
        rw, rh = rw + 1.0, rh + 1.0
        pixels = cv2.contourArea(cnt) + cv2.arcLength(cnt, True) / 2 + 1
        if max(rw, rh) > SQUARE_ASPECT * min(rw, rh) or pixels < SQUARE_FILL * rw * rh:
            continue
        edge = float(np.sqrt(rw * rh))
        near = np.flatnonzero((at[:, 0] >= x) & (at[:, 0] < x + bw) & (at[:, 1] >= y)
                              & (at[:, 1] < y + bh) & (size <= TOP_OVER * edge))
        inside = [float(size[i]) for i in near if cv2.pointPolygonTest(
            cnt, (float(at[i, 0]), float(at[i, 1])), False) >= 0]
        out.append((edge, max(inside, default=0.0)))
    return out


def outline_floor(lone: Sequence[tuple[float, float]]) -> float:
    """The least die edge (pixels) the lone dice ``lone`` (as :func:`lone_dice` gives
    them) allow: ``TOP_SHARE`` of their median blob edge times the median share of its
    blob a top found covers; 0.0 with fewer than ``MIN_LONE`` of them or no top found.
    A blob whose biggest vote covers under ``PIECE`` of its edge is left out: it holds only
    pieces of a die, or it is a block of dice whose one top that vote is."""
    lone = [(edge, top) for edge, top in lone if top == 0 or top >= PIECE * edge]
    shares = [top / edge for edge, top in lone if top > 0]
    if len(lone) < MIN_LONE or not shares:
        return 0.0
    edges = np.asarray([edge for edge, _ in lone], np.float64)
    return TOP_SHARE * float(np.median(np.asarray(shares))) * float(np.median(edges))
