"""Tests for vision.dice_aslant: a light die's mark seen again on its side face."""

from __future__ import annotations

import numpy as np

import cv2

from tests.vision import dice_support as ds
from vision.dice_faces import GREEN, YELLOW
from vision.dice_pick import pick_tops
from vision.dice_aslant import foreshortened_marks

SIDE = 18.0


def _box(centre, size, angle=0.0) -> np.ndarray:
    return cv2.boxPoints((centre, size, angle)).astype(np.float32)


def _top_mark(**kw):
    # a light die's top mark measured with its light body (held-out seed 99 0016)
    base = dict(cls=GREEN, area=140.0, centre=(173.0, 31.0), box=_box((173.0, 31.0), (12, 12)),
                value=125.0, body=17.4, body_value=198.0, ring=0.9, pips=0.0, holes=0.02,
                corners=1.3, edge=150.0)
    return ds.face(**{**base, **kw})


def _side(**kw):
    # the same die's front side face's mark below it: darker, squashed along the way up
    base = dict(cls=GREEN, area=152.0, centre=(174.0, 50.0), box=_box((174.0, 50.0), (16, 9)),
                value=81.0, aspect=1.75, pips=0.0, holes=0.04, corners=1.6, edge=168.0)
    return ds.face(**{**base, **kw})


def test_a_darker_mark_squashed_towards_a_lit_mark_of_its_colour_is_its_side_face():
    top, side = _top_mark(), _side()
    assert foreshortened_marks([top, side], SIDE) == {id(side)}
    for other_die in (dict(value=120.0),  # lit alike: another die's top
                      dict(box=_box((174.0, 50.0), (9, 16)), aspect=1.75),  # squashed across
                      dict(box=_box((174.0, 50.0), (12, 12)), aspect=1.0),  # seen square
                      dict(cls=YELLOW),  # another colour: its brightness does not compare
                      dict(centre=(174.0, 60.0))):  # farther than a die and a quarter
        face = _side(**other_die)
        assert foreshortened_marks([top, face], SIDE) == set(), other_die


def test_the_top_is_picked_and_its_side_faces_mark_left_out():
    top, side = _top_mark(), _side()
    tops = pick_tops([top, side], SIDE, max_aspect=1.75, min_fill=0.62, top_area=SIDE * SIDE,
                     min_edge=40.0)
    assert [t.centre for t in tops] == [top.centre]
