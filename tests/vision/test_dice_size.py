"""The die size on a light table, where coloured dice are ringed by the table's light
(``dice_size.die_side_on_table``)."""

from __future__ import annotations

import numpy as np
import pytest

from tests.vision.dice_support import face
from vision.dice_faces import GREEN
from vision.dice_pick import die_side
from vision.dice_size import die_side_on_table, ring_on_blobs

_KW = dict(max_aspect=1.75, min_fill=0.62, min_edge=40.0)


def _square(side: float, x: float, *, ring: float) -> object:
    half = side / 2
    box = np.array([[-half, -half], [half, -half], [half, half], [-half, half]],
                   np.float32) + [x, 100.0]
    return face(cls=GREEN, area=side * side, centre=(x, 100.0), box=box, ring=ring)


def _blobs(faces: list, grow: float) -> np.ndarray:
    """A foreground mask (200, 640) holding each face's box grown ``grow`` times."""
    import cv2

    mask = np.zeros((200, 640), np.uint8)
    for f in faces:
        c = np.asarray(f.centre)
        cv2.fillConvexPoly(mask, np.round((f.box - c) * grow + c).astype(np.int32), 255)
    return mask


def test_dice_ringed_by_a_light_table_set_the_size_when_few_plain_faces_vote():
    # green dice on a white table: each ringed by the table's white; one piece (a
    # die's corner, 11 pixels) is the only plain face
    dice = [_square(s, 100.0 + 120.0 * i, ring=1.0) for i, s in enumerate((33.0, 34.0, 36.0))]
    piece = _square(11.0, 560.0, ring=0.0)
    mask = _blobs(dice + [piece], 1.15)  # the dice's blobs: their tops and a rim
    assert ring_on_blobs(dice, mask) == [0.0, 0.0, 0.0]
    assert abs(die_side(dice + [piece], 34.0, **_KW) - 11.0) < 0.01  # the piece alone
    assert abs(die_side_on_table(dice + [piece], 34.0, mask, **_KW) - 33.5) < 0.01
    # on a checkered cloth the squares of one colour are ringed by the other's: no vote
    assert abs(die_side_on_table(dice + [piece], 34.0, mask, checkered=True, **_KW)
               - 11.0) < 0.01


@pytest.mark.parametrize("grow", [2.0, 3.0])
def test_marks_ringed_by_a_light_die_body_do_not_vote(grow):
    # a coloured mark on a light die: its ring lies on the die's body, a foreground blob
    marks = [_square(12.0, 100.0 + 120.0 * i, ring=1.0) for i in range(3)]
    mask = _blobs(marks, grow)
    assert min(ring_on_blobs(marks, mask)) == 1.0
    assert die_side_on_table(marks, 30.0, mask, **_KW) == 30.0  # the blob guess stays


def test_enough_plain_faces_keep_their_median():
    plain = [_square(s, 40.0 + 60.0 * i, ring=0.0) for i, s in enumerate((20.0, 22.0, 24.0))]
    ringed = [_square(40.0, 300.0 + 80.0 * i, ring=1.0) for i in range(3)]
    mask = _blobs(plain + ringed, 1.1)
    assert abs(die_side_on_table(plain + ringed, 30.0, mask, **_KW) - 22.0) < 0.01


def test_marks_of_a_checkered_cloths_colour_do_not_vote_for_the_die_size():
    # a red and white checkered cloth: its red squares are ringed by its white ones and
    # measured as marks with a light body (bodies of 50-60, the cloth's pitch); three
    # red dice (sides 30-31) are the only crisp plain faces, and a light die's green
    # mark has a body of 31
    from vision.dice_faces import RED

    dice = [face(cls=RED, area=s * s) for s in (30.0, 30.5, 31.0)]
    checks = [face(cls=RED, area=900.0, ring=1.0, body=b) for b in (50, 52, 55, 57, 60)]
    light_die = face(cls=GREEN, area=100.0, ring=1.0, body=31.0)
    mask = np.zeros((200, 640), np.uint8)
    found = dice + checks + [light_die]
    assert die_side_on_table(found, 25.0, mask, checkered=True, **_KW) >= 50
    side = die_side_on_table(found, 25.0, mask, checkered=True, cloth={RED}, **_KW)
    assert 29.5 <= side <= 31.5
    # on a plain red cloth (no grid found) a red mark's body still votes
    assert die_side_on_table(found, 25.0, mask, cloth={RED}, **_KW) >= 50
