"""Tests for vision.dice_cloth: a checkered cloth's grid and squares."""

from __future__ import annotations

import numpy as np

from vision.dice_cloth import cloth_grid


def _check(turn: float, noise: float, cell: int = 24) -> np.ndarray:
    """A red and white check turned by ``turn`` degrees, with grain of ``noise`` levels."""
    ys, xs = np.mgrid[0:480, 0:640].astype(np.float32)
    c, s = np.cos(np.radians(turn)), np.sin(np.radians(turn))
    u, v = (xs * c + ys * s) // cell, (-xs * s + ys * c) // cell
    red = ((u + v) % 2 == 0)[..., None]
    frame = np.where(red, np.float32([60, 50, 200]), np.float32([215, 215, 230]))
    frame += np.random.default_rng(1).normal(0, noise, frame.shape)
    return np.clip(frame, 0, 255).astype(np.uint8)


def test_the_grid_of_a_clean_check_is_measured():
    assert abs(cloth_grid(_check(20, 5)) - 20) <= 4


def test_the_grid_of_a_grainy_check_is_measured_on_the_averaged_frame():
    # the grain spreads the picked pixels' edge turns over all angles (a dim frame's
    # noise, 0205); averaged over 4x4 pixels the check's edges show again
    assert abs(cloth_grid(_check(20, 25)) - 20) <= 4
    assert abs(cloth_grid(_check(65, 25)) - 65) <= 4


def test_a_grainy_plain_table_has_no_grid():
    rng = np.random.default_rng(2)
    assert cloth_grid(np.clip(rng.normal(120, 30, (480, 640, 3)), 0, 255).astype(np.uint8)) is None
