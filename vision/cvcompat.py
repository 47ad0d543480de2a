"""The one place where vision copes with the OpenCV and numpy versions it runs on.

The companion runs on a developer's pip wheels (OpenCV 5, numpy 2) and on a Raspberry Pi's
own apt packages (Bookworm: OpenCV 4.6 + numpy 1.24; Trixie: OpenCV 4.10 + numpy 2.2),
which picamera2 needs. Where they differ, vision calls this module instead of guessing;
``.ci/run`` runs the OpenCV paths on the Pi's pinned versions to prove it.

- Log level: OpenCV 4.x has ``cv2.setLogLevel``/``cv2.getLogLevel``; OpenCV 5 has only
  ``cv2.utils.logging``. Both take the same numbers (0 silent ... 2 error ... 6 verbose).
- Bilinear warps and remaps: OpenCV 4.x rounds every source position to 1/32 pixel
  (``INTER_BITS``) and blends in fixed point; OpenCV 5 blends at the exact position. On a
  card face that moved 5% of the pixels by one level and 100% of float pixels by up to 0.3,
  enough to change which face a worn card is named as on a Pi. On 4.x the bilinear cases
  are computed here in numpy the way OpenCV 5 does them (exact positions, float blend,
  rounded half to even); nearest-neighbour sampling is left to OpenCV.
"""

from __future__ import annotations

from typing import Callable

import cv2
import numpy as np

LOG_SILENT = 0
LOG_ERROR = 2
#: OpenCV before 5 blends warps at positions rounded to 1/32 pixel.
QUANTISED_WARPS = int(cv2.__version__.split(".")[0]) < 5
_BILINEAR = (cv2.INTER_LINEAR, cv2.INTER_AREA)  # a warp with INTER_AREA is bilinear


def set_log_level(level: int) -> int:
    """Set OpenCV's log level (``LOG_SILENT``, ``LOG_ERROR``...); return the previous one."""
    logging = getattr(getattr(cv2, "utils", None), "logging", None)
    if logging is not None and hasattr(logging, "setLogLevel"):
        previous = logging.getLogLevel()
        logging.setLogLevel(level)
    else:
        previous = cv2.getLogLevel()
        cv2.setLogLevel(level)
    return int(previous)


def warp_perspective(src: np.ndarray, m: np.ndarray, dsize: tuple[int, int], *,
                     flags: int = cv2.INTER_LINEAR, borderMode: int = cv2.BORDER_CONSTANT,
                     borderValue: float | tuple[float, ...] = 0) -> np.ndarray:
    """``cv2.warpPerspective`` with OpenCV 5's bilinear blend on every version."""
    return _warp(cv2.warpPerspective, src, np.asarray(m, np.float64), dsize, flags,
                 borderMode, borderValue)


def warp_affine(src: np.ndarray, m: np.ndarray, dsize: tuple[int, int], *,
                flags: int = cv2.INTER_LINEAR, borderMode: int = cv2.BORDER_CONSTANT,
                borderValue: float | tuple[float, ...] = 0) -> np.ndarray:
    """``cv2.warpAffine`` with OpenCV 5's bilinear blend on every version."""
    return _warp(cv2.warpAffine, src, np.asarray(m, np.float64), dsize, flags, borderMode,
                 borderValue)


def _warp(opencv: Callable[..., np.ndarray], src: np.ndarray, m: np.ndarray,
          dsize: tuple[int, int], flags: int, border: int,
          value: float | tuple[float, ...]) -> np.ndarray:
    """``opencv`` (warpPerspective or warpAffine) itself, or on OpenCV 4.x its bilinear
    cases in numpy: each output pixel samples the source where the inverse map sends it."""
    if not QUANTISED_WARPS or flags & ~cv2.WARP_INVERSE_MAP not in _BILINEAR:
        return opencv(src, m, dsize, flags=flags, borderMode=border, borderValue=value)
    inv = m if m.shape == (3, 3) else np.vstack([m, [0.0, 0.0, 1.0]])
    if not flags & cv2.WARP_INVERSE_MAP:
        inv = np.linalg.inv(inv)
    ys, xs = np.mgrid[0:dsize[1], 0:dsize[0]].astype(np.float64)
    den = inv[2, 0] * xs + inv[2, 1] * ys + inv[2, 2]
    den = np.where(den == 0, np.inf, 1.0 / np.where(den == 0, 1, den))
    mx = (inv[0, 0] * xs + inv[0, 1] * ys + inv[0, 2]) * den
    my = (inv[1, 0] * xs + inv[1, 1] * ys + inv[1, 2]) * den
    return _bilinear(src, mx, my, border, value)


def remap(src: np.ndarray, map_x: np.ndarray, map_y: np.ndarray, interpolation: int, *,
          borderMode: int = cv2.BORDER_CONSTANT,
          borderValue: float | tuple[float, ...] = 0) -> np.ndarray:
    """``cv2.remap`` (float maps) with OpenCV 5's bilinear blend on every version."""
    if not QUANTISED_WARPS or interpolation not in _BILINEAR:
        return cv2.remap(src, map_x, map_y, interpolation, borderMode=borderMode,
                         borderValue=borderValue)
    return _bilinear(src, map_x.astype(np.float64), map_y.astype(np.float64), borderMode,
                     borderValue)


def _bilinear(src: np.ndarray, mx: np.ndarray, my: np.ndarray, border: int,
              value: float | tuple[float, ...]) -> np.ndarray:
    """``src`` sampled at float positions (x ``mx``, y ``my``), blended from the four
    neighbours; outside pixels repeat the edge (BORDER_REPLICATE), mirror the image
    (BORDER_REFLECT) or are ``value``."""
    if border not in (cv2.BORDER_CONSTANT, cv2.BORDER_REPLICATE, cv2.BORDER_REFLECT):
        raise ValueError(f"borderMode {border} is not supported here")
    h, w = src.shape[:2]
    finite = np.isfinite(mx) & np.isfinite(my)
    reach = 1e6 if border == cv2.BORDER_REFLECT else 2.0  # only the edge matters otherwise
    mx = np.where(finite, np.clip(mx, -reach, w - 1 + reach), -2.0)
    my = np.where(finite, np.clip(my, -reach, h - 1 + reach), -2.0)
    x0, y0 = np.floor(mx), np.floor(my)
    fx, fy = (mx - x0).astype(np.float32), (my - y0).astype(np.float32)
    x0, y0 = x0.astype(np.intp), y0.astype(np.intp)
    # as OpenCV reads a number: the first channel's value, the others' 0
    fill = np.zeros(src.shape[2:], np.float32)
    given = np.ravel(np.asarray(value, np.float32))[:max(1, fill.size)]
    fill.flat[:len(given)] = given
    extra = (1,) * (src.ndim - 2)
    out = np.zeros(mx.shape + src.shape[2:], np.float32)
    for dy, wy in ((0, 1 - fy), (1, fy)):
        for dx, wx in ((0, 1 - fx), (1, fx)):
            xx, yy = x0 + dx, y0 + dy
            if border == cv2.BORDER_REFLECT:  # fedcba|abcdefgh|hgfedcb
                tap = src[_reflect(yy, h), _reflect(xx, w)]
            else:
                tap = src[np.clip(yy, 0, h - 1), np.clip(xx, 0, w - 1)]
            if border == cv2.BORDER_CONSTANT:
                outside = (xx < 0) | (xx >= w) | (yy < 0) | (yy >= h)
                tap = np.where(outside.reshape(outside.shape + extra), fill, tap)
            # only the sampled pixels become float, not the whole source frame
            out += (wx * wy).reshape(wx.shape + extra) * tap.astype(np.float32)
    if not finite.all() and border == cv2.BORDER_CONSTANT:
        out[~finite] = fill
    if src.dtype == np.uint8:
        return np.clip(np.rint(out), 0, 255).astype(np.uint8)
    return out.astype(src.dtype)


def _reflect(i: np.ndarray, n: int) -> np.ndarray:
    """Indices outside 0..n-1 mirrored back in, the edge pixel repeated (BORDER_REFLECT)."""
    j = np.mod(i, 2 * n)
    return np.where(j >= n, 2 * n - 1 - j, j)
