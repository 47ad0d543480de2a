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
    return snap_quads([quad], gx, gy)[0]


def snap_quads(quads: list[np.ndarray], gx: np.ndarray, gy: np.ndarray) -> list[np.ndarray]:
    """:func:`snap_quad` of each quad (4, 2), every side of every quad searched at once."""
    if not quads:
        return []
    sides = np.stack([np.stack([q, np.roll(q, -1, axis=0)], axis=1) for q in quads])
    starts, ends = _snap_sides(sides[:, :, 0].reshape(-1, 2), sides[:, :, 1].reshape(-1, 2),
                               gx, gy)
    starts, ends = starts.reshape(len(quads), 4, 2), ends.reshape(len(quads), 4, 2)
    out = []
    for quad, p, q in zip(quads, starts, ends):
        snapped = quad.astype(np.float32).copy()
        for i in range(4):
            x = meet((p[i - 1], q[i - 1]), (p[i], q[i]))
            if x is not None and np.hypot(*(x - quad[i])) < 0.25 * np.hypot(
                    *(quad[1] - quad[0])) + 5:
                snapped[i] = x
        out.append(snapped)
    return out


def _snap_sides(p: np.ndarray, q: np.ndarray, gx: np.ndarray, gy: np.ndarray
                ) -> tuple[np.ndarray, np.ndarray]:
    """The best (start, end) of each side p-q (M, 2), each end moved along the side's
    normal to where the gradient across the side is strongest all along it."""
    d = q - p
    length = np.hypot(d[:, 0], d[:, 1]).astype(np.float32)  # (M,)
    n = np.stack([-d[:, 1], d[:, 0]], axis=1).astype(np.float32) / np.maximum(
        length, 1e-6)[:, None]
    shifts = np.linspace(-SNAP_BAND, SNAP_BAND, SNAP_STEPS, dtype=np.float32)[None] * length[
        :, None]  # (M, S)
    t = np.linspace(0.15, 0.85, SNAP_SAMPLES, dtype=np.float32)
    sp, sq = shifts[:, :, None, None], shifts[:, None, :, None]  # shifts of p and of q
    off = sp * (1 - t) + sq * t  # (M, S, S, T) offset along n
    base = p[:, None] + t[None, :, None] * d[:, None]  # (M, T, 2)
    px = base[:, None, None, :, 0] + off * n[:, None, None, None, 0]
    py = base[:, None, None, :, 1] + off * n[:, None, None, None, 1]
    h, w = gx.shape
    xi = np.clip(np.round(px).astype(np.int32), 0, w - 1)
    yi = np.clip(np.round(py).astype(np.int32), 0, h - 1)
    across = np.abs(gx[yi, xi] * n[:, None, None, None, 0] + gy[yi, xi] * n[:, None, None, None, 1])
    # a card side is an edge all along: the median resists a single strong crossing line
    score = np.median(across, axis=-1).reshape(len(p), -1)  # (M, S * S)
    best = np.argmax(score, axis=1)
    i, j = best // SNAP_STEPS, best % SNAP_STEPS
    top = score[np.arange(len(p)), best].astype(np.float64)
    # nothing stands out (or the side is too short to judge): keep the side
    move = (top >= 1.5 * np.median(score, axis=1).astype(np.float64) + 1e-3) & (length >= 8)
    rows = np.arange(len(p))
    new_p = p + shifts[rows, i][:, None] * n
    new_q = q + shifts[rows, j][:, None] * n
    return np.where(move[:, None], new_p, p), np.where(move[:, None], new_q, q)


def meet(a: tuple[np.ndarray, np.ndarray], b: tuple[np.ndarray, np.ndarray]
         ) -> np.ndarray | None:
    """Where line a (two points) crosses line b, or None when they are parallel."""
    (p1, p2), (q1, q2) = a, b
    u, v = p2 - p1, q2 - q1
    den = u[0] * v[1] - u[1] * v[0]
    if abs(den) < 1e-6 * (np.hypot(*u) * np.hypot(*v) + 1e-6):
        return None
    s = ((q1[0] - p1[0]) * v[1] - (q1[1] - p1[1]) * v[0]) / den
    return (p1 + s * u).astype(np.float32)
