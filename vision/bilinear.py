"""Exact bilinear sampling of an image at float positions, for OpenCV 4.x (vision.cvcompat).

OpenCV 4.x rounds a bilinear warp's source positions to 1/32 pixel; OpenCV 5 blends at the
exact position, and the card naming sits on margins that rounding moves. On 4.x cvcompat
samples here instead: the positions' integer parts and float32 weights are computed once,
the four neighbours are fetched by ``cv2.remap`` with ``INTER_NEAREST`` on integer maps (a
plain copy, which OpenCV does not round, borders included), and blended as OpenCV 5's
kernel does (``imgproc/src/warp_common.vector.hpp``: along x, then along y, each a fused
multiply-add in float32), so a uint8 warp gives OpenCV 5's bits where the positions are
OpenCV 5's (``cvcompat``). It is about 3x quicker than numpy fancy indexing.
Sources OpenCV cannot fetch that way (more than 4 channels, other dtypes, positions beyond
int16, a fill value the image's dtype cannot hold) take the numpy indexing path.
"""

from __future__ import annotations

import cv2
import numpy as np

_BORDERS = (cv2.BORDER_CONSTANT, cv2.BORDER_REPLICATE, cv2.BORDER_REFLECT)
_FETCHABLE = (np.uint8, np.uint16, np.int16, np.float32, np.float64)
_INT16_MAX = 32767
#: the four neighbours of a position, (dx, dy), in the order the blend adds them
_NEIGHBOURS = ((0, 0), (1, 0), (0, 1), (1, 1))


def sample_bilinear(src: np.ndarray, mx: np.ndarray, my: np.ndarray, border: int,
                    value: float | tuple[float, ...]) -> np.ndarray:
    """``src`` sampled at float positions (x ``mx``, y ``my``), blended from the four
    neighbours at the exact position; outside pixels repeat the edge (BORDER_REPLICATE),
    mirror the image (BORDER_REFLECT) or are ``value`` (BORDER_CONSTANT).

    src : ndarray (H, W) or (H, W, C), any numeric dtype. mx, my : float64 arrays of the
    output's shape, e.g. (h, w). Returns (h, w) or (h, w, C) of ``src``'s dtype (uint8
    rounded half to even and saturated, as OpenCV 5 does).

    :raises ValueError: ``border`` is none of the three above.
    """
    if border not in _BORDERS:
        raise ValueError(f"borderMode {border} is not supported here")
    h, w = src.shape[:2]
    every = bool(np.isfinite(mx).all() and np.isfinite(my).all())
    finite = None if every else np.isfinite(mx) & np.isfinite(my)
    reach = 1e6 if border == cv2.BORDER_REFLECT else 2.0  # only the edge matters otherwise
    mx = np.minimum(np.maximum(mx, -reach), w - 1 + reach)  # np.clip, with less overhead
    my = np.minimum(np.maximum(my, -reach), h - 1 + reach)
    if finite is not None:
        mx, my = np.where(finite, mx, -2.0), np.where(finite, my, -2.0)
    x0, y0 = np.floor(mx), np.floor(my)
    fx, fy = (mx - x0).astype(np.float32), (my - y0).astype(np.float32)
    # as OpenCV reads a number: the first channel's value, the others' 0
    fill = np.zeros(src.shape[2:], np.float32)
    if border == cv2.BORDER_CONSTANT:
        given = np.ravel(np.asarray(value, np.float32))[:max(1, fill.size)]
        fill.flat[:len(given)] = given
    taps = _fetched(src, x0, y0, border, fill)
    if taps is None:
        taps = _indexed(src, x0.astype(np.intp), y0.astype(np.intp), border, fill)
    out = _blend(taps, fx, fy)
    if finite is not None and border == cv2.BORDER_CONSTANT:
        out[~finite] = fill
    if src.dtype == np.uint8:
        np.rint(out, out=out)
        return np.minimum(np.maximum(out, 0), 255, out=out).astype(np.uint8)
    return out if src.dtype == np.float32 else out.astype(src.dtype)


def _blend(taps: np.ndarray, fx: np.ndarray, fy: np.ndarray) -> np.ndarray:
    """The four taps (4, ..., *channels), in the order of ``_NEIGHBOURS``, blended as OpenCV
    5 does: along x in each row, then along y, each step a fused multiply-add in float32
    (``top = p00 + fx * (p01 - p00)``, rounded once; ``fx``, ``fy``: float32, the right and
    lower taps' weights). A float32 fused multiply-add is done in float64 and rounded to
    float32: exact for integer images (the product and the sum fit float64's 53 bits)."""
    if taps.ndim > fx.ndim + 1:  # one weight per channel
        fx, fy = fx[..., None], fy[..., None]
    p = taps.astype(np.float32, copy=False)
    ax, ay = fx.astype(np.float64), fy.astype(np.float64)
    top = _fma32(ax, p[1] - p[0], p[0])
    bottom = _fma32(ax, p[3] - p[2], p[2])
    return _fma32(ay, bottom - top, top)


def _fma32(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> np.ndarray:
    """float32 ``a * b + c`` rounded once (``a`` float64 holding float32 values)."""
    out = a * b
    out += c
    return out.astype(np.float32)


def _fetched(src: np.ndarray, x0: np.ndarray, y0: np.ndarray, border: int,
             fill: np.ndarray) -> np.ndarray | None:
    """The four neighbours of the integer positions (``x0``, ``y0``: floats), fetched by
    OpenCV with the border rule, (4, ..., *channels) in the order of ``_NEIGHBOURS``; or
    None when OpenCV cannot fetch them exactly."""
    h, w = src.shape[:2]
    channels = src.shape[2] if src.ndim == 3 else 1
    rows = x0.shape[0] if x0.ndim == 2 else 1  # OpenCV maps are 2-D: others go as one row
    if (src.dtype.type not in _FETCHABLE or src.ndim not in (2, 3) or not 1 <= channels <= 4
            or 2 * max(h, w) + 2 > _INT16_MAX or x0.size == 0
            or max(4 * rows, x0.size // rows) >= _INT16_MAX):
        return None  # OpenCV's remap takes maps under 32767 pixels a side
    if border == cv2.BORDER_CONSTANT:
        if not np.array_equal(fill.astype(src.dtype).astype(np.float32), fill):
            return None  # a fill the image cannot hold (e.g. 0.5 in uint8) is blended as is
        value = tuple(float(v) for v in np.ravel(fill)) or (0.0,)
    else:
        value = (0.0,)
    if border == cv2.BORDER_REFLECT:  # reflection repeats every 2n pixels: into int16
        x0, y0 = np.mod(x0, 2 * w), np.mod(y0, 2 * h)
    # the four neighbours' maps one above the other: one remap fetches them all
    xs = np.empty((4, rows, x0.size // rows), np.int16)
    ys = np.empty_like(xs)
    for k, (dx, dy) in enumerate(_NEIGHBOURS):
        xs[k] = x0.reshape(xs.shape[1:]) + dx if k < 2 else xs[k - 2]
        ys[k] = y0.reshape(ys.shape[1:]) + dy if k % 2 == 0 else ys[k - 1]
    maps = cv2.merge([xs.reshape(4 * rows, -1), ys.reshape(4 * rows, -1)])
    taps = cv2.remap(src, maps, None, cv2.INTER_NEAREST, borderMode=border,
                     borderValue=value)
    return taps.reshape((4,) + x0.shape + src.shape[2:])


def _indexed(src: np.ndarray, x0: np.ndarray, y0: np.ndarray, border: int,
             fill: np.ndarray) -> np.ndarray:
    """The four neighbours as :func:`_fetched`, by numpy indexing (any dtype, float fill)."""
    h, w = src.shape[:2]
    extra = (1,) * (src.ndim - 2)
    taps = []
    for dx, dy in _NEIGHBOURS:
        xx, yy = x0 + dx, y0 + dy
        if border == cv2.BORDER_REFLECT:  # fedcba|abcdefgh|hgfedcb
            tap = src[_reflect(yy, h), _reflect(xx, w)]
        else:
            tap = src[np.clip(yy, 0, h - 1), np.clip(xx, 0, w - 1)]
        if border == cv2.BORDER_CONSTANT:
            outside = (xx < 0) | (xx >= w) | (yy < 0) | (yy >= h)
            tap = np.where(outside.reshape(outside.shape + extra), fill, tap)
        taps.append(tap)
    return np.stack(taps)


def _reflect(i: np.ndarray, n: int) -> np.ndarray:
    """Indices outside 0..n-1 mirrored back in, the edge pixel repeated (BORDER_REFLECT)."""
    j = np.mod(i, 2 * n)
    return np.where(j >= n, 2 * n - 1 - j, j)
