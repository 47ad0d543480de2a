"""The die size the reader takes from its face candidates (``dice_pick.die_side``)."""

from __future__ import annotations

import numpy as np

from tests.vision.dice_support import face
from vision.dice_pick import die_side
from vision.dice_faces import RED, YELLOW

_KW = dict(max_aspect=1.75, min_fill=0.62, min_edge=40.0)


def _square(side: float, cls: int, x: float) -> object:
    half = side / 2
    box = np.array([[-half, -half], [half, -half], [half, half], [-half, half]],
                   np.float32) + [x, 100.0]
    return face(cls=cls, area=side * side, centre=(x, 100.0), box=box)


def test_pieces_far_smaller_than_the_dice_do_not_set_the_die_size():
    # red dice on a red cloth broken up by their pips give pieces a third of a die
    # wide; the crisp yellow faces are the dice
    pieces = [_square(s, RED, 40.0 * i) for i, s in enumerate((10.0, 10.5, 11.0))]
    faces = [_square(s, YELLOW, 200.0 + 40.0 * i) for i, s in enumerate((27.0, 28.0))]
    assert abs(die_side(pieces + faces, 40.0, **_KW) - 27.5) < 0.01
    # sizes of one set of dice, near and far: the median
    near_far = [_square(s, YELLOW, 40.0 * i) for i, s in enumerate((20.0, 24.0, 26.0, 30.0))]
    assert abs(die_side(near_far, 40.0, **_KW) - 25.0) < 0.01
