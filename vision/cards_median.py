"""Medians of 8-bit values by counting: ``np.median`` of a card's Lab channels, exactly.

The light-proof features of a card (``cards_match.features``, ``cards_batch.features_many``)
take each card's chroma relative to its median colour. The Lab channels are whole numbers
(OpenCV's 8-bit Lab), so their median is one of 256 values or the midpoint of two: it is
found by counting each value (a histogram) instead of partitioning float copies, the same
number ``np.median`` gives (``(a + b) / 2`` of two whole numbers is exact in float32) at a
fraction of the cost (``np.median`` along an axis of interleaved channels copies and
partitions each one; a cold frame takes ~40 such medians).
"""

from __future__ import annotations

import numpy as np

__all__ = ["median_u8"]


def median_u8(values: np.ndarray) -> np.ndarray:
    """``np.median(values.astype(np.float32), axis=-1)`` of uint8 ``values``, exactly.

    Parameters
    ----------
    values : ndarray of shape (..., M), uint8
        M >= 1 values per median (any strides).

    Returns
    -------
    ndarray of shape (...), float32
        Each median: the middle value, or the midpoint of the two middle values when M is
        even.

    :raises ValueError: ``values`` is not uint8 or holds no value per median.
    """
    if values.dtype != np.uint8 or values.ndim < 1 or values.shape[-1] < 1:
        raise ValueError(f"values must be uint8 of shape (..., M >= 1), got {values.dtype} "
                         f"{values.shape}")
    m = values.shape[-1]
    flat = values.reshape(-1, m)
    rows = len(flat)
    # one histogram of 256 bins per median, all in one count
    bins = (flat + (np.arange(rows) * 256)[:, None]).ravel()
    counts = np.bincount(bins, minlength=rows * 256).reshape(rows, 256).cumsum(axis=1)
    low = (counts > (m - 1) // 2).argmax(axis=1).astype(np.float32)
    high = (counts > m // 2).argmax(axis=1).astype(np.float32)
    return ((low + high) / 2).reshape(values.shape[:-1])
