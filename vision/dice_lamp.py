"""The colour of a lamp that casts too strongly for ``white_gains``: from the light objects.

``dice_segment.white_gains`` takes the brightest near-grey pixels (chroma under 0.4) as
white. Under a warm bulb that the camera does not balance (3000-3500 K: blue at half of
red) a white die body is peach, chroma 0.5, nothing in the frame is grey, and the reader
took the bodies for yellow dice and the yellow marks for orange (the demo frames under
``bench/calibrate_dice.py --light warm``: 10 of 16 read).

A lamp's light lies near the blackbody locus; yellow, green and red faces lie far off it.
Small light objects that stand out above the table around them (die bodies, pips)
reflect the lamp's colour. The table itself need not be white (wood, beige and skin lie
on the locus in any light), so a pixel counts only when it is among the brightest of
the frame, brighter than the table around it, in a patch of die size (not a hand or a
lit stretch of table), with most of its neighbours alike (not a table's grain), and on
the locus (log chromaticity ln R/G, ln B/G). The coolest of them (white: whatever else on
the locus is warmer than white under any lamp) give the gains, unless a
light object is white to the top in all three channels (no strong cast) or their cast
is one ``white_gains`` sees itself.
"""

from __future__ import annotations

import functools

import numpy as np

import cv2

# The blackbody locus, 2500 K to 10000 K, as sRGB (gamma-encoded) (ln R/G, ln B/G):
# 2500, 3000, 3500, 4000, 5000, 6500, 8000, 10000 K.
_LOCUS = np.log(np.array([(255, 161, 72), (255, 180, 107), (255, 196, 137),
                          (255, 209, 163), (255, 228, 206), (255, 249, 253),
                          (227, 233, 255), (204, 219, 255)], np.float64))
_LOCUS = np.stack([_LOCUS[:, 0] - _LOCUS[:, 1], _LOCUS[:, 2] - _LOCUS[:, 1]], axis=1)


def lamp_gains(small: np.ndarray, *, top: float = 0.02, above_table: float = 1.2,
               max_object: float = 0.01, max_off: float = 0.12, spread: float = 0.15,
               min_cast: float = 0.3, max_gain: float = 2.0, min_pixels: int = 20
               ) -> np.ndarray | None:
    """(B, G, R) gains that make the lamp's colour grey (its brightest channel kept), or
    None when no light object tells it or the light is near grey already.

    Parameters
    ----------
    small : ndarray of shape (h, w, 3), uint8, BGR
        A sample of the frame (``dice_segment.quarter_sample``), best taken before an
        exposure gain (which clips light bodies).
    top : float
        Share of the sample's pixels, brightest first (grey level), that may be light
        objects.
    above_table : float
        A light object's pixel is this many times brighter than the median pixel (most
        of the frame is table) and than the median around it over about two dice (a die
        is gone from that median, a table's light and dark blotches are not).
    max_object : float
        Largest share of the frame one light patch may cover: a die, not a hand, an arm
        or a lit part of the table (skin and wood lie on the locus too).
    max_off : float
        Largest distance of a pixel's colour from the blackbody locus, in log
        chromaticity (0.1 is about a tenth off in R/G or B/G).
    spread : float
        Only pixels this close (ln B/G) to the coolest tenth of them count.
    min_cast : float
        A lamp whose white shows a chroma ((max - min) / max) under this is left to
        ``white_gains`` (it takes pixels under 0.4, one by one, as white).
    max_gain : float
        No channel is lifted more than this.
    min_pixels : int
        Fewer such pixels than this: no estimate.
    """
    grey = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY)
    hist = np.cumsum(cv2.calcHist([grey], [0], None, [256], [0, 256]).ravel())
    median = int(np.searchsorted(hist, 0.5 * grey.size))
    kth = int(np.searchsorted(hist, (1 - top) * grey.size))
    light = cv2.compare(grey, max(kth, int(above_table * median) + 1), cv2.CMP_GE)
    if cv2.countNonZero(light) < min_pixels:
        return None
    at = cv2.findNonZero(light).reshape(-1, 2)  # (x, y) points: quicker than np.nonzero
    ys, xs = at[:, 1], at[:, 0]
    pix = small[ys, xs].astype(np.int32)
    lo, hi = pix.min(axis=1), pix.max(axis=1)
    clipped = (pix >= 250).sum(axis=1)
    # a colour still measured (one channel clipped only makes the lamp look less
    # coloured than it is; two: no colour left), on the locus
    keep = (clipped < 2) & (lo >= 8) & _is_near_locus(pix, max_off)
    if np.count_nonzero(keep & (hi - lo >= min_cast * hi)) < min_pixels:
        return None  # (a cast this strong shows in that many pixels: most frames end here)
    _, parts, stats, _ = cv2.connectedComponentsWithStats(light, connectivity=8)
    h, w = grey.shape  # (the median around: at half size, over 5, the quicker)
    around = cv2.medianBlur(cv2.resize(grey, (w // 2, h // 2), interpolation=cv2.INTER_AREA), 5)
    objects = (stats[parts[ys, xs], cv2.CC_STAT_AREA] <= max_object * grey.size) & (
        grey[ys, xs] >= above_table * around[np.minimum(ys // 2, h // 2 - 1),
                                             np.minimum(xs // 2, w // 2 - 1)])
    if np.count_nonzero(objects & (clipped == 3)) >= min_pixels:
        return None  # white to the top in blue as in red: no strong cast
    keep &= objects
    if keep.sum() < min_pixels:
        return None
    # an object, not the grain of a table: most of its 3x3 neighbours are such pixels too
    ys, xs = ys[keep], xs[keep]
    lamp = np.zeros(grey.shape, np.uint8)
    lamp[ys, xs] = 1
    pix = pix[keep][cv2.boxFilter(lamp, -1, (3, 3), normalize=False)[ys, xs] >= 5]
    if len(pix) < min_pixels:
        return None
    # white is the coolest thing a lamp lights: wood, skin, brass and beige on the locus
    # are warmer than it under any lamp, so the coolest of them tell the lamp (those
    # within ``spread`` in ln B/G of the coolest tenth: white's own shading and noise)
    cool = _LOG[pix[:, 0]] - _LOG[pix[:, 1]]
    ref = pix[cool >= np.percentile(cool, 90) - spread / _RES].mean(axis=0)
    if 1 - ref.min() / ref.max() < min_cast:
        return None
    return np.clip(ref.max() / ref, 1.0, max_gain)


_RES = 0.02  # log chromaticity per step of the locus table
_LOG = np.round(np.log(np.maximum(np.arange(256), 1)) / _RES).astype(np.int32)
# the locus table's corner and size in steps: ln R/G from -0.5, ln B/G from -1.2 (the
# locus, 2500-10000 K, lies within -0.07..0.46 and -0.81..0.15); it is laid into a table
# of every step two values 1-255 can make (all False beyond it), so no index is clipped
_U0, _V0, _NU, _NV = -25, -60, 70, 90
_SPAN = int(_LOG[255])  # ln(255/1) in steps: the most a log ratio can be either way


def _is_near_locus(bgr: np.ndarray, max_off: float) -> np.ndarray:
    """Whether each colour of ``bgr`` ((n, 3) BGR ints 1-255) lies within ``max_off``
    of the locus in log chromaticity (ln R/G, ln B/G)."""
    logs = _LOG[bgr]
    g = logs[:, 1] - _SPAN  # (the table's offset taken in once)
    return _near_locus(max_off)[logs[:, 2] - g, logs[:, 0] - g]


@functools.lru_cache(maxsize=4)
def _near_locus(max_off: float) -> np.ndarray:
    """Boolean table over every step of (ln R/G, ln B/G), offset by ``_SPAN``: True
    within ``max_off`` of the locus."""
    u, v = np.meshgrid((np.arange(_NU) + _U0) * _RES, (np.arange(_NV) + _V0) * _RES,
                       indexing="ij")
    table = np.zeros((2 * _SPAN + 1, 2 * _SPAN + 1), bool)
    table[_SPAN + _U0:_SPAN + _U0 + _NU, _SPAN + _V0:_SPAN + _V0 + _NV] = (
        _off_locus(u.ravel(), v.ravel()) <= max_off).reshape(u.shape)
    return table


def _off_locus(u: np.ndarray, v: np.ndarray) -> np.ndarray:
    """Distance of log chromaticities (ln R/G, ln B/G) from the locus polyline."""
    p = np.stack([u, v], axis=-1)[:, None, :]  # (n, 1, 2)
    a, b = _LOCUS[:-1], _LOCUS[1:]
    d = b - a
    t = np.clip(((p - a) * d).sum(axis=2) / (d * d).sum(axis=1), 0.0, 1.0)
    return np.sqrt((((a + t[..., None] * d) - p) ** 2).sum(axis=2)).min(axis=1)
