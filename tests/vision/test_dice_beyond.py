"""Light dice made of a cloth's own colours, found by their marks away from the blobs
(``vision.dice_beyond``)."""

from __future__ import annotations

import numpy as np

import cv2

from tests.vision import dice_support as ds
from vision.dice import read_dice
from vision.dice_beyond import is_light_and_coloured, is_mark_sized, marks_beyond
from vision.dice_faces import GREY, LIGHT, RED

_LIGHT_SQUARE = (225, 225, 230)


def _check(cell: int = 46) -> np.ndarray:
    """A red and white check under a lamp to one side (light 0.7 to 1.05 across)."""
    ys, xs = np.mgrid[0:480, 0:640]
    frame = np.empty((480, 640, 3), np.float32)
    frame[:] = _LIGHT_SQUARE
    frame[((xs // cell) + (ys // cell)) % 2 == 1] = ds.RED
    frame *= (0.7 + 0.35 * xs / 640)[..., None]
    noise = np.random.default_rng(0).normal(0, 3, frame.shape)
    return np.clip(frame + noise, 0, 255).astype(np.uint8)


def _light_die(frame: np.ndarray, centre: tuple[float, float], side: float, angle: float,
               sides: tuple[int, int, int]) -> None:
    """A white die with a red mark, its side faces (``sides``, BGR) showing on two
    sides, drawn in place."""
    top = ds.square(np.asarray(centre, float), side, angle)
    cv2.fillConvexPoly(frame, np.round(top + side * 0.1).astype(np.int32), sides, cv2.LINE_AA)
    cv2.fillConvexPoly(frame, np.round(top).astype(np.int32), (240, 240, 242), cv2.LINE_AA)
    cv2.circle(frame, (int(centre[0]), int(centre[1])), int(side * 0.22), ds.RED, -1,
               cv2.LINE_AA)


def test_a_white_die_with_a_red_mark_on_a_red_and_white_check_is_found():
    # white body and red mark are both the cloth's colours: no foreground blob holds
    # its top (the seeds 6304 0030 and 6305 0032 renders), only its mark ringed by light
    frame = _check()
    ds.die(frame, (80, 80), 30, ds.GREEN, angle=20, pips=3)
    ds.die(frame, (560, 400), 30, ds.YELLOW, angle=35, pips=4, pip_colour=(30, 30, 30))
    _light_die(frame, (299, 299), 30, 27, sides=(170, 170, 175))  # inside a white square
    reading = read_dice(cv2.GaussianBlur(frame, (0, 0), 0.8))
    assert reading.counts() == (1, 1, 1, 0)
    red = [d for d in reading.dice if d.colour == "red"]
    assert abs(red[0].centre[0] - 299) < 5 and abs(red[0].centre[1] - 299) < 5


def test_marks_are_looked_for_beyond_the_blobs_only_on_a_light_and_coloured_cloth():
    assert is_light_and_coloured({RED, LIGHT})
    assert not is_light_and_coloured({LIGHT, GREY})  # a white table: light dice stand out
    assert not is_light_and_coloured({RED})  # a red felt: no light die is all cloth


def test_only_marks_away_from_the_blobs_are_given():
    near = np.zeros((100, 200), np.uint8)
    near[:, :100] = 255  # the left half was looked at already
    left, right = ds.face(centre=(150.0, 50.0)), ds.face(centre=(250.0, 50.0))
    looked = []

    def find(where: np.ndarray) -> list:
        looked.append(where)
        return [left, right]
    # the ROI's origin is (100, 0): the left face lies in ``near``, the right one beyond
    assert marks_beyond(find, near, (100, 0)) == [right]
    assert cv2.countNonZero(looked[0]) == near.size  # looked for everywhere


def test_marks_alike_in_turn_and_size_are_squares_of_the_cloth():
    # a gingham's small red squares ringed by its light ones pass for marks: four or
    # more turned alike and of one size are the cloth's (dice land at random turns)
    near = np.zeros((400, 400), np.uint8)
    squares = [ds.face(centre=(x + 10.0, 200.0), box=ds.square((x + 10.0, 200.0), 10, 3)
                       .astype(np.float32)) for x in range(0, 400, 40)]
    die = ds.face(centre=(300.0, 300.0), box=ds.square((300.0, 300.0), 12, 40)
                  .astype(np.float32))
    assert marks_beyond(lambda where: squares + [die], near, (0, 0)) == [die]


def test_a_mark_covers_under_a_quarter_of_its_die():
    # a red patch as big as a top is a square of the cloth (or squares run together)
    assert is_mark_sized(ds.face(area=60.0), 26.0)  # a star on a 26-pixel die
    assert not is_mark_sized(ds.face(area=688.0), 33.0)  # gingham squares run together
