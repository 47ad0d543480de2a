"""Tests for vision.dice_grain: blotches of the table's grain are no dice."""

from __future__ import annotations

import numpy as np

import cv2

from tests.vision import dice_support as ds
from vision.dice_blobs import square_blobs
from vision.dice_faces import GREEN, GREY, RED
from vision.dice_grain import grain_level, is_grain_blotch

FELT = (40, 120, 35)


def test_the_grain_is_what_the_table_gives_an_outline_around_a_point():
    grainy, clean = (ds.table(colour=FELT, noise=n) for n in (20.0, 2.0))
    assert grain_level(grainy, (100.0, 100.0), 30.0) > 3 * grain_level(clean, (100.0, 100.0), 30.0)
    assert grain_level(grainy, (0.0, 0.0), 30.0) > 0  # at the frame's corner too


def test_a_plain_ragged_patch_whose_outline_is_the_grains_is_no_die():
    # held-out renders (seed 5 0057 dim, 0080 noise): a lit patch of grainy green felt,
    # die-sized and well filled, read as a green die: ragged (corners 1.8-2.1), no pips
    # that stand out, its outline's gradient what the felt's grain gives (ratio 1.0);
    # a die's top stands out of the grain, or is crisp, or has pips or a mark
    frame = ds.table(colour=FELT, noise=20.0)
    grain = grain_level(frame, (100.0, 100.0), 30.0)
    patch = dict(cls=GREEN, corners=2.0, pips=20.0, holes=0.25, max_hole=0.1,
                 edge=grain)
    assert is_grain_blotch(ds.face(**patch), frame, 30.0)
    for die_like in (dict(edge=2 * grain), dict(corners=1.4), dict(pips=60.0, max_hole=0.04),
                     dict(mark=RED), dict(body=25.0)):
        assert not is_grain_blotch(ds.face(**{**patch, **die_like}), frame, 30.0), die_like
    # the same outline on a clean table is an edge
    assert not is_grain_blotch(ds.face(**patch), ds.table(colour=FELT, noise=2.0), 30.0)


def test_an_other_face_whose_outline_is_the_tables_grain_is_no_die():
    # study renders 6202 0059 (dark wood), 6203 0057 (dim): an "other" face whose
    # outline's gradient is 0.9-1.1 times the grain around it; another game's dice
    # stand out of it 1.9 times and more (renders and the studied half of the photos)
    frame = ds.table(colour=(120, 125, 130), noise=20.0)
    grain = grain_level(frame, (100.0, 100.0), 30.0)
    patch = dict(cls=GREY, mark=0, edge=grain)
    assert is_grain_blotch(ds.face(**patch), frame, 30.0)
    assert not is_grain_blotch(ds.face(**{**patch, "edge": 2 * grain}), frame, 30.0)
    assert not is_grain_blotch(ds.face(**{**patch, "cls": RED}), frame, 30.0)
    assert not is_grain_blotch(ds.face(**patch), ds.table(colour=(120, 125, 130), noise=2.0),
                               30.0)


def test_a_square_blob_of_the_grain_is_no_die_but_a_drawn_die_on_it_is():
    # held-out renders (seed 99 0077, seed 9001 0077, noise on stone): a die-sized,
    # square blob of the foreground in the grain, its outline gradient as strong as
    # the grain's anywhere (ratio 1.0; dice's outlines 1.6 and more), its noise a
    # "pips" contrast: read as an "other" die
    frame = ds.table(colour=(140, 135, 150), noise=10.0, seed=3)
    mask = np.zeros(frame.shape[:2], np.uint8)
    cv2.fillConvexPoly(mask, np.round(ds.square((200.0, 200.0), 30, 20)).astype(np.int32), 255)
    assert square_blobs(mask, frame, 30.0, []) == []
    die = ds.die(frame.copy(), (200.0, 200.0), 30, ds.WHITE, angle=20, pips=5,
                 pip_colour=(30, 30, 30), shadow=False)
    assert len(square_blobs(mask, die, 30.0, [])) == 1
