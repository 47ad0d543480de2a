"""Plain dice of the cloth's colour told from it by their top's hue (``dice_hue``)."""

from __future__ import annotations

from functools import partial
from pathlib import Path

import numpy as np

import cv2

from tests.vision import dice_support as ds
from vision.dice import DiceParams, read_dice
from vision.dice_faces import RED, class_map
from vision.dice_hue import hue_step_mask
from vision.imageio import read_image

FRAMES = Path(__file__).resolve().parents[1] / "data" / "dice-frames"
CLOTH, PINK = (23, 39, 150), (44, 32, 160)  # orange-red cloth (hue 3), pinker red (hue 177)


def test_plain_red_dice_pinker_than_a_red_cloth_are_found():
    # rendered: three plain red dice whose tops are a few hue steps pinker than the
    # cloth and no brighter; the grey edges leave their outlines open or merged with
    # their side faces and shadows
    reading = read_dice(read_image(FRAMES / "red-on-red.jpg"))
    assert reading.counts() == (1, 3, 3, 0)
    red = sorted(d.centre for d in reading.dice if d.colour == "red")
    for (x, y), (want_x, want_y) in zip(red, [(44, 209), (182, 50), (241, 113)]):
        assert abs(x - want_x) < 5 and abs(y - want_y) < 5


def _stained_cloth(seed: int = 0) -> np.ndarray:
    """A red cloth with die-sized soft stains of a pinker red, a little noise."""
    frame = ds.table(colour=CLOTH, noise=3.0, seed=seed).astype(np.float32)
    ys, xs = np.mgrid[0:480, 0:640]
    rng = np.random.default_rng(seed)
    for _ in range(6):
        cx, cy = rng.uniform(60, 580), rng.uniform(60, 420)
        blot = np.exp(-((xs - cx) ** 2 + (ys - cy) ** 2) / (2 * 12.0 ** 2))[..., None]
        frame += blot * (np.array(PINK, np.float32) - CLOTH)
    return np.clip(frame, 0, 255).astype(np.uint8)


def test_a_red_cloth_without_red_dice_reads_none():
    # soft stains of another red, a round pink counter and a flat pink square printed on
    # the cloth (no side faces, no shadow) are no dice's tops, though they stand off the
    # cloth's hue as a top does; dice of other colours cast shadows
    frame = _stained_cloth()
    assert read_dice(frame).counts() == (0, 0, 0, 0)
    ds.die(frame, (300, 200), 30, ds.GREEN, angle=20, pips=4)
    ds.die(frame, (420, 330), 30, ds.YELLOW, angle=50, pips=2, pip_colour=(30, 30, 30))
    cv2.circle(frame, (200, 300), 14, PINK, -1, cv2.LINE_AA)
    cv2.fillConvexPoly(frame, np.round(ds.square((520, 120), 28, 30)).astype(np.int32), PINK,
                       cv2.LINE_AA)
    assert read_dice(cv2.GaussianBlur(frame, (0, 0), 0.8)).counts() == (1, 1, 0, 0)


def test_the_hue_step_is_told_against_the_cloths_own_spread():
    # a pinker square is marked on a cloth whose hue hardly wanders, not on one whose
    # hue wanders as much as the square's step; never where it is darker than the cloth
    params = DiceParams()
    classes = partial(class_map, hue_edges=params.hue_edges, min_sat=params.min_sat,
                      light_value=params.light_value, min_value=params.min_value)
    mask = np.zeros((240, 320), np.uint8)
    mask[100:140, 140:180] = 255  # the foreground around the die
    box = np.round(ds.square((160, 120), 24, 20)).astype(np.int32)

    def marked(frame: np.ndarray) -> float:
        found = hue_step_mask(frame, mask, 24.0, {RED}, classes=classes)
        inside = np.zeros_like(mask)
        cv2.fillConvexPoly(inside, box, 255)
        return cv2.countNonZero(cv2.bitwise_and(found, inside)) / cv2.countNonZero(inside)

    even = ds.table((320, 240), CLOTH, noise=2.0)
    cv2.fillConvexPoly(even, box, PINK)
    assert marked(even) > 0.8
    wandering = even.copy()  # every other column as pink as the square: no step to tell
    wandering[:, ::2] = PINK
    cv2.fillConvexPoly(wandering, box, PINK)
    assert marked(wandering) == 0
    shade = ds.table((320, 240), CLOTH, noise=2.0)  # the square a shade darker
    cv2.fillConvexPoly(shade, box, (30, 22, 110))
    assert marked(shade) == 0


def test_a_top_has_its_side_faces_or_shadow_along_its_rim():
    # a pink square with nothing along its rim is a patch printed on the cloth; with the
    # foreground (a die's side faces, its shadow) along two of its sides it is a top
    from vision.dice_hue import hue_step_dice

    frame = ds.table((320, 240), CLOTH, noise=2.0)
    top = ds.square((160, 120), 26, 20)
    body = ds.square((154, 126), 30, 20)  # its side faces: below and left of the top
    cv2.fillConvexPoly(frame, np.round(body).astype(np.int32), (40, 140, 30), cv2.LINE_AA)
    cv2.fillConvexPoly(frame, np.round(top).astype(np.int32), (60, 45, 210), cv2.LINE_AA)
    frame = cv2.GaussianBlur(frame, (0, 0), 0.8)
    printed = np.zeros((240, 320), np.uint8)
    cv2.fillConvexPoly(printed, np.round(top).astype(np.int32), 255)
    die = printed.copy()
    cv2.fillConvexPoly(die, np.round(body).astype(np.int32), 255)
    (box, (x, y), _, _), = hue_step_dice(die, frame, 26.0, [], {RED}, params=DiceParams())
    assert abs(x - 160) < 3 and abs(y - 120) < 3
    assert hue_step_dice(printed, frame, 26.0, [], {RED}, params=DiceParams()) == []
