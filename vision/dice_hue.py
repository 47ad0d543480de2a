"""Plain dice of the cloth's colour class told from the cloth by a step of hue.

A red die on a red cloth is of the cloth's colour class, often no brighter than the
cloth and the same in grey, so neither the face finder nor the grey edges close its top.
Its plastic is still not the cloth's dye: its top is a few hue steps away from the
cloth around it (a pinker red on an orange-red cloth), and evenly so, as a top lit from
above is one even patch. The cloth's own hue wanders far less than that from its local
colour (its weave, its shading), and the die's side faces are of other colour classes
(or in shade). So the pixels of the cloth's class whose hue stands off the local cloth's
by more than the cloth's own spread, and that are not darker than the cloth (a top is
lit, a shadow is not), make a die-sized square patch where such a top is
(``hue_step_mask``), and nothing where there is only cloth; ``hue_step_dice`` keeps
the patches that are dice. Only tables of a Toss Up colour are looked at (the caller's
``cloth``); other tables read as before. Points are (x, y) working pixels.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING

import numpy as np

import cv2

from vision import dice_blobs as blobs_
from vision import dice_faces as faces_
from vision.dice_cells import is_lit_on_cloth

if TYPE_CHECKING:
    from vision.dice import DiceParams

MIN_STEP = 4  # least hue step (OpenCV hue, 0-180) told from the cloth, whatever its spread
SPREAD = 3.0  # ... and at least this many times the cloth's own 90th-percentile step
_STEP = 8  # the local cloth colour: the half-size crop shrunk this many times, median
#            filtered 5x5 (a die of up to 2 cells, 32 working pixels, covers 9 of 25 cells)
_SHADE = 12  # a top is not darker than the cloth around it by more than this (levels)


def hue_step_mask(half: np.ndarray, mask: np.ndarray, side: float, cloth: set[int], *,
                  classes: Callable[[np.ndarray], np.ndarray]) -> np.ndarray:
    """Pixels (0/255, ``half``'s size) of one of the ``cloth``'s colour classes whose hue
    stands off the local cloth's hue by ``MIN_STEP`` or more (and ``SPREAD`` times the
    cloth's own 90th-percentile step) and that are no darker than the cloth there, in and
    around the foreground ``mask`` (0/255, ``half``'s size; a die of edge ``side``, in
    ``half``'s pixels, and three cells beyond it). ``half`` is the BGR working image at
    half size; ``classes`` maps an HSV image to its colour class codes
    (``dice_faces.class_map``)."""
    out = np.zeros(mask.shape, np.uint8)
    x, y, w, h = cv2.boundingRect(mask)
    if not cloth or w == 0:
        return out
    pad = int(side) + 3 * _STEP
    x0, y0 = max(0, x - pad), max(0, y - pad)
    x1, y1 = min(mask.shape[1], x + w + pad), min(mask.shape[0], y + h + pad)
    if x1 - x0 < 5 * _STEP or y1 - y0 < 5 * _STEP:
        return out
    crop = half[y0:y1, x0:x1]
    size = ((x1 - x0) // _STEP, (y1 - y0) // _STEP)
    table = cv2.resize(cv2.medianBlur(cv2.resize(crop, size, interpolation=cv2.INTER_AREA), 5),
                       (x1 - x0, y1 - y0), interpolation=cv2.INTER_LINEAR)
    hsv = cv2.cvtColor(crop, cv2.COLOR_BGR2HSV)
    hue, _, val = cv2.split(hsv)
    t_hue, _, t_val = cv2.split(cv2.cvtColor(table, cv2.COLOR_BGR2HSV))
    apart = cv2.absdiff(hue, t_hue)
    step = cv2.min(apart, cv2.subtract(180, apart))  # hue is a circle of 180 steps
    cls = classes(hsv)
    ours = np.zeros_like(hue)
    for code in cloth:
        ours |= cv2.compare(cls, code, cv2.CMP_EQ)
    bare = cv2.bitwise_and(ours, cv2.bitwise_not(mask[y0:y1, x0:x1]))  # the cloth itself
    counts = cv2.calcHist([step], [0], bare, [181], [0, 181]).ravel()
    if counts.sum() == 0:
        return out
    spread = int(np.searchsorted(np.cumsum(counts), 0.9 * counts.sum()))  # its 90th pct
    least = max(MIN_STEP, SPREAD * spread)
    lit = cv2.compare(val, cv2.subtract(t_val, _SHADE), cv2.CMP_GE)
    found = ours & lit & cv2.compare(step, least, cv2.CMP_GE)
    out[y0:y1, x0:x1] = cv2.morphologyEx(found, cv2.MORPH_OPEN, np.ones((2, 2), np.uint8))
    return out


def hue_step_dice(mask: np.ndarray, work: np.ndarray, side: float,
                  taken: list[tuple[float, float]], cloth: set[int], *, params: DiceParams,
                  grid: float | None = None, half: np.ndarray | None = None
                  ) -> list[tuple[np.ndarray, tuple[float, float], np.ndarray, tuple[int, int]]]:
    """Plain dice of one of the ``cloth``'s colour classes told by their top's hue step.

    The parameters are ``dice_cells.cloth_dice``'s (but its ``edges``): the foreground
    ``mask`` and ``work`` at the working size, ``side`` in its pixels, the centres
    ``taken`` already, the table's Toss Up colour classes ``cloth``, ``params``, the
    checkered cloth's ``grid`` turn or None, and ``work`` at ``half`` size if at hand.
    Returns (box, centre, hsv, origin) as ``dice_blobs.square_blobs`` gives them: the
    die-sized squares of :func:`hue_step_mask` of one of the ``cloth``'s classes, lit
    like a top on the cloth of its colour (``dice_cells.is_lit_on_cloth``) and with the
    foreground (its side faces, its shadow) along part of its rim.
    """
    if not cloth:
        return []
    h, w = work.shape[:2]
    if half is None or half.shape[0] * 2 != h or half.shape[1] * 2 != w:
        half = cv2.resize(work[:h // 2 * 2, :w // 2 * 2], (w // 2, h // 2),
                          interpolation=cv2.INTER_AREA)
    classes = partial(faces_.class_map, hue_edges=params.hue_edges, min_sat=params.min_sat,
                      light_value=params.light_value, min_value=params.min_value)
    small = cv2.resize(mask, (half.shape[1], half.shape[0]), interpolation=cv2.INTER_NEAREST)
    tops = hue_step_mask(half, small, side / 2, cloth, classes=classes)
    contours, _ = cv2.findContours(tops, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    if not contours:
        return []

    def is_top(box: np.ndarray, hsv: np.ndarray, origin: tuple[int, int]) -> bool:
        code, share = blobs_.blob_colour(classes(hsv), box - np.asarray(origin))
        return (code in cloth and share >= 0.7 and is_lit_on_cloth(work, box, params)
                and _rim_share(box, mask) >= RIM)

    return blobs_.square_blobs(mask, work, side, taken, grid=grid, min_pips=float("inf"),
                               plain_die=is_top, contours=tuple(c * 2 for c in contours))


RIM = 0.15  # least share of a top's rim its side faces and shadow (the foreground) cover
_RIM = (1.1, 1.34)  # its rim: from 5% to 17% of its edge out on each side (the box, from a
#                     half-size map, may be a working pixel off the top's own outline)


def _rim_share(box: np.ndarray, mask: np.ndarray) -> float:
    """Share of the rim of ``box`` (4, 2; ``_RIM`` of it about its centre) that the
    foreground ``mask`` (0/255) covers."""
    c = box.mean(axis=0)
    ring = np.zeros(mask.shape, np.uint8)
    cv2.fillConvexPoly(ring, np.round((box - c) * _RIM[1] + c).astype(np.int32), 255)
    cv2.fillConvexPoly(ring, np.round((box - c) * _RIM[0] + c).astype(np.int32), 0)
    return cv2.countNonZero(cv2.bitwise_and(ring, mask)) / max(1, cv2.countNonZero(ring))
