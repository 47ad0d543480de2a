"""Choosing top faces (``vision.dice_pick``) on face candidates made in the test."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from tests.vision.dice_support import face
from vision.dice import read_dice
from vision.dice_faces import GREEN, GREY, HUE, LIGHT, RED, Face
from vision.dice_pick import (is_doubtful_top, is_table_like, may_be_coin, pick_tops,
                              unclaimed)
from vision.imageio import read_image

SCENES = Path(__file__).resolve().parents[1] / "data" / "dice-scenes"


def test_a_mark_ringed_all_round_by_its_light_body_is_not_the_cloth():
    # a green mark on a light die lying on a green and white check: the mark is the
    # cloth's colour and has no pips, but its own light body rings it all round
    table = np.array([90.0, 160.0, 75.0])
    mark = dict(area=50.0, holes=0.0, pips=0.0, max_hole=0.0, bgr=(88.0, 160.0, 71.0),
                body=21.0, body_value=235.0)
    assert not is_table_like(face(**mark, ring=1.0), table, True)
    # a green square of the cloth meets the next green squares at its corners
    assert is_table_like(face(**mark, ring=0.6), table, True)
    # a green spot without a light body around it is a blotch of the cloth
    assert is_table_like(face(**dict(mark, body=0.0), ring=1.0), table, True)


def test_only_faces_of_the_tables_colours_make_its_repeating_pattern():
    # five light dice with a green mark on green felt, turned alike by chance: no
    # pattern of the cloth, whose dominant colours hold no light class
    kw = dict(max_aspect=1.75, min_fill=0.62, top_area=900.0, min_edge=40.0)
    square = np.array([[-15, -15], [15, -15], [15, 15], [-15, 15]], np.float32)
    places = [(100.0, 100.0), (230.0, 140.0), (170.0, 260.0), (320.0, 300.0), (60.0, 380.0)]
    dice = [face(cls=LIGHT, mark=GREEN, bgr=(240.0, 245.0, 240.0), value=245.0,
                 centre=at, box=square + at) for at in places]
    assert pick_tops(dice, 30.0, **kw) == []  # without the table's colours: a pattern
    assert len(pick_tops(dice, 30.0, **kw, cloth={GREEN, GREY})) == 5
    # the light squares of a light and green check are the cloth's pattern
    assert pick_tops(dice, 30.0, **kw, cloth={GREEN, LIGHT}) == []


def _ragged_run(**kw) -> Face:
    """A ragged green run taken whole (no bright core), in shade."""
    box = np.array([[88, 112], [118, 112], [118, 140], [88, 140]], np.float32)
    base = dict(area=900.0, centre=(103.0, 126.0), box=box, aspect=1.3, fill=0.7,
                value=80.0, corners=1.9, whole=True, holes=0.15, pips=40.0, max_hole=0.1)
    return face(**{**base, **kw})


def test_a_ragged_run_taken_whole_is_doubtful():
    assert is_doubtful_top(_ragged_run())
    assert not is_doubtful_top(_ragged_run(whole=False))  # it had a bright core
    assert not is_doubtful_top(_ragged_run(corners=1.45))  # a die's rounded square
    assert not is_doubtful_top(_ragged_run(cls=LIGHT))
    assert is_doubtful_top(_ragged_run(cls=GREY, mark=GREEN))  # a shaded side's mark


def test_a_darker_ragged_run_nearer_than_two_dice_can_lie_is_a_side_face():
    kw = dict(max_aspect=1.75, min_fill=0.62, top_area=900.0, min_edge=40.0)
    top = face(cls=RED, bgr=(40.0, 40.0, 200.0), value=200.0)
    # its centre 27 pixels from the top's, dice 30 pixels wide: the die's side face
    # and its shadow, not a die lying against it
    assert [t.cls for t in pick_tops([top, _ragged_run()], 30.0, **kw)] == [RED]
    apart = _ragged_run(centre=(103.0, 136.0), box=_ragged_run().box + [0, 10])
    assert len(pick_tops([top, apart], 30.0, **kw)) == 2  # a die lying next to it
    lit = _ragged_run(value=220.0)  # brighter than the top: no side face in shade
    assert len(pick_tops([top, lit], 30.0, **kw)) == 2


def test_a_doubtful_face_yields_to_a_die_found_there_otherwise():
    face = _ragged_run()
    assert unclaimed([face], [(300.0, 300.0)], 30.0) == [face]
    assert unclaimed([face], [(95.0, 120.0)], 30.0) == []
    assert unclaimed([face], [(103.0, 152.0)], 30.0) == []  # closer than a die's edge


def test_a_side_face_does_not_hide_the_top_found_by_its_pips():
    # a red die with light pips on a red and white check: its top runs into a red
    # square of the cloth, and its green side face, in shade, runs into its shadow
    frame = read_image(SCENES / "img" / "0102.jpg")[:160, :200]
    reading = read_dice(frame)
    assert reading.counts() == (0, 0, 1, 0)
    (die,) = reading.dice
    assert abs(die.centre[0] - 79) < 6 and abs(die.centre[1] - 43) < 6


def test_a_smaller_ragged_face_lying_against_a_top_is_cut_off_by_it():
    kw = dict(max_aspect=1.75, min_fill=0.62, top_area=900.0, min_edge=40.0)
    top = face(value=120.0)
    box = np.array([[116, 92], [128, 92], [128, 108], [116, 108]], np.float32)
    # a bright red piece of a check beside a green die, its outline ragged
    piece = face(cls=RED, bgr=(60.0, 60.0, 170.0), area=500.0, centre=(122.0, 100.0),
                  box=box, aspect=1.33, value=170.0, corners=2.1, whole=False)
    assert [t.cls for t in pick_tops([top, piece], 30.0, **kw)] == [GREEN]
    square = face(**{**piece.__dict__, "corners": 1.4})  # a die's rounded square
    assert len(pick_tops([top, square], 30.0, **kw)) == 2


def test_only_a_round_face_of_no_toss_up_colour_and_no_mark_may_be_a_coin():
    # the image then tells (``dice_coins.is_coin``): its outline is an ellipse or not
    assert may_be_coin(face(cls=LIGHT, corners=1.21, holes=0.19))  # a relief, not pips
    assert may_be_coin(face(cls=HUE, corners=1.25))
    assert not may_be_coin(face(cls=LIGHT, corners=1.38))  # a square's corners
    assert not may_be_coin(face(cls=LIGHT, corners=1.21, mark=GREEN))  # a light die's mark
    assert not may_be_coin(face(cls=RED, corners=1.21))
