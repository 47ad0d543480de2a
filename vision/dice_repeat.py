"""Patterns, not solids: a face whose neighbourhood recurs all round it is the cloth's.

A die is one small raised solid: its top, its edges, its shade and the table just around
it make a picture found nowhere else near it (dice alike may lie beside it, but not one
on each side of it and another off that line, all at one turn). A check of a gingham or
checkered cloth is one tile of a pattern: the same picture (the check and the checks
around it) recurs a period away on both sides along one direction and again along
another, whatever turn the camera's perspective or lens give the grid there, and under a
glare or a shadow that washes its lines out (a cloth's grid turn, ``dice_cloth``, is
measured once for the frame, and a check in a far corner is off it).
Points are (x, y) working pixels; ``side`` is a die's edge there.
"""

from __future__ import annotations

import numpy as np

import cv2

_SPAN = 1.2  # the compared picture: this many die edges across, centred on the face
_REACH = 3.0  # its copies are looked for this many die edges around it
_SELF = 0.5  # shifts nearer than this many die edges are the face itself
_SLACK = 0.1  # a copy's opposite may lie this many die edges off the mirrored shift
_PIXELS = 12.0  # a die's edge, shrunk to this many pixels to compare
_APART = 0.5  # sine of the least angle between two directions of a lattice (30 degrees)


def is_pattern_tile(work: np.ndarray, centre: tuple[float, float], side: float, *,
                    min_match: float = 0.8) -> bool:
    """True when the picture around ``centre`` (``_SPAN`` die edges ``side`` across, in
    ``work`` (H, W, 3) uint8 BGR) recurs, matching at ``min_match`` or more
    (normalised cross-correlation of the colours) shifted both ways along one
    direction and once more along another at least 30 degrees from it, within
    ``_REACH`` die edges: a tile of a two-way pattern (one way along the second
    direction: a die lying on the cloth may hide the copy on the other side). A shift
    whose opposite falls outside the frame counts as recurring both ways. Compared
    shrunk to ``_PIXELS`` pixels a die edge (a pattern's tiles are about a die's top or
    bigger; the shrink keeps it quick: about 1 ms a face on a busy machine)."""
    h, w = work.shape[:2]
    reach = (0.5 * _SPAN + _REACH) * side
    x0, y0 = max(0, int(centre[0] - reach)), max(0, int(centre[1] - reach))
    x1, y1 = min(w, int(centre[0] + reach) + 1), min(h, int(centre[1] + reach) + 1)
    k = min(1.0, _PIXELS / side)
    if x1 - x0 < 4 or y1 - y0 < 4:
        return False
    crop = work[y0:y1, x0:x1]
    small = cv2.resize(crop, None, fx=k, fy=k, interpolation=cv2.INTER_AREA) if k < 1 else crop
    sh, sw = small.shape[:2]
    s = side * k
    t = max(2, int(round(0.5 * _SPAN * s)))
    x, y = int(round((centre[0] - x0) * k)), int(round((centre[1] - y0) * k))
    tx0, ty0, tx1, ty1 = max(0, x - t), max(0, y - t), min(sw, x + t + 1), min(sh, y + t + 1)
    if tx1 - tx0 < 4 or ty1 - ty0 < 4:
        return False
    scores = cv2.matchTemplate(small, np.ascontiguousarray(small[ty0:ty1, tx0:tx1]),
                               cv2.TM_CCOEFF_NORMED)
    slack = max(1, int(round(_SLACK * s)))
    best = cv2.dilate(scores, np.ones((2 * slack + 1, 2 * slack + 1), np.uint8))
    ys, xs = np.nonzero((scores >= min_match) & (scores >= best))
    dx, dy = xs - tx0, ys - ty0  # each copy's shift (the map's (tx0, ty0) is no shift)
    far = np.hypot(dx, dy) >= _SELF * s
    copies, both = list(zip(dx[far], dy[far])), []
    for ddx, ddy in copies:
        mx, my = tx0 - ddx, ty0 - ddy  # the opposite shift's place in the map
        inside = 0 <= mx < scores.shape[1] and 0 <= my < scores.shape[0]
        if not inside or best[my, mx] >= min_match:  # (beyond the frame that way: as both)
            both.append((ddx, ddy))
    return any(_apart(d, c) for d in both for c in copies)


def _apart(a: tuple[int, int], b: tuple[int, int]) -> bool:
    """True when shifts ``a`` and ``b`` (dx, dy) lie at least 30 degrees apart as lines."""
    cross = abs(float(a[0]) * float(b[1]) - float(a[1]) * float(b[0]))
    return cross >= _APART * float(np.hypot(*a)) * float(np.hypot(*b))
