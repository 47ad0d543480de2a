"""Dice in a pile: touching dice (or a die and its shadow) that the foreground mask joins.

A blob a few dice big that no top face explains is most often dice lying against each
other. Its distance transform peaks at each die's middle, about half a die's edge from the
blob's border; each such peak with pips around it (the brightness inside spreads widely;
beside a die found, in pip-sized pieces: a cloth's checks or a shadow's edge beside a die
cross its square in big ones) is taken for a die. Two dice lying exactly side by side, edge to edge, make one
ridge instead of two peaks and are found as one (a known limit). Blobs far bigger than a few
dice (a card, a hand, a sheet of paper) and long thin ones (a pencil) are left out.
Points are (x, y) work-image pixels.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

import cv2

from vision.dice_blobs import inner_contrast
from vision.dice_faces import percentile
from vision.dice_measure import outer_contours


def pile_dice(mask: np.ndarray, work: np.ndarray, side: float,
              taken: list[tuple[float, float]], *,
              table_v: Callable[[tuple[float, float]], float] | None = None,
              is_table: Callable[[tuple, tuple[float, float]], bool] | None = None,
              min_pips: float = 60.0,
              min_dice: float = 1.9, max_dice: float = 8.0, max_aspect: float = 3.5,
              contours: tuple | None = None
              ) -> list[tuple[np.ndarray, tuple[float, float], np.ndarray, tuple[int, int]]]:
    """Dice found as the peaks of blobs of 1.9 to ``max_dice`` dice in area.

    Parameters
    ----------
    mask : foreground mask (0/255) at the working size
    work : BGR working image
    side : die edge length in working pixels
    taken : centres (x, y) of the dice already found; peaks near them are left out
    table_v : the table's brightness (0-255) at a point (x, y): a peak whose middle is
        all clearly darker than the table (no light pips) is a shadow; optional
    is_table : True for a BGR colour of the table at a point (x, y); a peak whose
        middle's median colour is the table's is table that the blob's closing took in
        (a gap between two dice, a cloth square beside a die), not a die; optional
    min_pips : least brightness spread inside a peak's die-sized square
    max_dice, max_aspect : largest blob (in die areas) and longest blob (length over
        width) looked at
    contours : ``dice_measure.outer_contours(mask)``, when the caller has them

    Returns
    -------
    list of (box, centre, hsv, origin) as ``dice_blobs.square_blobs`` gives them
    """
    contours = outer_contours(mask) if contours is None else contours
    die_area = side * side
    out: list = []
    seen = [np.asarray(t, np.float64) for t in taken]
    for cnt in contours:
        if not min_dice * die_area < cv2.contourArea(cnt) <= max_dice * die_area:
            continue
        _, (rw, rh), _ = cv2.minAreaRect(cnt)
        if max(rw, rh) > max_aspect * min(rw, rh):
            continue  # a long thin thing: a pencil, a ruler's edge
        for centre in _peaks(cnt, side):
            if any(np.hypot(*(centre - s)) < 0.9 * side for s in seen):
                continue
            beside = any(np.hypot(*(centre - s)) < 1.5 * side for s in seen)
            found = die_at(work, centre, side, min_pips,
                            table_v(tuple(centre)) if table_v else None, is_table,
                            pips=beside)
            if found is not None:
                out.append(found)
                seen.append(centre)
    return out


def _peaks(cnt: np.ndarray, side: float) -> list[np.ndarray]:
    """Die middles in a blob: distance-transform peaks 0.38 to 0.62 of a die's edge from
    the border (farther is the middle of something bigger: a card, a hand), strongest
    first, no two nearer than 0.75 of an edge."""
    x, y, w, h = cv2.boundingRect(cnt)
    blob = np.zeros((h + 2, w + 2), np.uint8)
    cv2.drawContours(blob, [cnt - [x - 1, y - 1]], -1, 255, cv2.FILLED)
    dist = cv2.distanceTransform(blob, cv2.DIST_L2, 3)
    k = max(3, int(0.5 * side) | 1)
    top = cv2.dilate(dist, np.ones((k, k), np.uint8))
    ys, xs = np.nonzero((dist >= top) & (dist >= 0.38 * side) & (dist <= 0.62 * side))
    order = np.argsort(-dist[ys, xs])
    peaks: list[np.ndarray] = []
    for i in order:
        p = np.array([xs[i] + x - 1, ys[i] + y - 1], np.float64)
        if all(np.hypot(*(p - q)) >= 0.75 * side for q in peaks):
            peaks.append(p)
    return peaks


def die_at(work: np.ndarray, centre: np.ndarray, side: float, min_pips: float,
            table: float | None, is_table: Callable | None = None, *, pips: bool = False):
    """A die-sized square at ``centre`` as (box, centre, hsv, origin), or None without
    pips, or when it is a shadow: everything in its middle, pips too, clearly darker than
    the table's brightness ``table`` (a dark die's pips are light or coloured), or when
    its middle's median colour is the table's (``is_table(bgr, centre)``). With ``pips``
    (a peak lying against a die found: its shadow and the cloth beside it are there too)
    the brightness spread must come from pips (``_pip_like``)."""
    half = side / 2
    box = np.array([[-half, -half], [half, -half], [half, half], [-half, half]],
                   np.float32) + centre.astype(np.float32)
    h, w = work.shape[:2]
    x0, y0 = max(0, int(centre[0] - half) - 2), max(0, int(centre[1] - half) - 2)
    x1, y1 = min(w, int(centre[0] + half) + 3), min(h, int(centre[1] + half) + 3)
    if x1 - x0 < 4 or y1 - y0 < 4:
        return None
    hsv = cv2.cvtColor(work[y0:y1, x0:x1], cv2.COLOR_BGR2HSV)
    if inner_contrast(hsv[..., 2], box - [x0, y0]) < min_pips:
        return None
    if pips and not _pip_like(hsv[..., 2], box - [x0, y0], side):
        return None  # the spread comes from something crossing the square: cloth, shade
    r = max(1, int(0.3 * side))
    cx, cy = int(centre[0]) - x0, int(centre[1]) - y0
    middle = (slice(max(0, cy - r), cy + r + 1), slice(max(0, cx - r), cx + r + 1))
    if table is not None and percentile(hsv[middle][..., 2].ravel(), 95) < 0.8 * table:
        return None
    if is_table is not None:
        mid = work[y0:y1, x0:x1][middle]
        bgr = tuple(float(np.median(mid[..., i])) for i in range(3))
        if is_table(bgr, (float(centre[0]), float(centre[1]))):
            return None
    return box, (float(centre[0]), float(centre[1])), hsv, (x0, y0)


def inner_split(value: np.ndarray, box: np.ndarray) -> tuple[np.ndarray, float] | None:
    """A box's inner part (0.7 of it, a 0/255 mask over ``value``) and the middle of its
    brightness range (2nd to 98th percentile), where pips split from the face; None when
    the part holds under four pixels."""
    c = box.mean(axis=0)
    sel = np.zeros(value.shape, np.uint8)
    cv2.fillConvexPoly(sel, ((box - c) * 0.7 + c).astype(np.int32), 255)
    v = value[sel > 0]
    if v.size < 4:
        return None
    return sel, 0.5 * (percentile(v, 2) + percentile(v, 98))


def _pip_like(value: np.ndarray, box: np.ndarray, side: float) -> bool:
    """True when the brightness spread inside a box's inner part (0.7 of it) comes from
    pips: split at the middle of its range, the darker or the brighter side holds two
    pieces of a pip's size (a hundredth to a seventh of a die), or one that stays clear
    of the inner part's border (a one's pip). A cloth's checks or a shadow's edge cross
    the square: a few big pieces, each reaching its border."""
    inner = inner_split(value, box)
    if inner is None:
        return False
    sel, mid = inner
    rim = cv2.dilate(cv2.bitwise_not(sel), np.ones((3, 3), np.uint8))
    lo, hi = 0.01 * side * side, side * side / 7
    for phase in (cv2.CMP_LT, cv2.CMP_GT):
        part = cv2.bitwise_and(cv2.compare(value, mid, phase), sel)
        n, labels, stats, _ = cv2.connectedComponentsWithStats(part, connectivity=8)
        sizes = stats[1:, 4]
        pips = np.flatnonzero((sizes >= lo) & (sizes <= hi)) + 1
        if len(pips) >= 2:
            return True
        inside = set(range(1, n)) - set(np.unique(labels[(rim > 0) & (part > 0)]).tolist())
        if any(i in inside for i in pips):
            return True
    return False
