"""Face measures: uncoloured faces with neither pips nor a mark are left unmeasured."""

from __future__ import annotations

import numpy as np
import pytest

import cv2

from vision import dice_faces as faces_
from vision.dice import DiceParams


def _light_square(pips: int = 0, mark: tuple | None = None) -> tuple:
    """A light 30-pixel square on a dark table, its class map and its measure's inputs."""
    bgr = np.full((60, 60, 3), 60, np.uint8)
    cv2.rectangle(bgr, (15, 15), (44, 44), (230, 230, 228), -1)
    for i in range(pips):
        cv2.circle(bgr, (22 + 8 * i, 22 + 8 * i), 3, (30, 30, 30), -1)
    if mark is not None:
        cv2.circle(bgr, (30, 30), 7, mark, -1)
    hsv = cv2.cvtColor(bgr, cv2.COLOR_BGR2HSV)
    p = DiceParams()
    cls = faces_.class_map(hsv, p.hue_edges, min_sat=p.min_sat, light_value=p.light_value,
                           min_value=p.min_value)
    own = cv2.compare(cls, faces_.LIGHT, cv2.CMP_EQ)
    outlines, _ = cv2.findContours(own, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    hull = cv2.convexHull(max(outlines, key=cv2.contourArea))
    return hull, cv2.contourArea(hull), own, cls, hsv, bgr


def _measure(drop_plain: bool, **kw):
    hull, area, own, cls, hsv, bgr = _light_square(**kw)
    return faces_.measure(faces_.LIGHT, hull, area, own, (0, 0), cls, hsv, bgr, (0, 0),
                          drop_plain=drop_plain)


def test_a_plain_light_face_is_measured_unless_asked_to_drop_it():
    assert _measure(False) is not None  # (describe() and others still see it)
    assert _measure(True) is None  # a light top needs pips or a mark to be one


@pytest.mark.parametrize("kw", [dict(pips=3), dict(mark=(40, 40, 200))])
def test_a_light_face_with_pips_or_a_mark_is_kept(kw):
    part = _measure(True, **kw)
    assert part is not None
    assert part["holes"] > 0.02


def test_a_plain_coloured_face_is_kept():
    bgr = np.full((60, 60, 3), 60, np.uint8)
    cv2.rectangle(bgr, (15, 15), (44, 44), (50, 160, 40), -1)  # a plain green top
    hsv = cv2.cvtColor(bgr, cv2.COLOR_BGR2HSV)
    p = DiceParams()
    cls = faces_.class_map(hsv, p.hue_edges, min_sat=p.min_sat, light_value=p.light_value,
                           min_value=p.min_value)
    own = cv2.compare(cls, faces_.GREEN, cv2.CMP_EQ)
    outlines, _ = cv2.findContours(own, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    hull = cv2.convexHull(outlines[0])
    part = faces_.measure(faces_.GREEN, hull, cv2.contourArea(hull), own, (0, 0), cls, hsv,
                          bgr, (0, 0), drop_plain=True)
    assert part is not None and part["cls"] == faces_.GREEN


def test_finishing_takes_every_measure_and_leaves_the_parts_as_they_were():
    hull, area, own, cls, hsv, bgr = _light_square(mark=(40, 40, 200))
    part = faces_.measure(faces_.LIGHT, hull, area, own, (0, 0), cls, hsv, bgr, (0, 0))
    marked = {**part, "near_ring": 0.9}  # a mark's light share around it (dice_marks)
    before = dict(marked)
    grad = faces_.gradient(hsv)
    face, again = (faces_.finish([marked], cls, grad, (0, 0))[0] for _ in range(2))
    assert marked.keys() == before.keys()  # finishing copies, never empties, a part
    assert repr(face) == repr(again)
    for key in ("cls", "area", "centre", "value", "holes", "mark", "agree", "bgr", "pips"):
        assert getattr(face, key) == part[key]
    assert face.ring == 0.9 and face.mark != faces_.NONE  # the mark's ring stands
    assert np.array_equal(face.outline, hull) and not hasattr(face, "hull")


@pytest.mark.parametrize("body, mark, counts", [
    ((150, 190, 240), (40, 150, 40), (1, 0, 0, 0)),  # pale orange (a warm lamp), green
    ((240, 200, 150), (30, 30, 150), (0, 0, 1, 0)),  # pale blue (a cool lamp), red
])
def test_a_light_die_tinted_another_games_hue_by_the_lamp_takes_its_marks_colour(
        body, mark, counts):
    # a strong cast leaves a light die's body pale orange or pale blue (another game's
    # hue, not light) where white paper nearby sets the white: its mark, darker than it
    # and in its middle, still names it (as a pale yellow body's does)
    from tests.vision import dice_support as ds
    from vision.dice import read_dice

    frame = ds.table(colour=(60, 110, 150))  # a brown wooden table
    frame[380:460, 500:620] = 250  # a sheet of white paper
    ds.die(frame, (200, 200), 40, body, mark=mark)
    assert read_dice(cv2.GaussianBlur(frame, (0, 0), 0.8)).counts() == counts


@pytest.mark.parametrize("seed", range(6))
def test_both_class_histograms_from_one_are_the_two_taken_apart(seed):
    rng = np.random.default_rng(seed)
    shape = (97, 131) if seed % 2 else (480, 640)
    cls = rng.integers(0, 7, shape).astype(np.uint8)  # every class code, NONE too
    where = np.where(rng.random(shape) < 0.6, 255, 0).astype(np.uint8)
    within = cv2.bitwise_and(where, np.where(rng.random(shape) < 0.5, 255, 0).astype(np.uint8))
    present, differs = faces_.class_histograms(cls, where, within)
    assert np.array_equal(present, faces_.class_histogram(cls, where))
    assert np.array_equal(differs, faces_.class_histogram(cls, within))
    assert present.dtype == differs.dtype == faces_.class_histogram(cls, where).dtype


@pytest.mark.parametrize("seed", range(8))
def test_a_marks_centre_from_its_pieces_is_the_masks_centroid(seed):
    # several spots (a star's points, a mark cut by pips), sizes odd and even
    rng = np.random.default_rng(seed)
    h, w = (int(v) for v in rng.integers(8, 90, 2))
    mask = np.zeros((h, w), np.uint8)
    for _ in range(int(rng.integers(1, 6))):
        cv2.circle(mask, (int(rng.integers(0, w)), int(rng.integers(0, h))),
                   int(rng.integers(0, 9)), 255, -1)
    mask[rng.random((h, w)) < 0.01] = 255
    _, _, stats, cents = faces_.components(mask)
    m = cv2.moments(mask, True)
    assert faces_._centroid(stats[1:, 4], cents[1:]) == (m["m10"] / m["m00"],
                                                         m["m01"] / m["m00"])
