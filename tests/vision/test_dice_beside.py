"""A die lying against a die found, in the same foreground blob (``dice_beside``)."""

from __future__ import annotations

import numpy as np
import pytest

import cv2

from tests.vision.dice_support import photo_find_rate, square, table
from vision.dice_beside import beside_dice

SIDE = 30.0
_LIGHT, _SMOKY = (200, 200, 198), (66, 64, 62)
_FOUND = (100.0, 100.0)  # the die found; the other lies against its right edge


def _scene(other: np.ndarray, pips: list[tuple[float, float, float]]):
    """A light table with the die found and ``other`` (corners (N, 2)) dark, the other's
    ``pips`` (x, y, radius) light; the blobs' outlines and the found die's box."""
    frame = table(size=(240, 200), colour=_LIGHT)
    found = square(np.array(_FOUND), SIDE)
    mask = np.zeros(frame.shape[:2], np.uint8)
    for corners in (found, other):
        cv2.fillConvexPoly(frame, np.round(corners).astype(np.int32), _SMOKY, cv2.LINE_AA)
        cv2.fillConvexPoly(mask, np.round(corners).astype(np.int32), 255)
    for x, y, r in pips:
        cv2.circle(frame, (round(x), round(y)), round(r), (225, 225, 225), -1, cv2.LINE_AA)
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    return frame, contours, [found]


def _four(cx: float, cy: float) -> list[tuple[float, float, float]]:
    d = 0.26 * SIDE
    return [(cx + sx * d, cy + sy * d, 0.08 * SIDE) for sx in (-1, 1) for sy in (-1, 1)]


def test_a_dark_die_against_a_die_found_is_found():
    at = (_FOUND[0] + SIDE, _FOUND[1] + 0.3 * SIDE)
    frame, contours, found = _scene(square(np.array(at), SIDE, 10), _four(*at))
    dice = beside_dice(contours, frame, SIDE, found)
    assert len(dice) == 1
    assert np.hypot(dice[0][1][0] - at[0], dice[0][1][1] - at[1]) < 0.3 * SIDE


def test_a_strip_along_the_die_found_is_its_side_face_not_a_die():
    # a side face seen aslant with the shadow running on past it: 1.4 dice long, 0.95 deep,
    # pips on the face
    x0, y0, y1 = _FOUND[0] + SIDE / 2, _FOUND[1] - SIDE / 2, _FOUND[1] + 0.9 * SIDE
    strip = np.array([[x0, y0], [x0 + 0.95 * SIDE, y0], [x0 + 0.95 * SIDE, y1], [x0, y1]])
    cx = x0 + 0.5 * SIDE
    pips = [(cx, _FOUND[1] + sy * 0.26 * SIDE, 0.08 * SIDE) for sy in (-1, 0, 1)]
    frame, contours, found = _scene(strip, pips)
    assert beside_dice(contours, frame, SIDE, found) == []


@pytest.mark.parametrize("radius, dice", [(0.05, 0), (0.15, 1)])
def test_a_lone_spot_is_a_pip_only_when_as_big_as_a_ones(radius, dice):
    # a glint on a plain face is a small spot; a one's pip is a quarter die or more across
    at = (_FOUND[0] + SIDE, _FOUND[1])
    frame, contours, found = _scene(square(np.array(at), SIDE), [(*at, radius * SIDE)])
    assert len(beside_dice(contours, frame, SIDE, found)) == dice


def test_a_photo_of_dark_dice_touching_finds_each():
    # a real photo (the studied half of tests/data/realdice-byler): a purple die against a
    # red one made one blob with the red die's top in it; the purple die was missed
    (hits, false), labelled = photo_find_rate("img/IMG_20191209_095431.jpg")
    assert (hits, false) == (labelled, 0)
