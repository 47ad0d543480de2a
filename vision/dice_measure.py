"""Measures of many face outlines at once: corners, light ring and edge strength.

``dice_faces`` measures some 30-50 candidate outlines per frame. The small per-outline
numpy steps (a dozen array operations on ten to thirty points each) cost more in call
overhead than in work, so the outlines of one frame are measured here together: their
points are stacked into one array and each measure is one pass over it, with the result
per outline taken by ``reduceat``. Each measure gives bit for bit what measuring one
outline at a time gives. Points are (x, y) pixels.
"""

from __future__ import annotations

import numpy as np

import cv2

_RING_T = np.array([0.0, 0.25, 0.5, 0.75])


def cornerness_many(hulls: list[np.ndarray], centres: list[tuple[float, float]]) -> list[float]:
    """Circumradius over inradius of each convex outline about its centre (x, y).

    About 1.3-1.5 for a (rounded) square, 1.0-1.2 for a coin; 1.0 for an outline of fewer
    than three points or without a side.
    """
    if not hulls:
        return []
    sizes = np.array([len(h) for h in hulls])
    starts = np.concatenate([[0], np.cumsum(sizes)[:-1]])
    pts = (np.concatenate([h.reshape(-1, 2) for h in hulls]).astype(np.float64)
           - np.repeat(np.asarray(centres, np.float64), sizes, axis=0))
    far = np.maximum.reduceat(np.hypot(pts[:, 0], pts[:, 1]), starts)
    nxt_at = np.arange(1, len(pts) + 1)
    nxt_at[starts + sizes - 1] = starts  # each outline closes on its first point
    seg = pts[nxt_at] - pts
    length = np.hypot(seg[:, 0], seg[:, 1])
    ok = length > 1e-6
    near = np.full(len(pts), np.inf)
    near[ok] = np.abs(pts[ok, 0] * seg[ok, 1] - pts[ok, 1] * seg[ok, 0]) / length[ok]
    nearest = np.minimum.reduceat(near, starts)
    flat = (sizes < 3) | ~np.isfinite(nearest)  # (the same divisions, all at once)
    return np.where(flat, 1.0, far / np.maximum(np.where(flat, 1.0, nearest), 0.5)).tolist()


def ring_share_many(cls_map: np.ndarray, code: int, boxes: list[np.ndarray],
                    centres: list[tuple[float, float]]) -> list[float]:
    """Share of pixels of class ``code`` on a ring of 16 points around each face (its box
    (4, 2) grown by half about its centre (x, y)); 0.0 for a ring all outside the map."""
    if not boxes:
        return []
    h, w = cls_map.shape
    c = np.asarray(centres, np.float64)[:, None, :]
    corners = (np.asarray(boxes) - c) * 1.5 + c  # (N, 4, 2)
    step = corners[:, [1, 2, 3, 0]] - corners
    pts = corners[:, None] + step[:, None] * _RING_T[None, :, None, None]  # (N, 4, 4, 2)
    xs = np.round(pts[..., 0]).astype(int).reshape(len(boxes), -1)
    ys = np.round(pts[..., 1]).astype(int).reshape(len(boxes), -1)
    ok = (xs >= 0) & (xs < w) & (ys >= 0) & (ys < h)
    hit = np.zeros(ok.shape, bool)
    hit[ok] = cls_map[ys[ok], xs[ok]] == code
    n_ok, n_hit = ok.sum(axis=1), hit.sum(axis=1)
    return [float(k) / n if n else 0.0 for k, n in zip(n_hit.tolist(), n_ok.tolist())]


def edge_strength(grad: np.ndarray, cnt: np.ndarray) -> float:
    """Mean gradient on a 3-pixel band along a contour (0.0 for an empty band)."""
    x, y, w, h = cv2.boundingRect(cnt)
    H, W = grad.shape
    x0, y0, x1, y1 = max(0, x - 2), max(0, y - 2), min(W, x + w + 2), min(H, y + h + 2)
    band = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.polylines(band, [cnt - [x0, y0]], True, 255, 3)
    n = cv2.countNonZero(band)
    if not n:
        return 0.0
    # the exact integer sum over the band, divided once (as numpy's mean does)
    return float(cv2.sumElems(cv2.bitwise_and(grad[y0:y1, x0:x1], band))[0]) / n


def blob_stats(mask: np.ndarray) -> tuple[int, np.ndarray, np.ndarray]:
    """(count, stats, centroids) of the 8-connected components of a uint8 mask, as
    ``cv2.connectedComponentsWithStats`` gives them but for the background's row (row 0).

    The components are labelled in the box around the mask's non-zero pixels only: the
    labelling costs a fixed pass over every pixel it is given, and masks of pips or blobs
    are mostly empty. Centroids come out bit for bit as labelling the whole mask gives
    them (each one's exact pixel sum is recovered and divided once).
    """
    x, y, w, h = cv2.boundingRect(mask)
    if w == 0 or h == 0:
        return 1, np.zeros((1, 5), np.int32), np.zeros((1, 2))
    # the labelling scans 2x2 blocks: a box on even pixels keeps the labels' order
    w, h, x, y = w + (x & 1), h + (y & 1), x & ~1, y & ~1
    n, _, stats, cents = cv2.connectedComponentsWithStatsWithAlgorithm(
        mask[y:y + h, x:x + w], 8, cv2.CV_32S, cv2.CCL_GRANA)
    if x or y:
        stats[1:, 0] += x
        stats[1:, 1] += y
        area = stats[1:, 4:5].astype(np.float64)
        sums = np.rint(cents[1:] * area) + area * np.array([x, y], np.float64)
        cents[1:] = sums / area
    return n, stats, cents


def sparse_blob_stats(mask: np.ndarray, *, gap: int = 8) -> tuple[int, np.ndarray, np.ndarray]:
    """``blob_stats`` of a sparse mask (pip spots), the same count, stats and centroids in
    the same order, labelled band by band: the rows are cut where ``gap`` or more in a row
    are empty (no component crosses an empty row), at even rows, and each band is labelled
    in the box around its own set pixels, so clusters far apart cost no pass over the
    empty space between them."""
    rows = np.flatnonzero(cv2.reduce(mask, 1, cv2.REDUCE_SUM, dtype=cv2.CV_32S).ravel())
    if len(rows) < 2:
        return blob_stats(mask)
    cuts = (rows[1:][np.diff(rows) > gap] & ~1).tolist()  # (rows after each gap, even)
    stats, cents = [np.zeros((1, 5), np.int32)], [np.zeros((1, 2))]
    for y0, y1 in zip([0, *cuts], [*cuts, mask.shape[0]]):
        n, st, ce = blob_stats(mask[y0:y1])
        if y0 and n > 1:
            st[1:, 1] += y0
            area = st[1:, 4:5].astype(np.float64)
            ce[1:] = (np.rint(ce[1:] * area) + area * np.array([0, y0], np.float64)) / area
        stats.append(st[1:])
        cents.append(ce[1:])
    stats_a = np.concatenate(stats)
    return len(stats_a), stats_a, np.concatenate(cents)


def outer_contours(mask: np.ndarray) -> tuple:
    """``cv2.findContours(mask, RETR_EXTERNAL, CHAIN_APPROX_SIMPLE)[0]``.

    (Traced on the whole mask: cropping it to the box around its set pixels first costs a
    scan of its own, more than the tracing saves on the masks the dice reader traces.)
    """
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    return contours


def grown_crop(small: np.ndarray, size: tuple[int, int], box: tuple[slice, slice]
               ) -> np.ndarray:
    """``cv2.resize(small, size, interpolation=cv2.INTER_NEAREST)[box]`` (``size`` is
    (width, height), ``box`` (rows, columns) slices with set bounds), growing only the
    part the box needs when ``size`` is twice ``small``'s: each pixel is then a 2x2 block,
    so the crop's pixels are the same."""
    h, w = small.shape[:2]
    rows, cols = box
    if size != (2 * w, 2 * h):
        return cv2.resize(small, size, interpolation=cv2.INTER_NEAREST)[box]
    y0, x0 = rows.start // 2, cols.start // 2
    part = small[y0:(rows.stop + 1) // 2, x0:(cols.stop + 1) // 2]
    grown = cv2.resize(part, (2 * part.shape[1], 2 * part.shape[0]),
                       interpolation=cv2.INTER_NEAREST)
    return grown[rows.start - 2 * y0:rows.stop - 2 * y0, cols.start - 2 * x0:cols.stop - 2 * x0]


def grown_linear_crop(small: np.ndarray, size: tuple[int, int], box: tuple[slice, slice]
                      ) -> np.ndarray:
    """``cv2.resize(small, size, interpolation=cv2.INTER_LINEAR)[box]`` (``size`` is
    (width, height), ``box`` (rows, columns) slices with set bounds), growing only the
    part of ``small`` the box needs when ``size`` is ``small``'s times a power of two each
    way: a pixel then takes the same two neighbours at the same weights wherever the grown
    part starts (its position in ``small`` is exact in binary), and one pixel of
    ``small`` kept past the box on each side stands in for the clamping at an edge."""
    h, w = small.shape[:2]
    fx, fy = size[0] // w, size[1] // h
    if (size[0] != fx * w or size[1] != fy * h or fx & (fx - 1) or fy & (fy - 1)):
        return cv2.resize(small, size, interpolation=cv2.INTER_LINEAR)[box]
    rows, cols = box
    x0, y0 = max(0, cols.start // fx - 1), max(0, rows.start // fy - 1)
    x1, y1 = min(w, (cols.stop - 1) // fx + 2), min(h, (rows.stop - 1) // fy + 2)
    part = small[y0:y1, x0:x1]
    grown = cv2.resize(part, ((x1 - x0) * fx, (y1 - y0) * fy), interpolation=cv2.INTER_LINEAR)
    return grown[rows.start - fy * y0:rows.stop - fy * y0, cols.start - fx * x0:cols.stop - fx * x0]
