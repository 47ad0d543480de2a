"""The colour of a light die found only as a blob: its mark's.

A Toss Up die with a light body carries a coloured mark on each face, and its colour is
the mark's (``dice_faces`` names a light face so). The blob finders name a die by the
colour covering most of its middle, which for such a die is the light body: named here
by the mark instead when one Toss Up colour covers a mark's share of the middle.
"""

from __future__ import annotations

import numpy as np

import cv2

from vision.dice_faces import CLASS_NAMES, GREY, LIGHT


def light_body_mark(cls_map: np.ndarray, box: np.ndarray, code: int, *,
                    least: float = 0.1) -> int:
    """The class code to name a blob by: ``code`` (the class covering most of its
    middle, ``dice_blobs.blob_colour``), or when that is a light or grey body, the Toss
    Up colour class covering at least ``least`` of the middle (the inner 0.6 of ``box``,
    (4, 2) (x, y) in ``cls_map``'s pixels), if one does: the die's mark."""
    if code not in (LIGHT, GREY):
        return code
    c = box.mean(axis=0)
    sel = np.zeros(cls_map.shape, np.uint8)
    cv2.fillConvexPoly(sel, ((box - c) * 0.6 + c).astype(np.int32), 1)
    counts = np.bincount(cls_map[sel > 0], minlength=8)
    total = max(1, int(counts.sum()))
    mark = max(CLASS_NAMES, key=lambda k: counts[k])
    return mark if counts[mark] >= least * total else code
