"""A die's side face under a tilted camera, told from a second die (``dice_tilt``)."""

from __future__ import annotations

import numpy as np

import cv2

from tests.vision import dice_support as ds
from vision.dice_faces import GREEN, GREY, LIGHT, NONE, YELLOW
from vision.dice_pick import _same_die
from vision.dice_tilt import hangs_from, lit_value


def _strip(centre, long, short, angle):
    """A face's box (4, 2): ``long`` by ``short`` pixels, its long side at ``angle``."""
    return cv2.boxPoints((centre, (long, short), angle)).astype(np.float32)


def test_a_shaded_face_drawn_out_towards_the_top_hangs_from_it():
    # a light die's top (its mark measured with a body 30 pixels wide, lit 220) and,
    # below it, a yellow side face 30 by 14 pixels: its short side points at the top
    top = ds.face(cls=LIGHT, mark=1, body=30.0, body_value=220.0, value=130.0)
    assert lit_value(top) == 220.0  # the body, not the darker mark
    side = ds.face(cls=YELLOW, centre=(100.0, 122.0), box=_strip((100.0, 122.0), 30, 14, 0.0),
                   aspect=30 / 14, value=125.0, area=380.0)
    assert hangs_from(top, side, 30.0)
    assert _same_die(top, side, 30.0)
    # not: lit like the top (a second die's top), seen square, lying beside the top
    # with its long side pointing at it, or further than a die's edge
    assert not hangs_from(top, ds.face(**{**vars(side), "value": 200.0}), 30.0)
    assert not hangs_from(top, ds.face(**{**vars(side), "aspect": 1.1}), 30.0)
    across = _strip((100.0, 122.0), 30, 14, 90.0)
    assert not hangs_from(top, ds.face(**{**vars(side), "box": across}), 30.0)
    far = (100.0, 135.0)
    assert not hangs_from(top, ds.face(**{**vars(side), "centre": far}), 30.0)



def test_a_toss_up_colour_in_deep_shade_beside_a_lit_top_is_its_side_whatever_its_shape():
    # a green top lit 107 and, 16 pixels off (a die is 21.6), a square run bigger than
    # it, a grey body around a green mark at 44: the die's side face run into its
    # shadow, not a second die (no two tops lie nearer than a die's edge)
    top = ds.face(value=107.0, area=428.0, centre=(561.0, 142.0))
    box = _strip((547.0, 150.0), 23, 23, 20.0)
    shade = ds.face(cls=GREY, mark=GREEN, value=44.0, area=528.0, centre=(547.0, 150.0),
                    box=box, whole=True, corners=1.63)
    assert hangs_from(top, shade, 21.6)
    assert _same_die(top, shade, 21.6)
    # not: lit more than half as well, or a dark die of another game (no Toss Up colour)
    assert not hangs_from(top, ds.face(**{**vars(shade), "value": 60.0}), 21.6)
    assert not hangs_from(top, ds.face(**{**vars(shade), "mark": NONE}), 21.6)
