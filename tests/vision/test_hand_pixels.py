"""The hand detector's pixel measures: the small picture and its rare, skin and change masks."""

from __future__ import annotations

import numpy as np
import pytest

from tests.vision.hand_support import MONK_BGR
from vision.hand import HandParams
from vision.hand_pixels import changed_mask, measure, rare_mask, skin_mask

PARAMS = HandParams()
FELT = (60, 120, 40)  # green felt, BGR
INSIDE, OUTSIDE = (60, 80), (5, 5)  # (row, col) of the small picture: in the patch, out of it


def with_patch(table: tuple[int, int, int], patch: tuple[int, int, int]) -> np.ndarray:
    """A 320x240 frame of the ``table`` colour with a ``patch`` over an eighth of it."""
    frame = np.full((240, 320, 3), table, np.uint8)
    frame[80:160, 100:220] = patch
    return frame


def test_measure_shrinks_to_the_width_and_keeps_the_aspect():
    picture, chroma, bright, clipped = measure(np.full((480, 640, 3), 100, np.uint8), 160)
    assert picture.shape == (120, 160, 3) and picture.dtype == np.float32
    assert chroma.shape == (120, 160, 2)
    assert bright.shape == clipped.shape == (120, 160)
    assert np.allclose(bright, 110.0)  # the median is scaled to 110
    assert not clipped.any()


@pytest.mark.parametrize("frame", [np.zeros((240, 320), np.uint8),
                                   np.zeros((240, 320, 3), np.float32),
                                   np.zeros((4, 320, 3), np.uint8)])
def test_measure_refuses_what_is_no_frame(frame):
    with pytest.raises(ValueError, match="frame"):
        measure(frame, 160)


@pytest.mark.parametrize("tone", [4, 5, 7])
def test_skin_is_marked_and_the_felt_around_it_is_not(tone):
    _, chroma, bright, _ = measure(with_patch(FELT, MONK_BGR[tone]), 160)
    skin = skin_mask(chroma, bright, PARAMS)
    assert skin[INSIDE] and not skin[OUTSIDE]


def test_a_red_die_is_not_skin():
    _, chroma, bright, _ = measure(with_patch(FELT, (20, 20, 200)), 160)
    assert not skin_mask(chroma, bright, PARAMS)[INSIDE]


def test_a_colour_rare_in_the_frame_is_marked_and_the_table_is_not():
    _, chroma, bright, _ = measure(with_patch(FELT, (40, 60, 170)), 160)
    rare = rare_mask(chroma, bright, PARAMS)
    assert rare[INSIDE] and not rare[OUTSIDE]


def test_new_light_and_a_shadow_are_no_change_but_a_new_thing_is():
    table = measure(with_patch(FELT, FELT), 160)[0]
    brighter = measure(with_patch((78, 156, 52), (78, 156, 52)), 160)
    assert not changed_mask(brighter[0], table, brighter[3], PARAMS).any()
    shadow = measure(with_patch(FELT, (42, 84, 28)), 160)
    assert not changed_mask(shadow[0], table, shadow[3], PARAMS)[INSIDE]
    thing = measure(with_patch(FELT, (200, 200, 200)), 160)
    changed = changed_mask(thing[0], table, thing[3], PARAMS)
    assert changed[INSIDE] and not changed[OUTSIDE]
