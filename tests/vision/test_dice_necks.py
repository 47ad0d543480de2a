"""Touching dark dice joined by a neck are cut apart (``dice_necks.neck_pieces``)."""

from __future__ import annotations

import numpy as np
import pytest

import cv2

from tests.vision.dice_support import square, table
from vision.dice import read_dice
from vision.dice_necks import neck_pieces

_SMOKY = (66, 64, 62)  # a dark, smoky die: no bright core, no darker seam at its edge


def _smoky_die(frame: np.ndarray, centre, side: float, angle: float, pips: int) -> None:
    """A dark die's top with light pips and no rim (its seam with a neighbour is as dark
    as its body), drawn in place."""
    cv2.fillConvexPoly(frame, np.round(square(np.asarray(centre, float), side, angle))
                       .astype(np.int32), _SMOKY, cv2.LINE_AA)
    spots = {2: [(-1, -1), (1, 1)], 4: [(-1, -1), (1, 1), (-1, 1), (1, -1)],
             5: [(-1, -1), (1, 1), (-1, 1), (1, -1), (0, 0)],
             6: [(-1, -1), (1, 1), (-1, 1), (1, -1), (-1, 0), (1, 0)]}[pips]
    c, s = np.cos(np.radians(angle)), np.sin(np.radians(angle))
    for sx, sy in spots:
        dx, dy = sx * side * 0.26, sy * side * 0.26
        cv2.circle(frame, (int(round(centre[0] + dx * c - dy * s)),
                           int(round(centre[1] + dx * s + dy * c))),
                   max(1, int(side * 0.08)), (225, 225, 225), -1, cv2.LINE_AA)


def _mask(shapes: list[np.ndarray], size=(120, 120)) -> np.ndarray:
    mask = np.zeros(size, np.uint8)
    for corners in shapes:
        cv2.fillConvexPoly(mask, np.round(corners).astype(np.int32), 255)
    return mask


def _hull(mask: np.ndarray) -> tuple[np.ndarray, float]:
    pts, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    hull = cv2.convexHull(np.vstack(pts))
    return hull, cv2.contourArea(hull) + 0.5 * cv2.arcLength(hull, True)


def test_two_dice_touching_corner_to_corner_fall_apart_at_the_neck():
    side = 30.0
    a, b = square((40.0, 40.0), side, 8), square((67.0, 67.0), side, -6)
    own = _mask([a, b])
    for x, y in [(33, 33), (47, 47), (60, 60), (74, 74)]:  # pips are holes of the run
        cv2.circle(own, (x, y), 2, 0, -1)
    hull, area = _hull(own)
    pieces = neck_pieces(hull, area, own, (0, 0), side, min_area=0.05 * side * side,
                         max_area=2.5 * side * side)
    assert len(pieces) == 2
    centres = sorted(tuple(p.reshape(-1, 2).mean(axis=0)) for p, _ in pieces)
    assert np.allclose(centres, [(40, 40), (67, 67)], atol=4)
    assert all(0.6 * side * side < piece_area < 1.6 * side * side for _, piece_area in pieces)


@pytest.mark.parametrize("tail", [0.0, 0.6])
def test_one_die_stays_whole_however_drawn_out(tail):
    # a die's face with its shadow or side face run on (``tail`` dice long) is one piece
    side = 30.0
    face = square((50.0, 50.0), side, 10)
    shapes = [face] if not tail else [face, face + [side * tail, 4.0]]
    own = _mask(shapes)
    hull, area = _hull(own)
    assert neck_pieces(hull, area, own, (0, 0), side, min_area=0.05 * side * side,
                       max_area=2.5 * side * side) == []


def test_a_sliver_cut_off_at_a_neck_is_no_die():
    # a die with a blob of its hard shadow hanging on by a neck: the disc fits in the
    # blob, but the blob is under half a die's face; only the die's piece is a candidate
    side = 30.0
    own = _mask([square((40.0, 40.0), side, 8), square((63.0, 63.0), 16.0, -6)])
    hull, area = _hull(own)
    pieces = neck_pieces(hull, area, own, (0, 0), side, min_area=0.05 * side * side,
                         max_area=2.5 * side * side)
    assert len(pieces) == 1
    assert np.allclose(pieces[0][0].reshape(-1, 2).mean(axis=0), (40, 40), atol=4)


def test_an_offset_crop_places_the_pieces_in_the_roi():
    side = 30.0
    own = _mask([square((40.0, 40.0), side, 8), square((67.0, 67.0), side, -6)])
    hull, area = _hull(own)
    shifted = neck_pieces((hull + [200, 100]).astype(np.int32), area, own, (200, 100), side,
                          min_area=10.0, max_area=2.5 * side * side)
    plain = neck_pieces(hull, area, own, (0, 0), side, min_area=10.0,
                        max_area=2.5 * side * side)
    assert len(shifted) == len(plain) == 2
    for (p, _), (q, _) in zip(shifted, plain):
        assert np.array_equal(p, q + [200, 100])


def test_dark_dice_touching_at_a_corner_are_both_read():
    # smoky dice on a light table: two touching corner to corner, three lying apart
    frame = table(colour=(200, 200, 198))
    side = 30.0
    _smoky_die(frame, (250.0, 200.0), side, 8, 4)
    _smoky_die(frame, (277.0, 227.0), side, -6, 5)
    for centre, angle, pips in [((480.0, 150.0), 20, 2), ((120.0, 360.0), 35, 6),
                                ((420.0, 380.0), 60, 4)]:
        _smoky_die(frame, centre, side, angle, pips)
    reading = read_dice(frame)
    assert reading.count == 5
    for x, y in [(250, 200), (277, 227)]:
        assert any(np.hypot(d.centre[0] - x, d.centre[1] - y) < 0.4 * side for d in reading.dice)
