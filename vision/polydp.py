"""Douglas-Peucker polygon simplification as OpenCV 5 does it, for OpenCV 4.x (vision.cvcompat).

OpenCV 4.13 and 5 measure a point's distance to the chord's *segment* (the nearer end when
its projection falls outside); 4.6 (a Pi's Bookworm) and 4.10 (Trixie) measured it to the
chord's infinite line, so a card outline's corner could move a pixel (IMG_2544 of the
Pinochle photos: [279, 150] on 5, [278, 151] on 4.6, and its 9C was lost). This is the same
algorithm, step for step and in the same double arithmetic, so both give the same polygon;
cvcompat uses it only where OpenCV still measures to the line.
"""

from __future__ import annotations

import numpy as np


def approx_poly_dp(curve: np.ndarray, epsilon: float, closed: bool) -> np.ndarray:
    """``cv2.approxPolyDP`` (OpenCV 5): ``curve`` (N, 1, 2) or (N, 2) int32 (a contour's
    points: exact in double, as OpenCV computes) simplified within ``epsilon`` pixels;
    returns (M, 1, 2) int32.

    :raises ValueError: ``epsilon`` is negative or not finite, or ``curve`` is not int32.
    """
    if not 0.0 <= epsilon < 1e30:
        raise ValueError(f"epsilon {epsilon} is not valid")
    pts = np.asarray(curve)
    if pts.dtype != np.int32:
        raise ValueError(f"curve must be int32 points, not {pts.dtype}")
    dtype = pts.dtype
    pts = pts.reshape(-1, 2)
    if len(pts) == 0:
        return pts.reshape(0, 1, 2)
    xy = pts.astype(np.float64)
    kept = _simplify(xy, closed, float(epsilon) ** 2)
    out = _clean(xy[kept], closed, float(epsilon) ** 2)
    return out.astype(dtype).reshape(-1, 1, 2)


def _simplify(xy: np.ndarray, closed: bool, eps2: float) -> list[int]:
    """Indices of the points kept, in OpenCV's order (its stack of slices)."""
    count = len(xy)
    stack: list[tuple[int, int]] = []
    kept: list[int] = []
    init_iters = 3
    if not closed:
        if (xy[0] != xy[-1]).any():
            stack.append((0, count - 1))
        else:
            closed, init_iters = True, 1
    if closed:
        # 1. two points far apart: from the start, the farthest, then the farthest from it...
        start, pos, far, le_eps = 0, 0, 0, False
        for _ in range(init_iters):
            pos = (pos + far) % count
            start = pos
            order = (start + np.arange(1, count)) % count
            d = ((xy[order] - xy[start]) ** 2).sum(axis=1)
            top = float(d.max()) if len(d) else 0.0
            if top > 0:  # else OpenCV keeps the last offset found
                far = int(np.argmax(d)) + 1
            le_eps = top <= eps2
            pos = (start + 1) % count  # where OpenCV's reading stopped: one past the start
            pos = (pos + count - 1) % count  # ... after count - 1 more reads, back at start
        if not le_eps:
            first = start % count
            second = (far + first) % count
            stack.append((second, first))
            stack.append((first, second))
        else:
            kept.append(start)
    # 2. split each slice at its farthest point until every point lies within epsilon
    while stack:
        a, b = stack.pop()
        if (a + 1) % count == b or a == b:
            kept.append(a)
            continue
        inner = (a + 1 + np.arange((b - a - 1) % count)) % count
        worst, le_eps = _farthest(xy[inner], xy[a], xy[b], eps2)
        if le_eps:
            kept.append(a)
        else:
            split = int(inner[worst])
            stack.append((split, b))
            stack.append((a, split))
    if not closed:
        kept.append(count - 1)
    return kept


def _farthest(pts: np.ndarray, start: np.ndarray, end: np.ndarray, eps2: float
              ) -> tuple[int, bool]:
    """(index of the first point farthest from the segment start-end, whether every point
    lies within epsilon), both measured as OpenCV 5 does: distances squared times the
    segment's length squared."""
    dx, dy = end[0] - start[0], end[1] - start[1]
    seg2 = dx * dx + dy * dy
    if seg2 == 0:
        raise ValueError("a slice's two ends are the same point")
    rx, ry = pts[:, 0] - start[0], pts[:, 1] - start[1]
    projection = rx * dx + ry * dy
    cross = ry * dx - rx * dy
    ex, ey = pts[:, 0] - end[0], pts[:, 1] - end[1]
    d = np.where(projection < 0, (rx * rx + ry * ry) * seg2,
                 np.where(projection > seg2, (ex * ex + ey * ey) * seg2, cross * cross))
    worst = int(np.argmax(d))
    top = max(float(d[worst]), 0.0)
    return worst, top <= eps2 * seg2


def _clean(poly: np.ndarray, closed: bool, eps2: float) -> np.ndarray:
    """OpenCV's last stage: drop points lying on an [almost] straight line between their
    neighbours (never on a horizontal or vertical one)."""
    count = len(poly)
    out = poly.copy()
    new_count = count
    pos = count - 1 if closed else 0

    def read(p: int) -> tuple[np.ndarray, int]:
        return out[p].copy(), (p + 1) % count if p + 1 < count else 0

    start, pos = read(pos)
    wpos = pos
    pt, pos = read(pos)
    i = 0 if closed else 1
    while i < count - (0 if closed else 1) and new_count > 2:
        end, pos = read(pos)
        dx, dy = end[0] - start[0], end[1] - start[1]
        dist = abs((pt[0] - start[0]) * dy - (pt[1] - start[1]) * dx)
        inner = (pt[0] - start[0]) * (end[0] - pt[0]) + (pt[1] - start[1]) * (end[1] - pt[1])
        if dist * dist <= 0.5 * eps2 * (dx * dx + dy * dy) and dx != 0 and dy != 0 \
                and inner >= 0:
            new_count -= 1
            out[wpos] = start = end
            wpos = wpos + 1 if wpos + 1 < count else 0
            pt, pos = read(pos)
            i += 2
            continue
        out[wpos] = start = pt
        wpos = wpos + 1 if wpos + 1 < count else 0
        pt = end
        i += 1
    if not closed:
        out[wpos] = pt
    return out[:new_count]
