"""All face candidates measured at once give exactly what measuring them one by one gives."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import vision.dice_candidates as cands_
import vision.dice_marks as marks_
from vision import dice_faces as faces_
from vision.dice import read_dice
from vision.dice_atlas import Candidate, measure_all
from vision.imageio import read_image

SCENES = Path(__file__).resolve().parents[1] / "data" / "dice-scenes"


def _same(a, b) -> bool:
    """Equal bit for bit, arrays and number types too."""
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return (type(a) is type(b) and a.dtype == b.dtype and a.shape == b.shape
                and np.array_equal(a, b))
    if isinstance(a, dict):
        return type(b) is dict and list(a) == list(b) and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, (tuple, list)):
        return (type(a) is type(b) and len(a) == len(b)
                and all(_same(x, y) for x, y in zip(a, b)))
    return type(a) is type(b) and repr(a) == repr(b)


def _one_by_one(cands, cls, hsv, bgr, offset, *, planes=None, lit=None):
    return [faces_.measure(c.code, c.hull, c.area, c.own, c.origin, cls, hsv, bgr, offset,
                           shape=c.shape, need_pips=c.need_pips, drop_plain=c.drop_plain,
                           planes=planes, lit=lit) for c in cands]


# one image of each kind of table that makes measuring hard: light dice with marks,
# touching dice, felt (faces that need pips), a dim room (the exposure gain), 1280x960
@pytest.mark.parametrize("name", ["0029", "0057", "0071", "0197", "0295", "0323"])
def test_measuring_all_at_once_equals_one_by_one_on_rendered_frames(name, monkeypatch):
    batches = []

    def recorded(cands, cls, hsv, bgr, offset, *, planes=None, lit=None):
        want = _one_by_one(cands, cls, hsv, bgr, offset, planes=planes, lit=lit)
        batches.append((want, measure_all(cands, cls, hsv, bgr, offset, planes=planes,
                                          lit=lit)))
        return want

    monkeypatch.setattr(cands_, "measure_all", recorded)
    monkeypatch.setattr(marks_, "measure_all", recorded)
    read_dice(read_image(SCENES / "img" / f"{name}.jpg"))
    assert sum(len(w) for w, _ in batches) > 5
    assert sum(p is not None for w, _ in batches for p in w) > 3  # some are kept
    for want, got in batches:
        assert len(got) == len(want)
        assert all(_same(w, g) for w, g in zip(want, got))


def test_no_candidates_or_only_slivers_give_nothing():
    cls = np.zeros((20, 20), np.uint8)
    hsv = np.zeros((20, 20, 3), np.uint8)
    sliver = np.array([[[2, 2]], [[17, 2]], [[17, 3]], [[2, 3]]], np.int32)
    own = np.full((20, 20), 255, np.uint8)
    assert measure_all([], cls, hsv, hsv, (0, 0)) == []
    assert measure_all([Candidate(faces_.GREEN, sliver, 15.0, own, (0, 0))],
                       cls, hsv, hsv, (0, 0)) == [None]
