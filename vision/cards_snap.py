"""Snap a rough card outline onto the card's true edges.

Segmentation gives outlines a few pixels off (a shadow, a printed frame, a table of the
card's colour); the naming step needs them tight, since a title letter is a few pixels
wide. Each side is moved, at each end independently, within a small band along its normal
to where the image's gradient across it is strongest; the new corners are where the
snapped sides meet.
"""

from __future__ import annotations

import cv2
import numpy as np

SNAP_BAND = 0.06  # how far a side may move, as a fraction of its length
SNAP_STEPS = 9  # positions tried for each end of a side
SNAP_SAMPLES = 24  # points sampled along a side


def edge_gradient(gray: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Image gradients (gx, gy) of a float32 gray image, for :func:`snap_quad`."""
    g = cv2.GaussianBlur(gray.astype(np.float32), (3, 3), 0)
    return cv2.Sobel(g, cv2.CV_32F, 1, 0, ksize=3), cv2.Sobel(g, cv2.CV_32F, 0, 1, ksize=3)


def snap_quad(quad: np.ndarray, gx: np.ndarray, gy: np.ndarray) -> np.ndarray:
    """Move each side of ``quad`` (4, 2) (x, y) onto the strongest straight edge nearby.

    Coordinates are in the gradient images' pixels. A side with no clear edge stays
    where it was (an edge hidden under another card).
    """
    lines = [_snap_side(quad[i], quad[(i + 1) % 4], gx, gy) for i in range(4)]
    out = quad.astype(np.float32).copy()
    for i in range(4):
        x = _meet(lines[i - 1], lines[i])
        if x is not None and np.hypot(*(x - quad[i])) < 0.25 * np.hypot(*(quad[1] - quad[0])) + 5:
            out[i] = x
    return out


def _snap_side(p: np.ndarray, q: np.ndarray, gx: np.ndarray, gy: np.ndarray
               ) -> tuple[np.ndarray, np.ndarray]:
    """The best (start, end) of the side p-q, each end moved along the side's normal."""
    d = q - p
    length = float(np.hypot(*d))
    if length < 8:
        return p, q
    n = np.array([-d[1], d[0]], np.float32) / length
    shifts = np.linspace(-SNAP_BAND, SNAP_BAND, SNAP_STEPS, dtype=np.float32) * length
    t = np.linspace(0.15, 0.85, SNAP_SAMPLES, dtype=np.float32)
    sp, sq = np.meshgrid(shifts, shifts, indexing="ij")  # (S, S) shifts of p and of q
    off = sp[..., None] * (1 - t) + sq[..., None] * t  # (S, S, T) offset along n
    base = p + t[:, None] * d  # (T, 2)
    pts = base[None, None] + off[..., None] * n  # (S, S, T, 2)
    h, w = gx.shape
    xi = np.clip(np.round(pts[..., 0]).astype(np.int32), 0, w - 1)
    yi = np.clip(np.round(pts[..., 1]).astype(np.int32), 0, h - 1)
    across = np.abs(gx[yi, xi] * n[0] + gy[yi, xi] * n[1])
    # a card side is an edge all along: the median resists a single strong crossing line
    score = np.median(across, axis=-1)
    i, j = np.unravel_index(int(np.argmax(score)), score.shape)
    if score[i, j] < 1.5 * float(np.median(score)) + 1e-3:
        return p, q  # nothing stands out: keep the side
    return p + shifts[i] * n, q + shifts[j] * n


def _meet(a: tuple[np.ndarray, np.ndarray], b: tuple[np.ndarray, np.ndarray]
          ) -> np.ndarray | None:
    (p1, p2), (q1, q2) = a, b
    u, v = p2 - p1, q2 - q1
    den = u[0] * v[1] - u[1] * v[0]
    if abs(den) < 1e-6 * (np.hypot(*u) * np.hypot(*v) + 1e-6):
        return None
    s = ((q1[0] - p1[0]) * v[1] - (q1[1] - p1[1]) * v[0]) / den
    return (p1 + s * u).astype(np.float32)
