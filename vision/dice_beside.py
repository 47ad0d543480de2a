"""A die lying against a die found: the foreground its blob holds beyond the dice found.

Touching dice make one foreground blob. When the face finder names one of them (a bright
top), the gate (``dice_gate``) counts the blob as explained as long as it is under a few
dice's worth of foreground, and the pile finder (``dice_piles``) looks only at blobs of two
dice or more, with no top found in them. A dark or translucent die against it (its top as
dark as its seam, so no candidate of its own) is then never looked for. A die found
accounts for its own part of the blob, a square about its top; what is left, once thin
slivers (side faces, a shadow's rim) are opened away with a disc half a die across, and
big enough to hold a die's top, is another die when it shows pips (as a pile's peak beside
a die found must, ``dice_piles``). Points are (x, y) working pixels.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

import cv2

from vision.dice_blobs import inner_contrast
from vision.dice_gate import PER_TOP
from vision.dice_piles import die_at, inner_split

GROW = 1.25  # a die found accounts for its top's box grown this much about its centre
OPEN = 0.5  # the disc that opens the rest away, in die edges (a top holds it)
REST = 0.6  # least area left (in die faces) that may be another die's top
NEAR = 0.9  # no new die nearer than this many edges to a die found
SQUARE = 1.3  # longest side over shortest of a part left that is a die's top: a square
#              (as ``dice_blobs.square_blobs``); a side face with its shadow is a strip
#              along the die found
ONE = 0.03  # least area of a one's lone pip, in faces (it is about a quarter die across)
ROUND = 0.5  # least share of its enclosing circle a pip fills (a disc all, a strip little)
MIDDLE = (0.38, 0.62)  # its middle this many edges from its border (as a pile's peak):
#                        farther is the middle of something bigger (a hand, a card)


def beside_dice(contours: Sequence[np.ndarray], work: np.ndarray, side: float,
                found: np.ndarray | Sequence[np.ndarray], *, min_pips: float = 60.0,
                table_v: Callable[[tuple[float, float]], float] | None = None,
                is_table: Callable[[tuple, tuple[float, float]], bool] | None = None
                ) -> list[tuple[np.ndarray, tuple[float, float], np.ndarray, tuple[int, int]]]:
    """Dice lying against dice found, in the blobs that hold those dice.

    Parameters
    ----------
    contours : outer outlines of the foreground blobs (``dice_measure.outer_contours``)
    work : BGR working image
    side : die edge length in working pixels
    found : outlines of the dice found, (N, 4, 2) or N arrays (4, 2), working pixels (x, y)
    min_pips, table_v, is_table : as ``dice_piles.pile_dice``

    Returns
    -------
    list of (box, centre, hsv, origin) as ``dice_blobs.square_blobs`` gives them
    """
    face = side * side
    big = [(cnt, a) for cnt in contours if (a := cv2.contourArea(cnt)) >= (1 + REST) * face]
    if not big or not len(found):  # (no blob bigger than a die and a bit: nothing to do)
        return []
    boxes = np.asarray(found, np.float32).reshape(-1, 4, 2)
    centres = boxes.mean(axis=1)
    k = max(3, int(round(OPEN * side)) | 1)
    disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))
    out: list = []
    seen = list(centres)
    for cnt, area in big:
        x, y, w, h = cv2.boundingRect(cnt)
        inside = np.flatnonzero((centres[:, 0] >= x) & (centres[:, 0] < x + w)
                                & (centres[:, 1] >= y) & (centres[:, 1] < y + h))
        inside = [i for i in inside if cv2.pointPolygonTest(
            cnt, (float(centres[i, 0]), float(centres[i, 1])), False) >= 0]
        if not inside or not (len(inside) + REST) * face <= area <= (
                len(inside) + 1) * PER_TOP * face:
            continue  # too little left for a die, or far more: a hand, a card, a tray
        blob = np.zeros((h + 2, w + 2), np.uint8)
        cv2.drawContours(blob, [cnt - [x - 1, y - 1]], -1, 255, cv2.FILLED)
        for i in inside:
            grown = (boxes[i] - centres[i]) * GROW + centres[i] - [x - 1, y - 1]
            cv2.fillConvexPoly(blob, np.round(grown).astype(np.int32), 0)
        if cv2.distanceTransform(blob, cv2.DIST_L2, 3).max() < MIDDLE[0] * side:
            continue  # nothing left holds a top's middle (most often side faces, shadow)
        rest = cv2.morphologyEx(blob, cv2.MORPH_OPEN, disc)
        n, labels, stats, _ = cv2.connectedComponentsWithStats(rest, connectivity=8)
        for j in range(1, n):
            if stats[j, 4] < REST * face:
                continue
            part = np.uint8(labels == j) * 255
            _, (rw, rh), _ = cv2.minAreaRect(cv2.findNonZero(part))
            if max(rw, rh) > SQUARE * min(rw, rh):
                continue
            dist = cv2.distanceTransform(part, cv2.DIST_L2, 3)
            py, px = np.unravel_index(int(np.argmax(dist)), dist.shape)
            if not MIDDLE[0] * side <= dist[py, px] <= MIDDLE[1] * side:
                continue
            centre = np.array([px + x - 1, py + y - 1], np.float64)
            if any(np.hypot(*(centre - s)) < NEAR * side for s in seen):
                continue
            die = die_at(work, centre, side, min_pips,
                         table_v(tuple(centre)) if table_v else None, is_table, pips=True)
            if die is not None and not _own_pips(die, side, min_pips, part, (x - 1, y - 1)):
                continue
            if die is not None:
                out.append(die)
                seen.append(centre)
    return out


def _own_pips(die: tuple, side: float, min_pips: float, part: np.ndarray,
              at: tuple[int, int]) -> bool:
    """True when a square's pips lie in the part of the blob left over: with everything
    else in it (the dice found, the table) painted in the part's median brightness, its
    middle still shows a face's pips (``_has_round_pip``) and their spread. ``part`` (0/255) has its
    top-left pixel at ``at`` (x, y) working pixels. A die's side face seen aslant, against
    its top, shows the top's corner or the table in the square, but no pip of its own."""
    box, _, hsv, (x0, y0) = die
    value = hsv[..., 2]
    h, w = value.shape
    own = np.zeros((h, w), np.uint8)  # the part, in the square's crop
    ax, ay = at[0] - x0, at[1] - y0
    sx0, sy0 = max(0, -ax), max(0, -ay)
    dx0, dy0 = max(0, ax), max(0, ay)
    ch = min(h - dy0, part.shape[0] - sy0)
    cw = min(w - dx0, part.shape[1] - sx0)
    if ch <= 0 or cw <= 0:
        return False
    own[dy0:dy0 + ch, dx0:dx0 + cw] = part[sy0:sy0 + ch, sx0:sx0 + cw]
    if not own.any():
        return False
    painted = np.full_like(value, int(np.median(value[own > 0])))
    cv2.copyTo(value, own, painted)
    local = box - [x0, y0]
    return inner_contrast(painted, local) >= min_pips and _has_round_pip(painted, local, side)


def _has_round_pip(value: np.ndarray, box: np.ndarray, side: float) -> bool:
    """True when the inner part (0.7) of a box holds a face's pips: round spots (filling
    ``ROUND`` of their enclosing circle) of a pip's size (a hundredth to a seventh of a
    face), darker or brighter than the middle of the part's brightness range: two or
    more, or one in the middle at least ``ONE`` of a face (a one's big pip). The dark
    rounded edges of a side face seen aslant make thin strips, a glint one small spot."""
    inner = inner_split(value, box)
    if inner is None:
        return False
    sel, mid = inner
    c = box.mean(axis=0)
    lo, hi = 0.01 * side * side, side * side / 7
    for phase in (cv2.CMP_LT, cv2.CMP_GT):
        spots = cv2.bitwise_and(cv2.compare(value, mid, phase), sel)
        cnts, _ = cv2.findContours(spots, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
        pips = []
        for cnt in cnts:
            area = float(np.count_nonzero(cv2.drawContours(
                np.zeros_like(spots), [cnt], -1, 255, cv2.FILLED) & spots))
            (px, py), r = cv2.minEnclosingCircle(cnt)
            if lo <= area <= hi and area >= ROUND * np.pi * (r + 0.5) ** 2:
                pips.append((area, np.hypot(px - c[0], py - c[1])))
        if len(pips) >= 2 or any(a >= ONE * side * side and d <= 0.2 * side for a, d in pips):
            return True
    return False
