"""The gate that skips the late finders when the top faces explain the foreground."""

from __future__ import annotations

import numpy as np
import pytest

import cv2

import vision.dice as dice_
from tests.vision import dice_support as ds
from vision.dice_gate import is_explained
from vision.dice_measure import outer_contours

SIDE = 30.0


def _outlines(*rects) -> tuple:
    """Outer outlines of filled rectangles (x, y, w, h) on a 640x480 mask."""
    mask = np.zeros((480, 640), np.uint8)
    for x, y, w, h in rects:
        mask[y:y + h, x:x + w] = 255
    return outer_contours(mask)


def test_blobs_each_holding_a_top_are_explained():
    blobs = _outlines((100, 100, 40, 40), (300, 200, 45, 35))
    assert is_explained(blobs, [(120, 120), (322, 217)], SIDE)


def test_a_blob_without_a_top_may_be_a_die():
    blobs = _outlines((100, 100, 40, 40), (300, 200, 25, 25))  # 0.69 of a die's face
    assert not is_explained(blobs, [(120, 120)], SIDE)


def test_a_blob_far_bigger_than_its_tops_may_hold_another_die():
    pile = _outlines((100, 100, 100, 40))  # 4.4 die faces, one top in it
    assert not is_explained(pile, [(120, 120)], SIDE)
    assert is_explained(pile, [(120, 120), (180, 120)], SIDE)  # two tops: 2.2 each


def test_a_speck_without_a_top_may_be_a_die_s_pip():
    blobs = _outlines((100, 100, 40, 40), (300, 300, 5, 5))  # a white die's pip on white
    assert not is_explained(blobs, [(120, 120)], SIDE)


def test_no_blob_is_explained():
    assert is_explained((), [], SIDE)


def test_the_late_finders_run_only_where_the_tops_leave_foreground(monkeypatch):
    calls = []
    for name in ("_blob_dice", "_pip_dice"):
        real = getattr(dice_, name)
        monkeypatch.setattr(dice_, name, lambda *a, _real=real, _n=name, **k: (
            calls.append(_n), _real(*a, **k))[1])
    clean = ds.scene(["green", "yellow", "red"])
    assert dice_.read_dice(clean).counts() == (1, 1, 1, 0)
    assert calls == []  # each blob holds its top face: nothing is left to find
    token = clean.copy()  # a plain black square: no top face explains its blob
    cv2.fillConvexPoly(token, np.round(ds.square((520, 380), 34, 20)).astype(np.int32),
                       ds.BLACK)
    assert dice_.read_dice(token).counts() == (1, 1, 1, 0)  # (no pips: a token, no die)
    assert calls == ["_blob_dice", "_pip_dice"]


@pytest.mark.parametrize("side", [0.0, 1e-9])
def test_a_degenerate_die_size_is_no_error(side):
    assert not is_explained(_outlines((10, 10, 40, 40)), [], side)
