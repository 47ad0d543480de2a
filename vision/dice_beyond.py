"""Light dice made of a cloth's own colours: found by their marks away from the blobs.

A light die whose mark has the colour of a cloth's coloured squares (a white die with
red stars on a red and white check or gingham) is made only of the cloth's colours: its
body is the light squares' colour, its mark the coloured squares'. The table model
(``dice_segment``) takes every pixel of it for cloth, so it makes no foreground blob, or
a speck of its shadow, and the face finder, which looks only near the blobs, never
looks at it. Its mark ringed by a light body that ends at the die's edge still tells it
(``dice_marks.find_marks``). So on a cloth whose dominant colours are light and a Toss Up
colour (``is_light_and_coloured``) marks are looked for away from the blobs too
(``marks_beyond``), and two things the cloth's squares are and a die's mark is not leave
them out:

- a pattern: four or more alike in turn and size are squares of the cloth, since dice
  land at random turns (``dice_blobs.drop_pattern``, as for blobs);
- big: a die's mark (a pip-sized spot to a star) covers under a quarter of its top, a
  coloured patch as big as a top is a square of the cloth, or squares run together
  (``is_mark_sized``, asked once the typical die is known).

Points are (x, y) working pixels.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from vision import dice_faces as faces_
from vision.dice_blobs import drop_pattern

MARK_SHARE = 0.25  # a mark covers at most this share of its die's top (side squared)


def is_light_and_coloured(classes: set[int]) -> bool:
    """True for a table whose dominant colour classes (``dice_cloth.table_classes``)
    hold a light one and a Toss Up colour: a light die with a mark of that colour may
    be all cloth to the table model."""
    return faces_.LIGHT in classes and bool(classes & faces_.CLASS_NAMES.keys())


def marks_beyond(find: Callable[[np.ndarray], list[faces_.Face]], near: np.ndarray,
                 origin: tuple[int, int]) -> list[faces_.Face]:
    """Mark faces found away from the blobs, those that make no pattern.

    Parameters
    ----------
    find : the mark finder of a region: given a (H, W) uint8 mask of where to look
        (255), the mark faces there (``dice_marks.find_marks`` on the ROI)
    near : (H, W) uint8 mask, 0/255, of the ROI where faces were already looked for
    origin : the ROI's top-left corner (x, y) in working pixels

    Returns
    -------
    list of Face whose centre lies outside ``near``, four or more alike left out
    """
    h, w = near.shape
    beyond = [f for f in find(np.full_like(near, 255))
              if not near[min(h - 1, max(0, int(f.centre[1]) - origin[1])),
                          min(w - 1, max(0, int(f.centre[0]) - origin[0]))]]
    return [f for _, f in drop_pattern([(f.box, f) for f in beyond])]


def is_mark_sized(face: faces_.Face, side: float) -> bool:
    """True when a mark face (working pixels) covers at most ``MARK_SHARE`` of a top
    of the typical die's ``side``."""
    return face.area <= MARK_SHARE * side * side
