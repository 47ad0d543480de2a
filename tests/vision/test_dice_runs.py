"""The bright cores of all runs at once give exactly what each run's own crop gives."""

from __future__ import annotations

import math

import numpy as np
import pytest

import cv2

from vision.dice_faces import percentile
from vision.dice_measure import outer_contours
from vision.dice_runs import Run, bright_cores

_CROSS = cv2.getStructuringElement(cv2.MORPH_CROSS, (3, 3))


def _scene(seed: int, shape=(240, 320)) -> tuple[np.ndarray, np.ndarray]:
    """A mask of blobs with holes, islands in the holes, runs cut by the border and
    specks, and a brightness image with lit and shaded parts."""
    rng = np.random.default_rng(seed)
    h, w = shape
    mask = np.zeros(shape, np.uint8)
    for _ in range(int(rng.integers(3, 30))):
        centre = (int(rng.integers(-10, w + 10)), int(rng.integers(-10, h + 10)))
        r = int(rng.integers(2, 30))
        cv2.circle(mask, centre, r, 255, -1)
        if r > 8:  # a hole with an island in it
            cv2.circle(mask, centre, r // 2, 0, -1)
            cv2.circle(mask, centre, r // 5, 255, -1)
    mask[rng.random(shape) < 0.01] = 255
    value = cv2.GaussianBlur(rng.integers(0, 256, shape, dtype=np.uint8), (0, 0), 4)
    value = cv2.normalize(value, None, 0, 255, cv2.NORM_MINMAX)
    value[rng.random(shape) < 0.05] = 250  # glints
    return mask, value


def _one_run(run: Run, value: np.ndarray, core: float):
    """A run's bright core measured on its own crop (the reader's earlier way)."""
    x, y, w, h = run.x, run.y, run.w, run.h
    own = np.zeros((h, w), np.uint8)
    cv2.drawContours(own, [run.outline], -1, 255, cv2.FILLED, offset=(-x, -y))
    own = cv2.bitwise_and(own, run.mask[y:y + h, x:x + w])
    v = value[y:y + h, x:x + w]
    level = math.ceil(core * percentile(v[own > 0], 85))
    opened = cv2.morphologyEx(cv2.bitwise_and(own, cv2.compare(v, level, cv2.CMP_GE)),
                              cv2.MORPH_OPEN, _CROSS)
    contours, _ = cv2.findContours(opened, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE,
                                   offset=(x, y))
    return opened, own, contours


@pytest.mark.parametrize("seed", range(10))
def test_bright_cores_match_each_run_on_its_own_crop(seed):
    mask, value = _scene(seed)
    other = cv2.dilate(mask, np.ones((3, 3), np.uint8))  # a second pass's mask
    runs = [Run(c, *cv2.boundingRect(c), m) for m in (mask, other)
            for c in outer_contours(m) if len(c) >= 3]
    assert len(runs) > 5
    cores = bright_cores(runs, value, 0.8)
    assert len(cores) == len(runs)
    for run, got in zip(runs, cores):
        opened, own, contours = _one_run(run, value, 0.8)
        assert np.array_equal(got.opened, opened)
        assert np.array_equal(got.own, own)
        assert len(got.pieces) == len(contours)
        for (cnt, area), want in zip(got.pieces, contours):  # the same order, too
            assert np.array_equal(cnt + np.array(got.shift, np.int32), want)
            assert area == cv2.contourArea(want)


def test_no_runs_give_no_cores():
    assert bright_cores([], np.zeros((10, 10), np.uint8)) == []


def test_a_wide_run_and_many_runs_fit_the_atlas():
    mask = np.zeros((90, 900), np.uint8)
    mask[5:20, 3:880] = 255  # wider than a shelf's usual width
    for i in range(300):  # more runs than a byte of labels holds
        y, x = 30 + 6 * (i % 10), 6 * (i // 10) + 3
        mask[y:y + 3 + i % 3, x:x + 3] = 255
    value = np.full(mask.shape, 200, np.uint8)
    runs = [Run(c, *cv2.boundingRect(c), mask) for c in outer_contours(mask)]
    assert len(runs) > 255
    for run, got in zip(runs, bright_cores(runs, value)):
        opened, own, _ = _one_run(run, value, 0.8)
        assert np.array_equal(got.opened, opened) and np.array_equal(got.own, own)
