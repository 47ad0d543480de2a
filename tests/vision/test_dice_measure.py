"""The batch measures of the dice reader give exactly what measuring one at a time gives."""

from __future__ import annotations

import numpy as np
import pytest

import cv2

from vision.dice import _doubled_stats
from vision.dice_faces import LIGHT, describe, measure
from vision.dice_measure import (blob_stats, cornerness_many, edge_strength, grown_crop,
                                 grown_linear_crop,
                                 outer_contours, ring_share_many, sparse_blob_stats)
from vision.dice_segment import fill_holes


def _spotty(seed: int, shape=(301, 399), specks: float = 0.002) -> np.ndarray:
    """A mask of discs (some cut by the border) and single-pixel specks."""
    rng = np.random.default_rng(seed)
    h, w = shape
    mask = np.zeros(shape, np.uint8)
    for _ in range(int(rng.integers(1, 25))):
        centre = (int(rng.integers(-10, w + 10)), int(rng.integers(-10, h + 10)))
        cv2.circle(mask, centre, int(rng.integers(1, 25)), 255, -1)
    mask[rng.random(shape) < specks] = 255
    return mask


@pytest.mark.parametrize("seed", range(12))
def test_blob_stats_match_labelling_the_whole_mask(seed):
    mask = _spotty(seed, shape=(480, 640) if seed % 2 else (301, 399))
    n, stats, cents = blob_stats(mask)
    n2, _, stats2, cents2 = cv2.connectedComponentsWithStats(mask, connectivity=8)
    assert n == n2
    assert np.array_equal(stats[1:], stats2[1:])
    assert np.array_equal(cents[1:], cents2[1:])  # bit for bit, not just close


def test_blob_stats_of_an_empty_mask_has_only_the_background():
    n, stats, cents = blob_stats(np.zeros((40, 50), np.uint8))
    assert n == 1 and len(stats) == 1 and len(cents) == 1


@pytest.mark.parametrize("seed", range(12))
def test_sparse_blob_stats_match_labelling_the_whole_mask(seed):
    # few discs and sparse specks: bands of rows cut at gaps, some one row apart
    mask = _spotty(seed, shape=(480, 640) if seed % 2 else (301, 399),
                   specks=0.0005 * (seed % 3))
    mask[::97] = 0  # empty rows
    n, stats, cents = sparse_blob_stats(mask, gap=1 + seed % 9)
    n2, _, stats2, cents2 = cv2.connectedComponentsWithStats(mask, connectivity=8)
    assert n == n2
    assert np.array_equal(stats[1:], stats2[1:])
    assert np.array_equal(cents[1:], cents2[1:])  # bit for bit, in the same order


def test_sparse_blob_stats_of_an_empty_or_one_row_mask():
    assert sparse_blob_stats(np.zeros((40, 50), np.uint8))[0] == 1
    mask = np.zeros((40, 50), np.uint8)
    mask[7, 3:9] = 255
    n, stats, _ = sparse_blob_stats(mask)
    assert n == 2 and stats[1].tolist() == [3, 7, 6, 1, 6]


@pytest.mark.parametrize("seed", range(12))
def test_outer_contours_match_tracing_the_whole_mask(seed):
    mask = _spotty(seed, specks=0.01 if seed % 3 else 0.0)
    ours = outer_contours(mask)
    theirs, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    assert len(ours) == len(theirs)
    assert all(np.array_equal(a, b) for a, b in zip(ours, theirs))


def test_outer_contours_of_an_empty_mask_is_empty():
    assert len(outer_contours(np.zeros((30, 30), np.uint8))) == 0


def _holey(seed: int, shape=(240, 320)) -> np.ndarray:
    """A mask of rings (some cut by the border, some inside others), open arcs, lines
    and specks: holes, near-holes that leak through a gap or a corner, and islands."""
    rng = np.random.default_rng(seed)
    h, w = shape
    mask = _spotty(seed, shape, specks=0.01)
    for _ in range(int(rng.integers(3, 20))):
        centre = (int(rng.integers(-20, w + 20)), int(rng.integers(-20, h + 20)))
        axes = (int(rng.integers(3, 60)), int(rng.integers(3, 60)))
        gap = int(rng.integers(0, 40)) if rng.random() < 0.4 else 0
        cv2.ellipse(mask, centre, axes, float(rng.integers(0, 180)), gap, 360,
                    255, int(rng.integers(1, 4)))
    for _ in range(int(rng.integers(0, 8))):
        pts = rng.integers(-10, max(h, w) + 10, (2, 2))
        cv2.line(mask, tuple(map(int, pts[0])), tuple(map(int, pts[1])), 255, 1)
    return mask


@pytest.mark.parametrize("seed", range(16))
def test_fill_holes_matches_drawing_the_outer_contours_filled(seed):
    mask = _holey(seed)
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    drawn = cv2.drawContours(np.zeros_like(mask), contours, -1, 255, cv2.FILLED)
    filled = fill_holes(mask)
    assert np.array_equal(filled, drawn)
    assert cv2.countNonZero(filled) > cv2.countNonZero(mask)  # there were holes to fill


@pytest.mark.parametrize("seed", range(8))
def test_blob_boxes_of_a_doubled_mask_come_from_the_half_size_one(seed):
    half = _holey(seed, shape=(120, 160))
    doubled = cv2.resize(half, (320, 240), interpolation=cv2.INTER_NEAREST)
    ours = _doubled_stats(half, (320, 240))
    theirs = blob_stats(doubled)[1]
    assert ours is not None and len(ours) == len(theirs) > 10
    assert sorted(map(tuple, ours[1:].tolist())) == sorted(map(tuple, theirs[1:].tolist()))
    assert _doubled_stats(half, (321, 240)) is None  # not an exact doubling: no shortcut


def _cornerness_one(hull: np.ndarray, centre) -> float:
    pts = hull.reshape(-1, 2).astype(np.float64) - centre
    if len(pts) < 3:
        return 1.0
    far = float(np.hypot(pts[:, 0], pts[:, 1]).max())
    seg = np.roll(pts, -1, axis=0) - pts
    length = np.hypot(seg[:, 0], seg[:, 1])
    ok = length > 1e-6
    near = np.abs(pts[ok, 0] * seg[ok, 1] - pts[ok, 1] * seg[ok, 0]) / length[ok]
    return far / max(float(near.min()), 0.5) if near.size else 1.0


def test_cornerness_tells_squares_from_discs_and_matches_one_at_a_time():
    disc = np.zeros((80, 80), np.uint8)
    cv2.circle(disc, (40, 40), 25, 255, -1)
    disc_hull = cv2.convexHull(cv2.findContours(disc, cv2.RETR_EXTERNAL,
                                                cv2.CHAIN_APPROX_NONE)[0][0])
    square = np.array([[[10, 10]], [[40, 10]], [[40, 40]], [[10, 40]]], np.int32)
    turned = cv2.boxPoints(((50.0, 50.0), (30.0, 30.0), 30.0)).reshape(-1, 1, 2)
    two = np.array([[[0, 0]], [[5, 5]]], np.int32)
    hulls = [disc_hull, square, turned, two]
    centres = [(40.0, 40.0), (25.0, 25.0), (50.0, 50.0), (2.5, 2.5)]
    got = cornerness_many(hulls, centres)
    assert got == [_cornerness_one(h, c) for h, c in zip(hulls, centres)]
    assert got[0] < 1.15 and 1.35 < got[1] < 1.5 and 1.35 < got[2] < 1.5 and got[3] == 1.0
    assert cornerness_many([], []) == []


def test_ring_share_counts_the_class_around_each_box():
    cls = np.zeros((100, 100), np.uint8)
    cls[20:80, 20:80] = LIGHT  # a light body around the first box only
    inside = np.array([[40, 40], [60, 40], [60, 60], [40, 60]], np.float32)
    elsewhere = inside + 30
    off_map = inside + 500
    got = ring_share_many(cls, LIGHT, [inside, elsewhere, off_map],
                          [(50.0, 50.0), (80.0, 80.0), (550.0, 550.0)])
    assert got[0] == 1.0 and 0.0 < got[1] < 0.5 and got[2] == 0.0


def test_edge_strength_is_the_mean_gradient_on_the_band():
    rng = np.random.default_rng(3)
    grad = rng.integers(0, 256, (60, 70), dtype=np.uint8)
    cnt = np.array([[[5, 4]], [[50, 8]], [[45, 55]], [[2, 40]]], np.int32)
    band = np.zeros_like(grad)
    cv2.polylines(band, [cnt], True, 255, 3)
    assert edge_strength(grad, cnt) == float(grad[band > 0].mean())


def test_measure_then_describe_agree():
    """``describe`` (one outline) is ``measure`` plus the batch measures."""
    cls = np.full((60, 60), LIGHT, np.uint8)
    hsv = np.zeros((60, 60, 3), np.uint8)
    hsv[..., 2] = 220
    hsv[27:33, 27:33, 2] = 40  # a pip
    bgr = cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)
    grad = np.full((60, 60), 90, np.uint8)
    own = np.full((60, 60), 255, np.uint8)
    own[27:33, 27:33] = 0
    hull = np.array([[[15, 15]], [[45, 15]], [[45, 45]], [[15, 45]]], np.int32)
    face = describe(LIGHT, hull, 900.0, own, (0, 0), cls, hsv, bgr, grad, (7, 3))
    part = measure(LIGHT, hull, 900.0, own, (0, 0), cls, hsv, bgr, (7, 3))
    assert face is not None and part is not None
    assert face.centre == part["centre"] == (30.0 + 7, 30.0 + 3)
    assert face.edge == 90.0 and face.ring == 0.0 and 1.3 < face.corners < 1.5
    assert face.holes > 0.02 and face.pips > 100 and face.mark == 0  # no coloured mark


@pytest.mark.parametrize("grow, interpolation, sizes", [
    (grown_crop, cv2.INTER_NEAREST, lambda w, h: [
        (2 * w, 2 * h), (2 * w + 1, 2 * h), (int(1.7 * w) + 1, int(1.3 * h) + 1)]),
    # powers of two (the table's brightness grown 16 times), others, and boxes at the edges
    (grown_linear_crop, cv2.INTER_LINEAR, lambda w, h: [
        (16 * w, 16 * h), (4 * w, 2 * h), (3 * w, 3 * h), (w, h),
        (int(1.7 * w) + 1, int(1.3 * h) + 1)]),
])
def test_a_grown_crop_is_the_crop_of_the_grown_image(grow, interpolation, sizes):
    rng = np.random.default_rng(3)
    for _ in range(300):
        h, w = (int(v) for v in rng.integers(1, 40, 2))
        small = rng.integers(0, 256, (h, w)).astype(np.uint8)
        if interpolation == cv2.INTER_NEAREST:
            small = (small > 127).astype(np.uint8) * 255  # (a mask)
        for size in sizes(w, h):
            y0, x0 = int(rng.integers(0, size[1])), int(rng.integers(0, size[0]))
            box = (slice(y0, int(rng.integers(y0 + 1, size[1] + 1))),
                   slice(x0, int(rng.integers(x0 + 1, size[0] + 1))))
            want = cv2.resize(small, size, interpolation=interpolation)[box]
            got = grow(small, size, box)
            assert got.shape == want.shape and np.array_equal(got, want)
