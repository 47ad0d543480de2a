"""The exact bilinear warp as vision.cvcompat first did it (session 12), in plain numpy: the
reference that vision.bilinear's quicker path must equal bit for bit."""

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
    ys, xs = np.mgrid[0:dsize[1], 0:dsize[0]].astype(np.float64)
    den = inv[2, 0] * xs + inv[2, 1] * ys + inv[2, 2]
    den = np.where(den == 0, np.inf, 1.0 / np.where(den == 0, 1, den))
    mx = (inv[0, 0] * xs + inv[0, 1] * ys + inv[0, 2]) * den
    my = (inv[1, 0] * xs + inv[1, 1] * ys + inv[1, 2]) * den
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
    out = np.zeros(mx.shape + src.shape[2:], np.float32)
    for dy, wy in ((0, 1 - fy), (1, fy)):
        for dx, wx in ((0, 1 - fx), (1, fx)):
            xx, yy = x0 + dx, y0 + dy
            if border == cv2.BORDER_REFLECT:
                tap = src[_reflect(yy, h), _reflect(xx, w)]
            else:
                tap = src[np.clip(yy, 0, h - 1), np.clip(xx, 0, w - 1)]
            if border == cv2.BORDER_CONSTANT:
                outside = (xx < 0) | (xx >= w) | (yy < 0) | (yy >= h)
                tap = np.where(outside.reshape(outside.shape + extra), fill, tap)
            out += (wx * wy).reshape(wx.shape + extra) * tap.astype(np.float32)
    if not finite.all() and border == cv2.BORDER_CONSTANT:
        out[~finite] = fill
    if src.dtype == np.uint8:
        return np.clip(np.rint(out), 0, 255).astype(np.uint8)
    return out.astype(src.dtype)


def _reflect(i: np.ndarray, n: int) -> np.ndarray:
    j = np.mod(i, 2 * n)
    return np.where(j >= n, 2 * n - 1 - j, j)
