"""Choosing top faces (``vision.dice_pick``) on face candidates made in the test."""

from __future__ import annotations

import numpy as np

from vision.dice_faces import GREEN, Face
from vision.dice_pick import is_table_like


def _face(**kw) -> Face:
    """A crisp green die-sized face candidate, with the fields in ``kw`` changed."""
    base = dict(cls=GREEN, area=900.0, centre=(100.0, 100.0),
                box=np.array([[85, 85], [115, 85], [115, 115], [85, 115]], np.float32),
                aspect=1.0, fill=0.88, value=200.0, holes=0.1, mark=0, agree=0.9,
                bgr=(40.0, 180.0, 40.0), ring=0.0, edge=150.0, pips=60.0, max_hole=0.04,
                corners=1.38)
    base.update(kw)
    return Face(**base)


def test_a_mark_ringed_all_round_by_its_light_body_is_not_the_cloth():
    # a green mark on a light die lying on a green and white check: the mark is the
    # cloth's colour and has no pips, but its own light body rings it all round
    table = np.array([90.0, 160.0, 75.0])
    mark = dict(area=50.0, holes=0.0, pips=0.0, max_hole=0.0, bgr=(88.0, 160.0, 71.0),
                body=21.0, body_value=235.0)
    assert not is_table_like(_face(**mark, ring=1.0), table, True)
    # a green square of the cloth meets the next green squares at its corners
    assert is_table_like(_face(**mark, ring=0.6), table, True)
    # a green spot without a light body around it is a blotch of the cloth
    assert is_table_like(_face(**dict(mark, body=0.0), ring=1.0), table, True)
