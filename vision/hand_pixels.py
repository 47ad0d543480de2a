"""How the hand detector sees a frame: a small copy, its brightness and chromaticity.

:func:`measure` shrinks a frame and splits it into brightness and (g, r) chromaticity;
the masks say which pixels are of a colour rare in the frame (:func:`rare_mask`), of skin
(:func:`skin_mask`) or changed against the table picture (:func:`changed_mask`).
``vision.hand`` decides from them whether a hand is over the table.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

import cv2

from vision.frames import check_frame

if TYPE_CHECKING:
    from vision.hand import HandParams


def measure(frame: np.ndarray, width: int
            ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Shrink a frame to ``width`` and measure it: picture, chroma, brightness, clipped.

    The table picture is (h, w, 3) float32 (see ``hand.table_picture``), the (g, r)
    chromaticity (h, w, 2), the brightness (h, w) and the clipped mask (h, w) bool, all of a
    small copy of the frame. Brightness is scaled to a fixed median
    brightness, so a change of exposure moves every pixel alike. Colours are left alone: a
    grey-world balance would turn skin blue on green felt, and skin stays orange under
    warm, cool and dim light alike. A pixel is clipped when a channel reached 250.

    :raises ValueError: ``frame`` is not an (H, W, 3) uint8 image of at least 8x8 pixels.
    """
    check_frame(frame, min_side=8)
    small = _shrink(frame, width)
    grey = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY)
    counts = np.cumsum(cv2.calcHist([grey], [0], None, [256], [0, 256]).ravel())
    middle = float(np.searchsorted(counts, grey.size / 2))
    scale = 110.0 / max(8.0, middle)  # the median: a bright arm must not dim the table
    b, g, r = cv2.split(small.astype(np.float32))
    total = b + g + r
    inv = 1.0 / np.maximum(total, 1.0)
    chroma = np.dstack((g * inv, r * inv))  # (g, r) shares of each pixel's brightness
    bright = total * (scale / 3.0)
    picture = cv2.merge((bright, chroma[..., 0] * _CHROMA, chroma[..., 1] * _CHROMA))
    clipped = cv2.max(cv2.max(b, g), r) >= 250.0  # saturated: its change means little
    return picture, chroma, bright, clipped


_CHROMA = 250.0  # chromaticity (0-1) to the picture's scale: a skin-to-grey step is ~25


def _shrink(frame: np.ndarray, width: int) -> np.ndarray:
    """The frame at ``width`` pixels wide, each pixel the mean of the block it covers.

    Halving with bilinear sampling averages exact 2x2 blocks and costs a tenth of an
    area resize of the full frame.
    """
    h = max(8, round(frame.shape[0] * width / frame.shape[1]))
    small = frame
    while small.shape[1] >= 2 * width:
        small = cv2.resize(small, (small.shape[1] // 2, small.shape[0] // 2),
                           interpolation=cv2.INTER_LINEAR)
    if small.shape[:2] != (h, width):
        small = cv2.resize(small, (width, h), interpolation=cv2.INTER_AREA)
    return small


def rare_mask(chroma: np.ndarray, bright: np.ndarray, params: HandParams) -> np.ndarray:
    """Mask of pixels whose chromaticity is rare in this frame (so probably not table)."""
    bins = 32
    idx = np.minimum((chroma * bins).astype(np.int32), bins - 1)
    flat = idx[..., 1] * bins + idx[..., 0]  # r bin * bins + g bin
    lit = bright >= params.dark
    hist = np.bincount(flat[lit], minlength=bins * bins).astype(np.float32).reshape(bins, bins)
    order = np.argsort(hist, axis=None)[::-1]
    mass = np.cumsum(hist.reshape(-1)[order])
    keep = order[:int(np.searchsorted(mass, params.table_share * mass[-1])) + 1]
    common = np.zeros((bins, bins), np.uint8)
    common.reshape(-1)[keep] = 1
    near = cv2.dilate(common, _KERNEL).reshape(-1)  # a bin next to the table's is table too
    return (near[flat] == 0) & lit


def skin_mask(chroma: np.ndarray, bright: np.ndarray, params: HandParams) -> np.ndarray:
    """Mask of pixels in the skin locus: red above green above blue, not a saturated red."""
    g, r = chroma[..., 0], chroma[..., 1]
    b = 1.0 - r - g
    return ((r - g >= 0.03) & (b <= g + 0.03) & (r <= 0.62) & (g >= 0.22)
            & (bright >= params.dark * 0.6))


def changed_mask(picture: np.ndarray, table: np.ndarray, clipped: np.ndarray,
             params: HandParams) -> np.ndarray:
    """Mask of pixels that differ from the table picture (brightness counts half).

    The typical difference over the frame (its median, per channel) is taken off first: a
    change of exposure or of the light's colour moves the whole table, a hand only part.
    Not a change: a shadow (darker by up to half, same chromaticity), chromaticity where
    both are too dark to have any, and saturated pixels where the table was bright (a
    brighter exposure clips a glare spot unevenly).
    """
    diff = cv2.subtract(picture, table)
    offset = np.median(diff[::4, ::4].reshape(-1, 3), axis=0).astype(np.float32)
    dl, dg, dr = cv2.split(diff - offset)
    lit = cv2.max(picture[..., 0], table[..., 0]) >= params.dark
    hue2 = cv2.add(cv2.multiply(dg, dg), cv2.multiply(dr, dr)) * lit
    d2 = cv2.add(cv2.multiply(dl, dl) * 0.25, hue2)
    ratio = (table[..., 0] + dl) / np.maximum(table[..., 0], 1.0)
    shadow = (ratio >= 0.5) & (ratio < 1.0) & (hue2 < (0.4 * params.change) ** 2)
    glare = clipped & (table[..., 0] >= 170.0)
    return (d2 > params.change ** 2) & ~shadow & ~glare



_KERNEL = np.ones((3, 3), np.uint8)
