"""Blotches of the table's grain: a plain, ragged patch whose outline is no edge.

Noise, grainy felt, a knot in wood or a soft patch of light make runs of one colour that
may be die-sized and well filled. A die's top is a crisp rounded square: its outline is
an edge that stands out of the picture's grain around it, and a face of it that holds no
pips or mark has a clean outline. A patch of the table is ragged and its outline's
gradient is what the grain gives anywhere near it. Points are (x, y) working pixels.
"""

from __future__ import annotations

import numpy as np

import cv2

from vision import dice_faces as faces_

_REACH = 1.5  # the grain is measured this many die edges around the face's centre


def grain_level(work: np.ndarray, centre: tuple[float, float], side: float) -> float:
    """The median gradient (``dice_faces.gradient``, 0-255) of ``work`` (H, W, 3) uint8
    BGR within ``_REACH`` die edges ``side`` of ``centre`` (x, y): what the table's
    grain and noise give an outline there."""
    r = max(2, int(round(_REACH * side)))
    x, y = int(round(centre[0])), int(round(centre[1]))
    crop = work[max(0, y - r):y + r + 1, max(0, x - r):x + r + 1]
    if crop.shape[0] < 3 or crop.shape[1] < 3:
        return 0.0
    grad = faces_.gradient(cv2.cvtColor(crop, cv2.COLOR_BGR2HSV))
    return float(np.median(grad))


def stands_out(edge: float, work: np.ndarray, centre: tuple[float, float], side: float, *,
               least: float = 1.3) -> bool:
    """True when an outline's gradient ``edge`` is at least ``least`` times the grain
    around ``centre`` (:func:`grain_level`): an edge, not the table's noise."""
    return edge >= least * grain_level(work, centre, side)


def is_grain_blotch(face: faces_.Face, work: np.ndarray, side: float, *,
                    max_corners: float = 1.75, least: float = 1.3) -> bool:
    """True for a patch of the table's grain, not a die's top: a face with no pips, no
    mark and no light body around it (nothing else vouches for a die), an outline more
    ragged than a die's rounded square (``corners`` over ``max_corners``), and an
    outline gradient (``edge``) under ``least`` times the grain around it
    (:func:`grain_level`; ``side`` a die's edge in ``work``'s pixels). A face of no Toss
    Up colour (another game's die) has only its outline to vouch for it: neither a
    rounded outline nor pips spare it."""
    if face.mark != faces_.NONE or face.body > 0:
        return False
    if face.cls in faces_.CLASS_NAMES and (face.corners <= max_corners
                                           or faces_.has_pips(face)):
        return False
    return not stands_out(face.edge, work, face.centre, side, least=least)
