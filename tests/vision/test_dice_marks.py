"""Marks of light dice (``vision.dice_marks``) on small drawn patches."""

from __future__ import annotations

import numpy as np
import pytest

import cv2

from vision.dice import DiceParams
from vision.dice_candidates import face_candidates
from vision.dice_faces import GREEN, RED, class_map, gradient
from vision.dice_marks import find_marks
from vision.dice_pick import is_table_like

_CLOTH = (40, 45, 200)  # BGR: a red cloth


def _marks(bgr: np.ndarray) -> list:
    p = DiceParams()
    hsv = cv2.cvtColor(bgr, cv2.COLOR_BGR2HSV)
    cls = class_map(hsv, p.hue_edges, min_sat=p.min_sat, light_value=p.light_value,
                    min_value=p.min_value)
    near = np.full(bgr.shape[:2], 255, np.uint8)
    return find_marks(cls, hsv, bgr, gradient(hsv), near, (0, 0), 40.0, p.max_side)


def _on_felt() -> np.ndarray:
    """A light die with a green mark at (40, 40) lying on green felt (BGR, 80x80)."""
    felt = (40, 130, 30)
    patch = np.full((80, 80, 3), felt, np.uint8)
    top = cv2.boxPoints(((40.0, 40.0), (26.0, 26.0), 20.0))
    cv2.fillConvexPoly(patch, np.round(top).astype(np.int32), (228, 230, 230))
    cv2.polylines(patch, [np.round(top).astype(np.int32)], True, (90, 90, 90), 2)
    cv2.circle(patch, (40, 40), 6, felt, -1)
    return patch


def _classes(bgr: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(HSV, class map) of a BGR patch, as the reader has them."""
    p = DiceParams()
    hsv = cv2.cvtColor(bgr, cv2.COLOR_BGR2HSV)
    return hsv, class_map(hsv, p.hue_edges, min_sat=p.min_sat, light_value=p.light_value,
                          min_value=p.min_value)


def test_a_mark_of_the_felts_colour_is_found_inside_the_felts_run():
    # a light die with a green mark lying on green felt: the felt's green run holds the
    # die's body as a hole, and the mark is an island in that hole
    from vision.dice_faces import GREEN

    marks = [m for m in _marks(_on_felt()) if m.cls == GREEN and np.hypot(
        m.centre[0] - 40, m.centre[1] - 40) < 2]
    assert len(marks) == 1 and 20 < marks[0].body < 32

def test_a_big_round_mark_on_a_small_top_is_ringed_by_its_body():
    # a light die seen aslant on a red and white check: its top looks small, its round
    # red mark three quarters of it; the mark's box, grown by half, reaches past the
    # top's edge at its corners (the rim, the cloth), yet the mark is ringed all round by the light top
    patch = np.full((80, 80, 3), 235, np.uint8)
    patch[:40, :40] = patch[40:, 40:] = _CLOTH
    top = cv2.boxPoints(((40.0, 40.0), (26.0, 26.0), 45.0))
    cv2.fillConvexPoly(patch, np.round(top).astype(np.int32), (225, 228, 230))
    cv2.polylines(patch, [np.round(top).astype(np.int32)], True, (90, 90, 90), 2)  # its rim
    cv2.circle(patch, (40, 40), 9, _CLOTH, -1)
    marks = [m for m in _marks(patch) if m.cls == RED and np.hypot(
        m.centre[0] - 40, m.centre[1] - 40) < 2]
    assert len(marks) == 1 and marks[0].body > 20
    assert marks[0].ring >= 0.9
    table = np.array(_CLOTH, np.float32)
    assert not is_table_like(marks[0], table, True)  # a light die's mark, not the cloth


@pytest.mark.parametrize("outside", [False, True])
def test_the_traces_face_candidates_hands_on_give_the_same_marks(outside):
    # two light dice with a green and a red mark, and a red die: the colours' traces near
    # the blobs are taken by face_candidates once, and the mark finder reads the same
    # marks from them as from tracing on its own; with the red-marked die outside the
    # foreground (``outside``: near a blob, like the table), its mark lies only in the
    # mark finder's mask, so red is not handed on
    p = DiceParams()
    patch = np.full((90, 140, 3), (60, 110, 150), np.uint8)  # wood
    blob, boxes = np.zeros(patch.shape[:2], np.uint8), np.zeros(patch.shape[:2], np.uint8)
    for (x, y), mark in (((30, 45), (60, 170, 40)), ((75, 45), _CLOTH)):
        cv2.rectangle(patch, (x - 14, y - 14), (x + 14, y + 14), (225, 228, 230), -1)
        cv2.circle(patch, (x, y), 6, mark, -1)
        cv2.rectangle(boxes, (x - 16, y - 16), (x + 16, y + 16), 255, -1)
        if not (outside and mark == _CLOTH):
            cv2.rectangle(blob, (x - 16, y - 16), (x + 16, y + 16), 255, -1)
    cv2.rectangle(patch, (104, 31), (132, 59), _CLOTH, -1)
    cv2.circle(patch, (118, 45), 3, (235, 235, 235), -1)
    cv2.rectangle(blob, (102, 29), (134, 61), 255, -1)
    cv2.rectangle(boxes, (102, 29), (134, 61), 255, -1)
    hsv = cv2.cvtColor(patch, cv2.COLOR_BGR2HSV)
    cls = class_map(hsv, p.hue_edges, min_sat=p.min_sat, light_value=p.light_value,
                    min_value=p.min_value)
    near = cv2.dilate(boxes, np.ones((9, 9), np.uint8))
    grad = gradient(hsv)
    traced: dict = {}
    face_candidates(cls, blob, near, blob, hsv, patch, grad, (0, 0), 40.0,
                    side=28.0, traced=traced)
    assert GREEN in traced and (RED in traced) is not outside

    def key(faces: list) -> list:
        return sorted((f.cls, f.centre, f.area, f.body, f.ring) for f in faces)

    alone = find_marks(cls, hsv, patch, grad, near, (0, 0), 40.0, p.max_side)
    shared = find_marks(cls, hsv, patch, grad, near, (0, 0), 40.0, p.max_side, traced=traced)
    assert any(f.cls == RED and abs(f.centre[0] - 75) < 2 for f in alone)
    assert key(shared) == key(alone)


def test_spots_are_asked_all_at_once_whether_a_light_body_rings_them():
    # the rays' first test, taken for every spot of a frame at once, answers as the
    # test each spot's own rays make (``_body_side``: None when not ringed); spots on a
    # light body, on the table, half off the ROI and in a corner
    from vision import dice_marks
    from vision.dice_faces import LIGHT

    rng = np.random.default_rng(7)
    cls = np.zeros((120, 160), np.uint8)
    cls[20:70, 30:90] = LIGHT  # a light body
    cls[rng.random(cls.shape) < 0.08] = 0  # specks of shade in it
    value = np.full(cls.shape, 200, np.uint8)
    grad = np.zeros_like(value)
    spots = [(np.array([60.0, 45.0]), 4.2, 55.0), (np.array([58.3, 40.6]), 6.9, 150.0),
             (np.array([130.0, 100.0]), 4.0, 50.0), (np.array([2.0, 3.0]), 3.1, 30.0),
             (np.array([35.5, 22.5]), 3.6, 40.0)]
    ringed = dice_marks._ringed(cls, spots)
    alone = [dice_marks._ringed(cls, [s])[0] for s in spots]
    assert ringed == alone
    assert ringed[:3] == [True, True, False]
    for (centre, radius, _), ok in zip(spots, ringed):
        if not ok:  # (a ringed spot may still run on: that is the later tests' answer)
            assert dice_marks._body_side(cls, value, grad, centre, radius) is None
    assert dice_marks._ringed(cls, []) == []


def test_a_small_star_whose_edge_blends_grey_into_the_body_is_ringed_by_it():
    # study renders 6201 0066, 6202 0067 (hard-shadow): a light die's small green star
    # (equal-area radius 3-6 pixels), its edge blended a pixel wide into the body and read
    # grey, its points reaching past that radius: the ring sampled from one pixel out
    # met the blend (light 1-5 of 16), from two pixels out the body (10-14 of 16)
    patch = np.full((80, 80, 3), (110, 112, 115), np.uint8)  # grey stone
    top = cv2.boxPoints(((40.0, 40.0), (22.0, 22.0), 10.0))
    cv2.fillConvexPoly(patch, np.round(top).astype(np.int32), (222, 225, 226))
    cv2.polylines(patch, [np.round(top).astype(np.int32)], True, (80, 80, 80), 1)
    turn = np.arange(10) * np.pi / 5 - np.pi / 2
    reach = np.where(np.arange(10) % 2 == 0, 7.0, 3.5)
    star = np.round(np.stack([40 + reach * np.cos(turn), 40 + reach * np.sin(turn)], 1))
    cv2.fillPoly(patch, [star.astype(np.int32)], (60, 140, 40))
    cv2.polylines(patch, [star.astype(np.int32)], True, (95, 115, 95), 1)  # the blend
    marks = [m for m in _marks(patch) if m.cls == GREEN and np.hypot(
        m.centre[0] - 40, m.centre[1] - 40) < 3]
    assert len(marks) == 1 and marks[0].body > 0 and marks[0].ring >= 0.9


def test_the_light_bodies_of_all_ringed_spots_are_measured_at_once_as_one_by_one():
    # ``body_sides`` samples the rays of every spot at once, padded to the longest; each
    # spot's answer is the one its own rays give (a die's edge from its body's reach, or
    # None): a mark on a die-sized light body, a small and a big one on a body that runs
    # on (a light table), one at the ROI's edge, one on the table
    from vision import dice_marks
    from vision.dice_faces import LIGHT

    cls = np.zeros((140, 200), np.uint8)
    cls[20:60, 20:60] = LIGHT  # a die's light body, 40 pixels across
    cls[80:140, 100:200] = LIGHT  # a light table running off the ROI
    value = np.where(cls == LIGHT, 210, 60).astype(np.uint8)
    grad = np.zeros_like(value)
    grad[19:61, 19] = grad[19:61, 60] = 200  # the die's rim
    spots = [(np.array([40.0, 40.0]), 5.0), (np.array([150.0, 110.0]), 3.0),
             (np.array([150.0, 115.0]), 9.5), (np.array([1.0, 139.0]), 4.0),
             (np.array([100.0, 30.0]), 6.0), (np.array([38.5, 41.2]), 7.3)]
    together = dice_marks.body_sides(cls, value, grad, spots)
    alone = [dice_marks.body_sides(cls, value, grad, [s])[0] for s in spots]
    assert together == alone
    assert together[0] is not None and abs(together[0] - 40) < 8  # the die's edge
    assert together[1] is None and together[4] is None  # a light table; no light body
    assert dice_marks.body_sides(cls, value, grad, []) == []


def test_a_ray_whose_light_runs_to_its_last_sample_stays_unbounded_among_longer_rays():
    # a mark (radius 3: rays sampled 4..16 pixels out) on a body 17 pixels across, with
    # four thin light arms reaching 15 pixels out along its straight rays: those four
    # rays never leave the light (unbounded), the other twelve leave it 10-13 out; beside
    # a bigger spot its rays are padded past 16, and the padding is no way out
    from vision import dice_marks
    from vision.dice_faces import LIGHT

    cls = np.zeros((100, 100), np.uint8)
    cls[42:59, 42:59] = LIGHT
    cls[50, 35:66] = cls[35:66, 50] = LIGHT
    value = np.where(cls == LIGHT, 210, 60).astype(np.uint8)
    grad = np.zeros_like(value)
    small, big = (np.array([50.0, 50.0]), 3.0), (np.array([15.0, 85.0]), 6.0)
    alone = dice_marks.body_sides(cls, value, grad, [small])[0]
    assert alone == 1.8 * 10  # twelve rays: their median leaves the light 10 out
    assert dice_marks.body_sides(cls, value, grad, [small, big])[0] == alone


def _one_light_die() -> np.ndarray:
    """A light die with a red mark at (40, 40) on wood (BGR, 80x80)."""
    patch = np.full((80, 80, 3), (60, 110, 150), np.uint8)
    cv2.rectangle(patch, (26, 26), (54, 54), (225, 228, 230), -1)
    cv2.circle(patch, (40, 40), 6, _CLOTH, -1)
    return patch


@pytest.mark.parametrize("cover", ["all", "all but a column", "the centre only"])
def test_a_mark_wholly_on_the_skipped_part_is_not_measured_one_reaching_off_it_is(cover):
    # ``skip`` (marks_beyond: where the marks were found already) leaves out a mark only
    # when its whole box lies on it: one reaching a pixel off it may have its centre
    # there, so it is measured and given as before
    p = DiceParams()
    patch = _one_light_die()
    hsv, cls = _classes(patch)
    everywhere = np.full(cls.shape, 255, np.uint8)
    grad = gradient(hsv)
    plain = find_marks(cls, hsv, patch, grad, everywhere, (0, 0), 40.0, p.max_side)
    red = [f for f in plain if f.cls == RED and np.hypot(f.centre[0] - 40, f.centre[1] - 40) < 2]
    assert len(red) == 1
    skip = np.zeros(cls.shape, np.uint8)
    skip[{"all": np.s_[30:51, 30:51], "all but a column": np.s_[30:51, 30:46],
          "the centre only": np.s_[38:43, 38:43]}[cover]] = 255
    marks = find_marks(cls, hsv, patch, grad, everywhere, (0, 0), 40.0, p.max_side, skip=skip)
    kept = [f for f in marks if f.cls == RED and np.hypot(f.centre[0] - 40, f.centre[1] - 40) < 2]
    if cover == "all":
        assert kept == []
    else:
        assert [(f.centre, f.area, f.body, f.ring) for f in kept] == [
            (f.centre, f.area, f.body, f.ring) for f in red]


@pytest.mark.parametrize("cover", ["everything", "the felt's left edge"])
def test_the_islands_of_a_run_partly_skipped_are_still_looked_for(cover):
    # a green mark on a light die on green felt is an island in the felt's run; the run
    # is looked into unless its whole box lies on ``skip`` (its islands lie in that box)
    p = DiceParams()
    patch = _on_felt()
    hsv, cls = _classes(patch)
    skip = np.zeros(cls.shape, np.uint8)
    skip[{"everything": np.s_[:, :], "the felt's left edge": np.s_[:, :10]}[cover]] = 255
    marks = find_marks(cls, hsv, patch, gradient(hsv), np.full(cls.shape, 255, np.uint8),
                       (0, 0), 40.0, p.max_side, skip=skip)
    island = [m for m in marks if m.cls == GREEN and np.hypot(
        m.centre[0] - 40, m.centre[1] - 40) < 2]
    assert len(island) == (0 if cover == "everything" else 1)
