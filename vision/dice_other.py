"""Faces of no Toss Up colour: another game's die, or a piece of the table.

A face with no Toss Up colour, no mark and no light body around it is read as a die of
another game (``other``). Nothing but its shape and its outline vouches for it, so two
things a die of another game never is are left out:

- a streak of a coloured table: a face in the very tint of a coloured table around it
  (wood, felt, a cloth's colour), however much lighter, is the table lit more or its
  lighter grain (a light streak of dark wood, a lit patch between the fingers of a hand).
  On a grey or white table a white or black die has the table's (neutral) tint, so the
  table must be coloured: at least twice the tint tolerance away from grey, which puts a
  face within the tolerance of it away from grey too (no white, grey or black die);
- a patch of the grain: a face whose outline does not stand out of the table's grain
  around it (``dice_grain.is_grain_blotch``, which asks it of every ``other`` face); a
  die's top of a Toss Up colour has its colour to vouch for it, an ``other`` face only
  its outline.

Points are (x, y) working pixels; colours BGR.
"""

from __future__ import annotations

import numpy as np

from vision.dice_faces import CLASS_NAMES, NONE, Face
from vision.dice_pick import TINT  # the same tint as ``dice_pick.is_table_tint``


def is_other(face: Face) -> bool:
    """True for a face that would be read as another game's die: no Toss Up colour,
    no mark and no light body around it."""
    return face.cls not in CLASS_NAMES and face.mark == NONE and face.body == 0


def is_table_streak(face: Face, table_bgr: np.ndarray | tuple[float, float, float]) -> bool:
    """True for an ``other`` face in the tint of the coloured table around it (BGR
    ``table_bgr``), however bright: a streak of the table, not a die."""
    if not is_other(face):
        return False
    t = [float(c) + 1.0 for c in table_bgr]
    f = [float(c) + 1.0 for c in face.bgr]
    ts, fs = sum(t), sum(f)
    grey = sum(abs(c / ts - 1.0 / 3.0) for c in t)
    return grey >= 2 * TINT and sum(abs(a / fs - b / ts) for a, b in zip(f, t)) < TINT

