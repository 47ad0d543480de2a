"""Light dice in a shadow (``vision.dice_shade``): light for the light that falls there."""

from __future__ import annotations

import numpy as np

import cv2

from tests.vision import dice_support as ds
from vision.dice import DiceParams, read_dice
from vision.dice_faces import GREY, LIGHT, class_map
from vision.dice_shade import shaded_light

_P = DiceParams()


def _shaded(bgr: np.ndarray, table_v: np.ndarray, table_max: np.ndarray) -> np.ndarray:
    hsv = cv2.cvtColor(bgr, cv2.COLOR_BGR2HSV)
    planes = cv2.split(hsv)
    cls = class_map(hsv, _P.hue_edges, min_sat=_P.min_sat, light_value=_P.light_value,
                    min_value=_P.min_value, planes=planes)
    return cls, shaded_light(cls, planes[2], table_v, table_max, params=_P)


def test_an_evenly_lit_table_keeps_the_class_map():
    patch = np.full((20, 40, 3), 110, np.uint8)  # grey, under the light value
    table = np.full((4, 4), 200, np.uint8)
    cls, out = _shaded(patch, np.full((20, 40), 200, np.uint8), table)
    assert out is cls and (cls == GREY).all()


def test_an_uncoloured_pixel_in_shadow_is_light_for_the_light_there():
    # the left half of the table is lit (200), the right half in a shadow (80): a white
    # body at 110 is light in the shadow only; a grey of 60 in the shadow, a green mark
    # and the lit grey stay as they were
    patch = np.full((20, 40, 3), 110, np.uint8)
    patch[:, 30:] = 60
    patch[5:10, 25:30] = (30, 90, 20)  # a dark green mark in the shadow
    table_v = np.full((20, 40), 200, np.uint8)
    table_v[:, 20:] = 80
    table = np.array([[200, 200, 80, 80]] * 4, np.uint8)
    cls, out = _shaded(patch, table_v, table)
    assert (out[:, :20] == GREY).all() and (out[:10, 20:25] == LIGHT).all()
    assert (out[:, 30:] == GREY).all()
    assert (out[5:10, 25:30] == cls[5:10, 25:30]).all() and (cls[5:10, 25:30] != GREY).all()
    assert (cls[:, 20:25] == GREY).all()  # (not written into)


def test_light_dice_in_a_hard_shadow_are_read_by_their_marks():
    # a light table half under a hard shadow: the white dice there are as dark as a grey
    # die's body (235 * 0.45 = 106, under the light value 135), but as light as the
    # light falling there allows
    frame = ds.table(colour=(200, 200, 205))
    marks = [ds.GREEN, ds.YELLOW, ds.RED, ds.GREEN]
    for i, mark in enumerate(marks):
        ds.die(frame, (110 + 140 * i, 240), 36, ds.WHITE, mark=mark, angle=8 * i)
    shade = np.ones(frame.shape[:2], np.float32)
    shade[:, 330:] = 0.45
    frame = np.clip(frame * shade[..., None], 0, 255).astype(np.uint8)
    assert read_dice(frame).counts() == (2, 1, 1, 0)
