"""Whether the top faces found explain the whole foreground: then nothing is left to find.

After the face finder, ``dice.read_dice`` looks for the dice it missed in three more ways
(``dice_blobs``: clean square blobs and the squares closed by edges, ``dice_piles``: the
peaks of piles, and pip groups at two sizes; ``dice_cells``: plain dice of the cloth's
colour), together about a fifth of a frame's time. Each of them finds a die in something
that lies on the table and is not yet explained by a top face found:

- a blob of the foreground holding no top face (a plain die, a die of another set, or
  only its pips where its body is the table's colour: a white die on a white table);
- a blob much bigger than the dice whose tops it holds (a pile, touching dice, a die of
  the cloth's colour beside another die, its side faces and shadow).

A die hides in neither when every blob holds a top face, and no more than a few dice's
worth of foreground (a die's blob is its top, its side faces seen aslant and its shadow)
for each top in it. Points are (x, y) working pixels.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

import cv2

PER_TOP = 3.0  # most foreground (die faces) a blob holds for each top face in it


def is_explained(contours: Sequence[np.ndarray], centres: Sequence[tuple[float, float]],
                 side: float) -> bool:
    """True when the top faces at ``centres`` (x, y) explain every foreground blob.

    Parameters
    ----------
    contours : outer outlines of the foreground mask's blobs (``dice_measure.outer_contours``;
        the mask's holes are filled, so an outline's area is its blob's)
    centres : centres (x, y) of the top faces found, working pixels
    side : die edge length in working pixels

    Returns
    -------
    bool
        True when every blob holds a top face and none holds more than ``PER_TOP`` die
        faces per top in it: no die can be left to find.
    """
    face = max(1.0, side * side)
    pts = np.asarray(centres, np.float64).reshape(-1, 2)
    for cnt in contours:
        x, y, w, h = cv2.boundingRect(cnt)
        inside = pts[(pts[:, 0] >= x) & (pts[:, 0] < x + w)
                     & (pts[:, 1] >= y) & (pts[:, 1] < y + h)]
        tops = sum(1 for px, py in inside
                   if cv2.pointPolygonTest(cnt, (float(px), float(py)), False) >= 0)
        if tops == 0 or cv2.contourArea(cnt) > PER_TOP * tops * face:
            return False
    return True
