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
  are computed the way OpenCV 5 does them (its float32 positions, its float32 blend,
  rounded half to even; ``vision/bilinear.py``); nearest-neighbour sampling is left to
  OpenCV.
- ``approxPolyDP``: OpenCV 4.13 and 5 measure a point's distance to the chord's segment,
  earlier ones to its line; on those it is done here as 5 does (``vision/polydp.py``).
"""

from __future__ import annotations

from typing import Callable

import cv2
import numpy as np

from vision.bilinear import sample_bilinear
from vision.polydp import approx_poly_dp as _approx_poly_dp

LOG_SILENT = 0
LOG_ERROR = 2
#: OpenCV before 5 blends warps at positions rounded to 1/32 pixel.
QUANTISED_WARPS = int(cv2.__version__.split(".")[0]) < 5
_BILINEAR = (cv2.INTER_LINEAR, cv2.INTER_AREA)  # a warp with INTER_AREA is bilinear


def _segment_dp() -> bool:
    """Does this OpenCV's approxPolyDP measure to the chord's segment (4.13, 5), not its
    line? A point beyond the chord's end, on its line, tells."""
    curve = np.array([[[0, 0]], [[30, 0]], [[10, 0]]], np.int32)
    return len(cv2.approxPolyDP(curve, 1.0, False)) == 3


#: approxPolyDP measures a point's distance to the chord's segment, as vision expects.
SEGMENT_DP = _segment_dp()


def approx_poly_dp(curve: np.ndarray, epsilon: float, closed: bool) -> np.ndarray:
    """``cv2.approxPolyDP`` of int32 points as OpenCV 5 does it on every version (earlier
    ones measure to the chord's line: ``vision/polydp.py``)."""
    if SEGMENT_DP or np.asarray(curve).dtype != np.int32:
        return cv2.approxPolyDP(curve, epsilon, closed)
    return _approx_poly_dp(curve, epsilon, closed)


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
    cases sampled exactly: each output pixel where the inverse map sends it."""
    if not QUANTISED_WARPS or flags & ~cv2.WARP_INVERSE_MAP not in _BILINEAR:
        return opencv(src, m, dsize, flags=flags, borderMode=border, borderValue=value)
    return sample_bilinear(src, *_positions(m, dsize, flags), border, value)


#: Output pixels OpenCV 5's warp kernels take at a time (two vectors of 8 float32 lanes:
#: AVX2, the developers' x86-64); the last ``width % 16`` of a row are done one by one.
WARP_STEP = 16


def _positions(m: np.ndarray, dsize: tuple[int, int], flags: int
               ) -> tuple[np.ndarray, np.ndarray]:
    """Where each pixel of a (width, height) ``dsize`` output of the warp ``m`` (2x3 or 3x3,
    float64) samples its source, as OpenCV 5 works it out: x and y, each (height, width),
    float64 arrays of float32 values.

    OpenCV 5 (``imgproc/src/warp_kernels.simd.hpp``) takes the inverse map in float32. For
    each row y it adds ``y * m1 + m2`` (float32), then each pixel's ``m0 * x`` to that by a
    fused multiply-add, and divides by the perspective's divisor, made alike; the pixels of
    a row past the last whole ``WARP_STEP`` take ``m0 * x`` fused with ``y * m1``, then add
    ``m2``. Same inverse map, same float32 operations: same positions, so the same blend
    gives the same bits.
    """
    inv = m if m.shape == (3, 3) else np.vstack([m, [0.0, 0.0, 1.0]])
    if not flags & cv2.WARP_INVERSE_MAP:
        inv = np.linalg.inv(inv)
    k = inv.astype(np.float32).astype(np.float64)  # float32 values, float64 for the fma
    width = dsize[0]
    xs = np.arange(width, dtype=np.float64)[None, :]
    ys = np.arange(dsize[1], dtype=np.float64)[:, None]
    whole = width - width % WARP_STEP

    def row(a: float, b: float, c: float) -> np.ndarray:
        """``a * x + b * y + c`` for every pixel, in OpenCV 5's float32 operations."""
        by = _f32(b * ys)
        out = np.empty((len(ys), width), np.float64)
        out[:, :whole] = _f32(a * xs[:, :whole] + _f32(by + c))  # fma(a, x, by + c)
        out[:, whole:] = _f32(_f32(a * xs[:, whole:] + by) + c)  # fma(x, a, by) + c
        return out

    mx, my = row(*k[0]), row(*k[1])
    if inv[2].tolist() != [0.0, 0.0, 1.0]:  # perspective (an affine map's divisor is 1)
        den = row(*k[2])
        with np.errstate(divide="ignore", invalid="ignore"):
            mx, my = _f32(mx / den), _f32(my / den)
    return mx, my


def _f32(x: np.ndarray) -> np.ndarray:
    """``x`` rounded to float32, kept as float64."""
    return np.asarray(x, np.float32).astype(np.float64)


def remap(src: np.ndarray, map_x: np.ndarray, map_y: np.ndarray, interpolation: int, *,
          borderMode: int = cv2.BORDER_CONSTANT,
          borderValue: float | tuple[float, ...] = 0) -> np.ndarray:
    """``cv2.remap`` (float maps) with OpenCV 5's bilinear blend on every version."""
    if not QUANTISED_WARPS or interpolation not in _BILINEAR:
        return cv2.remap(src, map_x, map_y, interpolation, borderMode=borderMode,
                         borderValue=borderValue)
    return sample_bilinear(src, map_x.astype(np.float64), map_y.astype(np.float64),
                           borderMode, borderValue)
