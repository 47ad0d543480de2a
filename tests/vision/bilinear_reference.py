"""The bilinear warp of OpenCV 5 in plain numpy, on whole grids (its float32 positions and
its float32 blend: along x, then along y, each a fused multiply-add): the reference that
vision.bilinear's quicker path and vision.cvcompat's positions must equal bit for bit."""

from __future__ import annotations

import cv2
import numpy as np


def warp(src: np.ndarray, m: np.ndarray, dsize: tuple[int, int], flags: int, border: int,
         value: float | tuple[float, ...]) -> np.ndarray:
    """A bilinear warpAffine/warpPerspective (``m`` 2x3 or 3x3) on whole float64 grids."""
    m = np.asarray(m, np.float64)
    inv = m if m.shape == (3, 3) else np.vstack([m, [0.0, 0.0, 1.0]])
    if not flags & cv2.WARP_INVERSE_MAP:
        inv = np.linalg.inv(inv)
    k = inv.astype(np.float32)
    ys, xs = np.mgrid[0:dsize[1], 0:dsize[0]].astype(np.float32)
    tail = xs >= dsize[0] - dsize[0] % 16  # OpenCV 5 does these pixels one by one

    def f32(x):
        return np.asarray(x, np.float32)

    def fma(a, b, c):  # float32 a * b + c, rounded once
        return f32(np.float64(a) * np.float64(b) + np.float64(c))

    def row(a, b, c):
        return np.where(tail, f32(fma(xs, a, ys * b) + c), fma(a, xs, f32(ys * b) + c))

    mx, my = row(*k[0]), row(*k[1])
    if inv[2].tolist() != [0.0, 0.0, 1.0]:
        with np.errstate(divide="ignore", invalid="ignore"):
            den = row(*k[2])
            mx, my = mx / den, my / den
    mx, my = mx.astype(np.float64), my.astype(np.float64)
    return bilinear(src, mx, my, border, value)


def bilinear(src: np.ndarray, mx: np.ndarray, my: np.ndarray, border: int,
             value: float | tuple[float, ...]) -> np.ndarray:
    """``src`` sampled at float positions by numpy fancy indexing, four taps blended."""
    h, w = src.shape[:2]
    finite = np.isfinite(mx) & np.isfinite(my)
    reach = 1e6 if border == cv2.BORDER_REFLECT else 2.0
    mx = np.where(finite, np.clip(mx, -reach, w - 1 + reach), -2.0)
    my = np.where(finite, np.clip(my, -reach, h - 1 + reach), -2.0)
    x0, y0 = np.floor(mx), np.floor(my)
    fx, fy = (mx - x0).astype(np.float32), (my - y0).astype(np.float32)
    x0, y0 = x0.astype(np.intp), y0.astype(np.intp)
    fill = np.zeros(src.shape[2:], np.float32)
    given = np.ravel(np.asarray(value, np.float32))[:max(1, fill.size)]
    fill.flat[:len(given)] = given
    extra = (1,) * (src.ndim - 2)
    taps = []
    for dy, dx in ((0, 0), (0, 1), (1, 0), (1, 1)):
        xx, yy = x0 + dx, y0 + dy
        if border == cv2.BORDER_REFLECT:
            tap = src[_reflect(yy, h), _reflect(xx, w)]
        else:
            tap = src[np.clip(yy, 0, h - 1), np.clip(xx, 0, w - 1)]
        if border == cv2.BORDER_CONSTANT:
            outside = (xx < 0) | (xx >= w) | (yy < 0) | (yy >= h)
            tap = np.where(outside.reshape(outside.shape + extra), fill, tap)
        taps.append(tap.astype(np.float32))
    ax = fx.reshape(fx.shape + extra).astype(np.float64)
    ay = fy.reshape(fy.shape + extra).astype(np.float64)
    top = (ax * (taps[1] - taps[0]) + taps[0]).astype(np.float32)
    bottom = (ax * (taps[3] - taps[2]) + taps[2]).astype(np.float32)
    out = (ay * (bottom - top) + top).astype(np.float32)
    if not finite.all() and border == cv2.BORDER_CONSTANT:
        out[~finite] = fill
    if src.dtype == np.uint8:
        return np.clip(np.rint(out), 0, 255).astype(np.uint8)
    return out.astype(src.dtype)


def _reflect(i: np.ndarray, n: int) -> np.ndarray:
    j = np.mod(i, 2 * n)
    return np.where(j >= n, 2 * n - 1 - j, j)
