"""Dice of the cloth's own colour found by the edges round their tops (``dice_cells``)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

import cv2

from tests.vision import dice_support as ds
from vision.dice import read_dice
from vision.dice import DiceParams
from vision.dice_blobs import inner_contrast
from vision.dice_cells import cell_outlines, in_cloth_shade, is_lit_top
from vision.dice_faces import GREEN, RED
from vision.imageio import read_image

SCENES = Path(__file__).resolve().parents[1] / "data" / "dice-scenes"


def _outline(edges: np.ndarray, centre: tuple[float, float], side: float, angle: float) -> None:
    """Draw a square's outline (one pixel wide) into ``edges`` in place."""
    box = cv2.boxPoints((centre, (side, side), angle))
    cv2.polylines(edges, [np.round(box).astype(np.int32)], True, 255, 1)


def test_regions_closed_by_edges_near_the_foreground_are_candidate_tops():
    edges = np.zeros((120, 160), np.uint8)
    near = np.full_like(edges, 255)
    _outline(edges, (40.0, 60.0), 12.0, 20.0)  # a die's top at half size: 24 pixels
    (cell,) = cell_outlines(edges, 24.0, near)
    assert abs(cell[:, 0, 0].mean() - 80) < 4 and abs(cell[:, 0, 1].mean() - 120) < 4
    assert cell_outlines(edges, 24.0, np.zeros_like(near)) == ()  # far from the dice
    assert cell_outlines(edges, 24.0, near, grid=20.0) == ()  # turned like the cloth
    assert cell_outlines(edges, 48.0, near) == ()  # a quarter of a die
    for x in (80.0, 100.0, 120.0):  # squares alike in turn and size: a check
        _outline(edges, (x, 60.0), 12.0, 20.0)
    assert cell_outlines(edges, 24.0, near) == ()


def test_a_top_is_lit_better_than_the_cloth_of_its_colour_around_it():
    # a plain green die on a green and cream check: the cream squares around it are
    # brighter than its top, the green ones are not
    from vision.dice_cells import is_lit_on_cloth

    frame = np.full((100, 100, 3), (40, 120, 30), np.uint8)
    frame[:50, 50:] = frame[50:, :50] = (190, 215, 230)  # cream
    box = cv2.boxPoints(((50.0, 50.0), (20.0, 20.0), 15.0))
    cv2.fillConvexPoly(frame, np.round(box).astype(np.int32), (50, 150, 40))
    assert not is_lit_top(frame, box)
    assert is_lit_on_cloth(frame, box, DiceParams())
    shade = frame.copy()  # a patch of the green cloth in a die's shadow
    cv2.fillConvexPoly(shade, np.round(box).astype(np.int32), (25, 80, 20))
    assert not is_lit_on_cloth(shade, box, DiceParams())


def test_a_top_face_is_lit_better_than_what_lies_around_it():
    frame = np.full((100, 100, 3), (40, 150, 50), np.uint8)  # green felt
    box = cv2.boxPoints(((50.0, 50.0), (20.0, 20.0), 15.0))
    lit = frame.copy()
    cv2.fillConvexPoly(lit, np.round(box).astype(np.int32), (44, 165, 55))
    assert is_lit_top(lit, box)
    shade = frame.copy()  # a patch of the felt in a die's shadow
    cv2.fillConvexPoly(shade, np.round(box).astype(np.int32), (25, 95, 30))
    assert not is_lit_top(shade, box)


def test_a_square_of_the_cloths_colour_in_shade_is_no_die():
    # a die's shadow on a red cloth, closed in by edges; the light die next to it reaches
    # into its box, so the box's contrast looks like pips
    frame = np.full((100, 100, 3), (40, 45, 190), np.uint8)  # red cloth
    box = cv2.boxPoints(((50.0, 50.0), (24.0, 24.0), 20.0))
    cv2.fillConvexPoly(frame, np.round(box).astype(np.int32), (20, 22, 95))
    cv2.circle(frame, (40, 58), 6, (225, 228, 230), -1)  # the die's corner
    hsv = cv2.cvtColor(frame, cv2.COLOR_BGR2HSV)
    assert inner_contrast(hsv[..., 2], box) >= 30
    params = DiceParams()
    assert in_cloth_shade(box, hsv, (0, 0), frame, {RED}, params=params)
    assert not in_cloth_shade(box, hsv, (0, 0), frame, {GREEN}, params=params)
    assert not in_cloth_shade(box, hsv, (0, 0), frame, set(), params=params)
    lit = np.full((100, 100, 3), (40, 45, 190), np.uint8)  # a plain red die's lit top
    cv2.fillConvexPoly(lit, np.round(box).astype(np.int32), (50, 55, 225))
    lit_hsv = cv2.cvtColor(lit, cv2.COLOR_BGR2HSV)
    assert not in_cloth_shade(box, lit_hsv, (0, 0), lit, {RED}, params=params)


def test_a_plain_die_of_the_felts_green_is_found_by_the_edges_round_its_top():
    # a plain green die on green felt: its top differs from the felt by a few hue
    # steps; its dark rim and its red and yellow side faces close it all round
    reading = read_dice(read_image(SCENES / "img" / "0081.jpg")[:120, 180:360])
    assert reading.counts() == (1, 1, 0, 0)
    green = [d for d in reading.dice if d.colour == "green"]
    assert abs(green[0].centre[0] - 92) < 6 and abs(green[0].centre[1] - 45) < 6


def _gingham(cell=60, red=(60, 50, 200), light=(215, 215, 235)) -> np.ndarray:
    """A red and white check: red squares, white ones and pink where they cross."""
    ys, xs = np.mgrid[0:480, 0:640]
    crossed = (xs // cell) % 2 + (ys // cell) % 2
    frame = np.empty((480, 640, 3), np.float32)
    frame[:] = light
    frame[crossed == 2] = red
    frame[crossed == 1] = (np.array(red, np.float32) + light) / 2
    noise = np.random.default_rng(0).normal(0, 3, frame.shape)
    return np.clip(frame + noise, 0, 255).astype(np.uint8)


def test_a_red_die_with_dark_pips_on_a_red_check_is_found_by_its_pips():
    # its body is the cloth's red (no face of its own) and dark in grey, so its pips
    # stand out only in brightness (``cloth_pip_dice``)
    frame = _gingham()
    ds.die(frame, (270, 270), 30, (60, 50, 200), angle=25, pips=5, pip_colour=(30, 30, 30))
    ds.die(frame, (150, 120), 30, ds.YELLOW, angle=10, pips=3, pip_colour=(30, 30, 30))
    assert read_dice(cv2.GaussianBlur(frame, (0, 0), 0.8)).counts() == (0, 1, 1, 0)


def test_a_red_two_on_a_red_cloth_is_found_by_its_pips():
    # a two's pips lie in opposite corners, 0.74 of the edge apart: too far for the
    # pips of a three or five, linked through the middle one (``cloth_pip_dice``)
    frame = ds.table(colour=(45, 40, 190))
    ds.die(frame, (270, 270), 30, (60, 50, 200), angle=25, pips=2, pip_colour=(30, 30, 30))
    ds.die(frame, (150, 120), 30, ds.YELLOW, angle=10, pips=3, pip_colour=(30, 30, 30))
    ds.die(frame, (450, 120), 30, ds.GREEN, angle=40, pips=5)
    reading = read_dice(cv2.GaussianBlur(frame, (0, 0), 0.8))
    assert reading.counts() == (1, 1, 1, 0)
    red = [d for d in reading.dice if d.colour == "red"]
    assert abs(red[0].centre[0] - 270) < 5 and abs(red[0].centre[1] - 270) < 5


def test_dull_dark_pips_of_red_dice_on_a_red_cloth_are_found():
    # rendered red dice with dark pips on a red cloth, their pips 90-115 levels darker
    # than the body in brightness (a two, and a four whose side faces show pips too)
    two = read_dice(read_image(SCENES / "img" / "0093.jpg")[250:, 150:550])
    assert two.counts() == (0, 2, 1, 0)
    red = [d for d in two.dice if d.colour == "red"]
    assert abs(red[0].centre[0] - 164) < 6 and abs(red[0].centre[1] - 92) < 6
    four = read_dice(read_image(SCENES / "img" / "0230.jpg")[100:420, 150:600])
    assert four.counts() == (2, 0, 2, 0)


def test_a_red_dies_top_beside_its_blob_is_searched_for_pips():
    # the top of a die of the cloth's colour is not foreground: its blob is its side
    # faces and shadow, and its top (a dull two) may lie a die's edge beyond it
    reading = read_dice(read_image(SCENES / "img" / "0088.jpg")[150:])
    assert reading.counts() == (3, 3, 1, 0)
    red = [d for d in reading.dice if d.colour == "red"]
    assert abs(red[0].centre[0] - 348) < 6 and abs(red[0].centre[1] - 86) < 6
