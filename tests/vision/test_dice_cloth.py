"""Tests for vision.dice_cloth: a checkered cloth's grid and squares."""

from __future__ import annotations

import numpy as np

import cv2

from tests.vision import dice_support as ds
from vision.dice import DiceParams
from vision.dice_cloth import cloth_grid, is_cloth_square, table_classes
from vision.dice_faces import GREEN, LIGHT, RED, YELLOW
from vision.dice_segment import table_model


def _check(turn: float, noise: float, cell: int = 24) -> np.ndarray:
    """A red and white check turned by ``turn`` degrees, with grain of ``noise`` levels."""
    ys, xs = np.mgrid[0:480, 0:640].astype(np.float32)
    c, s = np.cos(np.radians(turn)), np.sin(np.radians(turn))
    u, v = (xs * c + ys * s) // cell, (-xs * s + ys * c) // cell
    red = ((u + v) % 2 == 0)[..., None]
    frame = np.where(red, np.float32([60, 50, 200]), np.float32([215, 215, 230]))
    frame += np.random.default_rng(1).normal(0, noise, frame.shape)
    return np.clip(frame, 0, 255).astype(np.uint8)


def test_the_tables_classes_are_those_of_its_model_asked_again_or_not():
    red, white = (table_model(cv2.cvtColor(f, cv2.COLOR_BGR2YCrCb)) for f in (
        _check(0, 0)[::8, ::8], np.full((60, 80, 3), 225, np.uint8)))
    params = DiceParams()
    first = table_classes(red, params)
    assert RED in first and LIGHT in first
    first.clear()  # the caller's own set
    assert table_classes(red, params) == {RED, LIGHT}
    assert RED not in table_classes(white, params)
    assert RED in table_classes(red, params)


def test_the_grid_of_a_clean_check_is_measured():
    assert abs(cloth_grid(_check(20, 5)) - 20) <= 4


def test_the_grid_of_a_grainy_check_is_measured_on_the_averaged_frame():
    # the grain spreads the picked pixels' edge turns over all angles (a dim frame's
    # noise, 0205); averaged over 4x4 pixels the check's edges show again
    assert abs(cloth_grid(_check(20, 25)) - 20) <= 4
    assert abs(cloth_grid(_check(65, 25)) - 65) <= 4


def test_a_grainy_plain_table_has_no_grid():
    rng = np.random.default_rng(2)
    assert cloth_grid(np.clip(rng.normal(120, 30, (480, 640, 3)), 0, 255).astype(np.uint8)) is None


def test_two_light_squares_joined_at_a_corner_with_a_red_one_between_are_cloth():
    # on a grey and dark red check, two grey squares meeting at a corner make one run
    # along the grid's diagonal, with the red squares' corners between them as a "mark"
    # off its middle (0205); a light die's top holds its mark in its middle
    check = np.zeros((60, 80, 3), np.uint8)
    check[:, :40] = (120, 120, 125)
    check[:, 40:] = (40, 30, 120)
    model = table_model(cv2.cvtColor(check, cv2.COLOR_BGR2YCrCb))
    diagonal = np.array([[100, 79], [121, 100], [100, 121], [79, 100]], np.float32)
    run = ds.face(cls=LIGHT, mark=RED, box=diagonal, corners=2.0, mark_off=0.21,
                  bgr=(120.0, 120.0, 125.0), agree=0.68)
    params = DiceParams()
    assert is_cloth_square(run, 0.0, params, model, 30.0)
    assert not is_cloth_square(run, 20.0, params, model, 30.0)  # the grid turned otherwise
    for die_like in (dict(mark_off=0.05), dict(corners=1.4)):  # mark in its middle; crisp
        assert not is_cloth_square(ds.face(**{**dict(cls=LIGHT, mark=RED, box=diagonal,
                                                     corners=2.0, mark_off=0.21,
                                                     bgr=(120.0, 120.0, 125.0)),
                                              **die_like}), 0.0, params, model, 30.0)


def test_a_ragged_run_of_the_checks_colour_mostly_of_other_colours_is_cloth():
    # a red square's pieces joined by a die's shadow and side faces: taken whole (no
    # bright core), ragged, and under 0.6 of it red; a die's dim top is mostly its colour
    check = np.zeros((60, 80, 3), np.uint8)
    check[:, :40] = (215, 215, 230)
    check[:, 40:] = (60, 50, 200)
    model = table_model(cv2.cvtColor(check, cv2.COLOR_BGR2YCrCb))
    turned = np.array([[85, 90], [112, 85], [117, 112], [90, 117]], np.float32)  # 11 deg
    run = ds.face(cls=RED, whole=True, corners=2.0, agree=0.37, box=turned, mark_off=0.0,
                  bgr=(70.0, 60.0, 150.0))
    params = DiceParams()
    assert is_cloth_square(run, 0.0, params, model, 30.0)
    assert not is_cloth_square(run, None, params, model, 30.0)  # no check: a plain cloth
    for die_like in (dict(agree=0.8), dict(whole=False), dict(corners=1.5),
                     dict(cls=GREEN, bgr=(40.0, 150.0, 50.0))):  # not the cloth's colour
        assert not is_cloth_square(ds.face(**{**dict(cls=RED, whole=True, corners=2.0,
                                                     agree=0.37, box=turned,
                                                     bgr=(70.0, 60.0, 150.0)),
                                              **die_like}), 0.0, params, model, 30.0)


def test_a_piece_of_a_check_along_the_grids_lines_is_cloth_at_any_turn():
    # 0109: a red check's corner cut off by a die, its outline on the grid's lines
    # (its rectangle aslant the grid: the turn alone does not tell); a die of the
    # cloth's colour hides the lines under it, its outline runs on its own edges
    frame = _check(0.0, 3, cell=30)
    model = table_model(cv2.cvtColor(frame, cv2.COLOR_BGR2YCrCb))
    params = DiceParams()
    aslant = cv2.boxPoints(((105.0, 105.0), (20.0, 20.0), 30.0))
    piece = np.array([[90, 90], [120, 90], [120, 105], [105, 120], [90, 120]], np.int32)
    face = ds.face(cls=RED, box=aslant, bgr=(60.0, 50.0, 200.0), outline=piece)
    assert is_cloth_square(face, 0.0, params, model, 20.0, frame)
    assert not is_cloth_square(face, 0.0, params, model, 20.0)  # without the picture
    assert not is_cloth_square(ds.face(cls=GREEN, box=aslant, outline=piece), 0.0, params,
                               model, 20.0, frame)  # no colour of the cloth's
    # a light square with a die's yellow side face reaching in (0178, dev renders): its
    # light body bounds it, the "mark" is no colour of the cloth's; a light die's mark
    # sits in the middle of its top (its body may run into the light square it lies on)
    light = dict(cls=LIGHT, mark=YELLOW, box=aslant, bgr=(215.0, 215.0, 230.0),
                 outline=piece, area=400.0)
    assert is_cloth_square(ds.face(**light, mark_off=0.3), 0.0, params, model, 20.0, frame)
    # (the light die drawn there: a check with nothing on it recurs all round, a tile)
    lying = ds.die(frame.copy(), (105.0, 105.0), 20.0, (215, 215, 230), angle=30.0,
                   mark=(20, 200, 230))
    assert not is_cloth_square(ds.face(**light, mark_off=0.05, centre=(105.0, 105.0)), 0.0,
                               params, model, 20.0, lying)
    die = frame.copy()
    cv2.fillConvexPoly(die, np.round(cv2.boxPoints(((165.0, 105.0), (24.0, 24.0), 30.0))
                                     ).astype(np.int32), (40, 40, 45))
    top = np.round(cv2.boxPoints(((165.0, 105.0), (20.0, 20.0), 30.0))).astype(np.int32)
    cv2.fillConvexPoly(die, top, (60, 50, 200))
    assert not is_cloth_square(ds.face(cls=RED, box=top.astype(np.float32),
                                       bgr=(60.0, 50.0, 200.0), outline=top,
                                       centre=(165.0, 105.0)),
                               0.0, params, model, 20.0, die)


def test_a_side_face_reaching_into_a_light_check_is_no_light_dies_mark():
    # 0178: a green die lies on the edge of a light square, its yellow side face reaching
    # into it; the square with the side face in it reads as a light face with a yellow
    # "mark" near its middle. A light die's mark has its body all round it; the side
    # face touches the square's edge, the die's green top lies past it
    frame = _check(0.0, 3, cell=30)
    model = table_model(cv2.cvtColor(frame, cv2.COLOR_BGR2YCrCb))
    params = DiceParams()
    square = np.array([[90, 60], [119, 60], [119, 89], [90, 89]], np.int32)  # light
    side_face = frame.copy()
    side_face[52:98, 66:90] = (40, 150, 45)  # the die's green top, beyond the square
    side_face[62:88, 90:101] = (20, 200, 230)  # its yellow side face, in the square
    marked = frame.copy()
    marked[68:81, 98:111] = (20, 200, 230)  # a light die's mark, in its middle
    for picture, at, cloth in ((side_face, (95.0, 75.0), True), (marked, (104.0, 74.0), False)):
        face = ds.face(cls=LIGHT, mark=YELLOW, box=square.astype(np.float32), area=900.0,
                       bgr=(215.0, 215.0, 230.0), outline=square, mark_off=0.1,
                       centre=(104.5, 74.5),
                       spots=((YELLOW, *at, 0.15),))
        assert is_cloth_square(face, 0.0, params, model, 20.0, picture) is cloth


def test_a_round_mark_of_the_checks_colour_ringed_by_its_body_is_a_light_dies():
    # held-out renders (seed 5 0096, seed 9001 0010): a light die's round red mark on a
    # red and white check; a round outline's rectangle lies at any turn, often the
    # grid's, so the turn does not tell it from a red square ringed by light ones. A
    # square meets the squares of its colour at its corners: the light ring around it
    # is broken there (ring under 0.9), the mark's body rings it all round
    model = table_model(cv2.cvtColor(_check(0.0, 0)[::8, ::8], cv2.COLOR_BGR2YCrCb))
    params = DiceParams()
    square = np.array([[94, 94], [106, 94], [106, 106], [94, 106]], np.float32)  # at 0 deg
    mark = dict(cls=RED, area=130.0, box=square, bgr=(60.0, 50.0, 200.0), body=19.0,
                body_value=210.0, pips=0.0, holes=0.0, corners=1.16)
    assert not is_cloth_square(ds.face(**mark, ring=1.0), 0.0, params, model, 20.0)
    assert is_cloth_square(ds.face(**mark, ring=0.75), 0.0, params, model, 20.0)


def test_a_square_of_the_checks_colour_ringed_by_glare_far_wider_than_a_die_is_cloth():
    # fresh render seed 6101 0092: glare whitens the checks all round a green square;
    # the light ring around it measures a body 2.3 dice wide, no light die's
    model = table_model(cv2.cvtColor(_check(0.0, 0)[::8, ::8], cv2.COLOR_BGR2YCrCb))
    params = DiceParams()
    square = np.array([[94, 94], [106, 94], [106, 106], [94, 106]], np.float32)  # at 0 deg
    mark = dict(cls=RED, area=130.0, box=square, bgr=(60.0, 50.0, 200.0), ring=1.0,
                body_value=210.0, pips=0.0, holes=0.0, corners=1.37)
    assert is_cloth_square(ds.face(**mark, body=46.0), 0.0, params, model, 20.0)
    assert not is_cloth_square(ds.face(**mark, body=21.0), 0.0, params, model, 20.0)


def test_a_die_square_to_a_trays_rim_on_its_plain_floor_is_no_cloth_square():
    # real photos (a tray on a white table): the tray's straight rim gives the frame a
    # grid's turn; a white die lying square to it on the plain floor is bounded by its
    # own edges, no line of a grid runs along it. A check of a cloth is bounded by them.
    rng = np.random.default_rng(2)
    tray = np.clip(rng.normal(205, 3, (480, 640, 3)), 0, 255).astype(np.uint8)
    cv2.rectangle(tray, (0, 0), (639, 40), (40, 40, 45), -1)  # the rim, straight lines
    cv2.rectangle(tray, (0, 0), (40, 479), (40, 40, 45), -1)
    top = np.array([[300, 220], [330, 220], [330, 250], [300, 250]], np.int32)
    cv2.fillConvexPoly(tray, top, (235, 235, 235))
    model = table_model(cv2.cvtColor(tray, cv2.COLOR_BGR2YCrCb))
    params = DiceParams()
    white = dict(cls=LIGHT, mark=0, bgr=(235.0, 235.0, 235.0), pips=0.0, holes=0.0,
                 box=top.astype(np.float32), centre=(315.0, 235.0))
    die = ds.face(**white, outline=top)
    assert is_cloth_square(die, 0.0, params, model, 30.0)  # the turn alone: a square
    assert not is_cloth_square(die, 0.0, params, model, 30.0, tray)
    check = _check(0.0, 3, cell=30)  # a light check of a cloth, its outline on the lines
    square = np.array([[30, 0], [59, 0], [59, 29], [30, 29]], np.int32) + [60, 60]
    light = dict(white, bgr=(215.0, 215.0, 230.0), box=square.astype(np.float32),
                 centre=(105.0, 75.0))
    assert is_cloth_square(ds.face(**light, outline=square), 0.0, params,
                           table_model(cv2.cvtColor(check, cv2.COLOR_BGR2YCrCb)), 30.0, check)
