"""vision.polydp (approxPolyDP as OpenCV 5 does it, for OpenCV 4.x) equals OpenCV 5's."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision import cvcompat
from vision.polydp import approx_poly_dp


def _contours(seed: int) -> list[np.ndarray]:
    """Outlines of random blobs, polygons and thin strokes, as findContours gives them."""
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(12):
        img = np.zeros((200, 260), np.uint8)
        for _ in range(rng.integers(1, 4)):
            pts = rng.integers(10, 250, (rng.integers(3, 9), 2)).astype(np.int32)
            if rng.random() < 0.5:
                cv2.fillPoly(img, [cv2.convexHull(pts)], 255)
            else:
                cv2.polylines(img, [pts], True, 255, int(rng.integers(1, 4)))
        for method in (cv2.CHAIN_APPROX_SIMPLE, cv2.CHAIN_APPROX_NONE):
            out += list(cv2.findContours(img, cv2.RETR_LIST, method)[0])
    return out


def test_a_point_beyond_the_chord_counts_by_its_distance_to_the_segment():
    # on the chord's line, 20 px beyond its end: OpenCV 4.10 and older dropped it
    curve = np.array([[[0, 0]], [[30, 0]], [[10, 0]]], np.int32)
    assert approx_poly_dp(curve, 1.0, False).reshape(-1, 2).tolist() == [[0, 0], [30, 0], [10, 0]]
    assert cvcompat.approx_poly_dp(curve, 1.0, False).reshape(-1, 2).tolist() == [
        [0, 0], [30, 0], [10, 0]]


@pytest.mark.skipif(not cvcompat.SEGMENT_DP, reason="this OpenCV measures to the line")
@pytest.mark.parametrize("seed", range(4))
def test_equals_opencv_5_on_many_contours(seed):
    for contour in _contours(seed):
        peri = cv2.arcLength(contour, True)
        for eps, closed in ((0.012 * peri, True), (0.04 * peri, True), (1.2, True),
                            (0.02 * peri, False), (0.0, True)):
            for curve in (contour, cv2.convexHull(contour)):
                want = cv2.approxPolyDP(curve, eps, closed)
                got = approx_poly_dp(curve, eps, closed)
                assert got.dtype == want.dtype
                assert got.reshape(-1, 2).tolist() == want.reshape(-1, 2).tolist()


def test_bad_input_is_refused_in_one_line():
    with pytest.raises(ValueError, match="epsilon"):
        approx_poly_dp(np.zeros((3, 1, 2), np.int32), -1.0, True)
    with pytest.raises(ValueError, match="int32"):
        approx_poly_dp(np.zeros((3, 1, 2), np.float32), 1.0, True)
