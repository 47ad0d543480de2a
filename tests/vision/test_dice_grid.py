"""Tests for vision.dice_grid: the lines of a checkered cloth's grid."""

from __future__ import annotations

import numpy as np

import cv2

from vision.dice_grid import grid_lines, grid_share

CELL = 30  # a check square's edge (pixels)
SIDE = 20.0  # a die's edge (pixels)


def _at(u: float, v: float, turn: float) -> tuple[float, float]:
    """The point (x, y) at grid coordinates (u along, v across) of a grid turned ``turn``."""
    c, s = np.cos(np.radians(turn)), np.sin(np.radians(turn))
    return u * c - v * s, u * s + v * c


def _check(turn: float) -> np.ndarray:
    """A red and white check turned ``turn`` degrees, with a little grain."""
    ys, xs = np.mgrid[0:240, 0:320].astype(np.float32)
    c, s = np.cos(np.radians(turn)), np.sin(np.radians(turn))
    u, v = (xs * c + ys * s) // CELL, (-xs * s + ys * c) // CELL
    red = ((u + v) % 2 == 0)[..., None]
    frame = np.where(red, np.float32([60, 50, 200]), np.float32([215, 215, 230]))
    frame += np.random.default_rng(3).normal(0, 4, frame.shape)
    return np.clip(frame, 0, 255).astype(np.uint8)


def _die(frame: np.ndarray, centre: tuple[float, float], turn: float,
         colour: tuple[int, int, int]) -> np.ndarray:
    """``frame`` with a die drawn at ``centre`` (x, y): a dark rim and side face around a
    top of ``colour``; returns the top's outline (4, 1, 2) int32."""
    rim = cv2.boxPoints((centre, (1.2 * SIDE, 1.2 * SIDE), turn))
    top = cv2.boxPoints((centre, (SIDE, SIDE), turn))
    cv2.fillConvexPoly(frame, np.round(rim).astype(np.int32), (40, 40, 45))
    cv2.fillConvexPoly(frame, np.round(top).astype(np.int32), colour)
    return np.round(top).astype(np.int32).reshape(-1, 1, 2)


def _outline(points: list[tuple[float, float]]) -> np.ndarray:
    return np.round(np.array(points)).astype(np.int32).reshape(-1, 1, 2)


def test_the_lines_of_a_check_are_found_and_a_dies_edges_are_not():
    frame = _check(8.0)
    _die(frame, _at(5.5 * CELL, 3.5 * CELL, 8.0), 8.0, (60, 50, 200))  # a red die, turned alike
    lines = grid_lines(frame, 8.0, int(1.5 * SIDE))
    x, y = (int(round(v)) for v in _at(3 * CELL, 2.5 * CELL, 8.0))
    assert lines[y - 2:y + 3, x - 2:x + 3].any()  # on a line between two squares
    x, y = (int(round(v)) for v in _at(2.5 * CELL, 2.5 * CELL, 8.0))
    assert not lines[y - 1:y + 2, x - 1:x + 2].any()  # in the middle of a square
    # the die's edge, turned like the grid but between its lines, ends at its corners
    x, y = (int(round(v)) for v in _at(5.5 * CELL - SIDE / 2, 3.5 * CELL, 8.0))
    assert not lines[y - 1:y + 2, x - 1:x + 2].any()


def test_a_squares_outline_lies_on_the_grid_a_dies_does_not():
    turn = 8.0
    frame = _check(turn)
    square = _outline([_at(u * CELL, v * CELL, turn) for u, v in ((2, 1), (3, 1), (3, 2), (2, 2))])
    assert grid_share(frame, square, turn, SIDE) > 0.9
    aslant = _die(frame, _at(5.5 * CELL, 2.5 * CELL, turn), turn + 40, (60, 50, 200))
    alike = _die(frame, _at(7.5 * CELL, 4.5 * CELL, turn), turn, (60, 50, 200))
    assert grid_share(frame, aslant, turn, SIDE) < 0.15
    assert grid_share(frame, alike, turn, SIDE) < 0.15  # its edges end at its corners


def test_a_checks_corner_cut_off_by_a_die_lies_mostly_on_the_grid():
    # 0109: a light die lying at 45 degrees across a red square's corner leaves the
    # rest of the square, its sides on the grid's lines but one on the die's edge
    turn = 5.0
    frame = _check(turn)
    corner = (4 * CELL, 2 * CELL)  # the red square (3..4, 1..2)'s lower right corner
    top = _die(frame, _at(corner[0] + 0.2 * CELL, corner[1] + 0.2 * CELL, turn), turn + 45,
               (225, 230, 230))
    cut = 0.2 * CELL + 0.6 * SIDE * np.sqrt(2)  # where the die's edge crosses the lines
    piece = _outline([_at(corner[0] - cut, corner[1], turn),
                      _at(corner[0] - CELL, corner[1], turn),
                      _at(corner[0] - CELL, corner[1] - CELL, turn),
                      _at(corner[0], corner[1] - CELL, turn),
                      _at(corner[0], corner[1] - cut, turn)])
    assert grid_share(frame, piece, turn, SIDE) >= 0.6
    # a die's top there lies off the lines (their pieces cross it only at its rim)
    assert grid_share(frame, top, turn, SIDE) < 0.3


def test_an_outline_along_the_frames_border_counts_for_nothing():
    # the frame's border is no line of the grid: a square against it is judged by the
    # rest of its outline, and an outline all on the border by nothing
    assert grid_share(_check(0.0), _outline([(0, 5), (0, 40), (1, 40), (1, 5)]), 0.0,
                      SIDE) == 0.0
    square = _outline([(0, CELL), (CELL, CELL), (CELL, 2 * CELL), (0, 2 * CELL)])
    assert grid_share(_check(0.0), square, 0.0, SIDE) > 0.9
