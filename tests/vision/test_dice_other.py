"""Tests for vision.dice_other: faces of no Toss Up colour that are the table, not a die."""

from __future__ import annotations

import numpy as np

import cv2

from tests.vision import dice_support as ds
from vision.dice import read_dice
from vision.dice_faces import GREY, HUE, LIGHT, RED
from vision.dice_other import is_other, is_table_streak

WOOD = (49.0, 84.0, 151.0)  # dark wood, BGR


def test_only_a_face_read_as_another_games_die_is_asked():
    assert is_other(ds.face(cls=HUE, mark=0))
    assert not is_other(ds.face(cls=RED))  # a Toss Up colour vouches for itself
    assert not is_other(ds.face(cls=LIGHT, mark=RED))  # a light die's mark
    assert not is_other(ds.face(cls=LIGHT, mark=0, body=25.0))  # measured with its body


def test_a_lighter_streak_in_a_coloured_tables_own_tint_is_no_die():
    # study renders 6201 0087, 6202 0059 (dark wood) and 6202 0096 (wood between a
    # hand's fingers): a face of the table's own tint 1.2-1.8 times as bright as the
    # table there, read as an "other" die; another game's dice lie far from the
    # table's tint (0.14 and more on the renders)
    streak = dict(cls=HUE, mark=0, bgr=tuple(1.3 * c for c in WOOD))
    assert is_table_streak(ds.face(**streak), WOOD)
    assert is_table_streak(ds.face(**{**streak, "bgr": tuple(0.8 * c for c in WOOD)}), WOOD)
    blue, orange = (170.0, 80.0, 25.0), (30.0, 110.0, 230.0)
    assert not is_table_streak(ds.face(cls=HUE, mark=0, bgr=blue), WOOD)
    assert not is_table_streak(ds.face(cls=HUE, mark=0, bgr=orange), WOOD)
    assert not is_table_streak(ds.face(cls=RED, bgr=tuple(1.3 * c for c in WOOD)), WOOD)


def test_a_white_or_black_die_on_a_grey_table_is_no_streak():
    # real photos: white and black dice on grey and white tables share the table's
    # (neutral) tint; only a coloured table's tint tells a streak of it
    grey = (170.0, 176.0, 180.0)
    for die in ((210.0, 222.0, 226.0), (49.0, 50.0, 52.0)):
        assert not is_table_streak(ds.face(cls=LIGHT, mark=0, bgr=die), grey)
        assert not is_table_streak(ds.face(cls=GREY, mark=0, bgr=die), grey)


def test_a_light_streak_of_dark_wood_beside_a_blue_die_is_not_read():
    frame = ds.table(colour=WOOD, noise=4.0, seed=2)
    streak = np.zeros(frame.shape[:2], np.uint8)
    cv2.fillConvexPoly(streak, np.round(ds.square((200.0, 240.0), 34, 10)).astype(np.int32), 255)
    lift = cv2.GaussianBlur(streak, (5, 5), 0).astype(np.float32)[..., None] / 255
    frame = np.clip(frame * (1 + 0.45 * lift), 0, 255).astype(np.uint8)
    ds.die(frame, (430.0, 240.0), 34, ds.BLUE, pips=4)
    reading = read_dice(frame)
    assert reading.counts() == (0, 0, 0, 1)
    assert abs(reading.dice[0].centre[0] - 430) < 5
