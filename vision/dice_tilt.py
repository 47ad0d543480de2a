"""A die's side face seen by a tilted camera, told from a second die beside its top.

A camera tilted away from straight down sees, beside each die's top, the side faces
that turn towards it. Each is foreshortened across the edge it shares with the top (its
short side points at the top's centre: a parallelogram hanging from that edge), and it
is in the shade: the lamp lights the tops of all dice alike and their sides less. A
second die lying beside the first shows its own top: seen square, and lit like the
first one's. A face of a Toss Up colour under half as bright as a lit top so near it is
in deep shade, whatever its shape (a side face run into the die's shadow): no die's top
lies nearer another's than a die's edge, and the lamp lights both alike. A dark die of
another game (black, navy) shows none of the Toss Up colours. Points are (x, y) working
pixels.
"""

from __future__ import annotations

import numpy as np

from vision.dice_faces import CLASS_NAMES, NONE, Face

HANG = 30.0  # degrees the side face's short side may stray from the way to the top
SHADE = 0.8  # a side face is darker than this share of the top's lit surface
DRAWN = 1.45  # least long/short ratio of a foreshortened face (a top is about 1)
DEEP = 0.5  # a face darker than this share of the top's lit surface is in deep shade


def lit_value(face: Face) -> float:
    """Brightness (HSV value) of a top's lit surface: a light die's body around its
    mark when measured (the mark itself is darker), else the face's own."""
    return face.body_value if face.body > 0 and face.body_value > 0 else face.value


def _colour(face: Face) -> int:
    """The colour class a face shows: its mark's, or its own."""
    return face.mark if face.mark != NONE else face.cls


def hangs_from(top: Face, other: Face, side: float) -> bool:
    """True when ``other`` is a side face of the die whose top is ``top``: nearer than
    a die's edge ``side``, darker than ``SHADE`` of the top's lit surface
    (``lit_value``), and drawn out (``DRAWN``) with its short side pointing at the
    top's centre (within ``HANG`` degrees), or of a Toss Up colour (its own or its
    mark's) and darker than ``DEEP`` of that surface, whatever its shape."""
    way = np.subtract(other.centre, top.centre)
    gap = float(np.hypot(*way))
    if gap >= side or gap == 0 or other.value >= SHADE * lit_value(top):
        return False
    if other.value < DEEP * lit_value(top) and _colour(other) in CLASS_NAMES:
        return True  # a Toss Up colour in deep shade, so near a lit top
    if other.aspect < DRAWN:
        return False
    e1, e2 = other.box[1] - other.box[0], other.box[2] - other.box[1]
    short = e1 if np.hypot(*e1) <= np.hypot(*e2) else e2
    cos = abs(float(np.dot(short, way))) / (float(np.hypot(*short)) * gap + 1e-9)
    return cos >= np.cos(np.radians(HANG))
