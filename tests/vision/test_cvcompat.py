"""vision.cvcompat and the camera backend work on the OpenCV installed (4.6 on a Pi, 5.x here)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from hardware import opencv_cam
from vision import bilinear, cvcompat
from vision.cvcompat import LOG_ERROR, LOG_SILENT, set_log_level


def test_set_log_level_returns_the_previous_level_and_sets_the_new_one():
    before = set_log_level(LOG_SILENT)
    try:
        assert set_log_level(LOG_ERROR) == LOG_SILENT
        assert set_log_level(LOG_ERROR) == LOG_ERROR
    finally:
        set_log_level(before)


def test_the_camera_backend_sets_and_restores_the_same_level():
    before = set_log_level(LOG_ERROR)
    try:
        assert opencv_cam._quietly(lambda: set_log_level(LOG_SILENT)) == LOG_SILENT
        assert set_log_level(LOG_ERROR) == LOG_ERROR  # _quietly put back the level it found
    finally:
        set_log_level(before)


# Bilinear sampling reproduces a linear ramp exactly at any position: OpenCV 4.x rounds
# the positions to 1/32 pixel (off by up to 0.3 levels here), OpenCV 5 and cvcompat do not.
_RAMP = (2.0 * np.arange(240)[None, :] + 3.0 * np.arange(200)[:, None]).astype(np.float32)


def _ramp_at(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    return 2.0 * x + 3.0 * y


def test_warp_perspective_samples_at_the_exact_position():
    m = cv2.getPerspectiveTransform(
        np.array([[10.3, 12.1], [200.7, 15.2], [205.1, 190.4], [8.6, 180.9]], np.float32),
        np.array([[0, 0], [109, 0], [109, 159], [0, 159]], np.float32))
    got = cvcompat.warp_perspective(_RAMP, m, (110, 160), flags=cv2.INTER_LINEAR,
                                    borderMode=cv2.BORDER_REPLICATE)
    inv = np.linalg.inv(m)
    ys, xs = np.mgrid[0:160, 0:110].astype(np.float64)
    w = inv[2, 0] * xs + inv[2, 1] * ys + inv[2, 2]
    want = _ramp_at((inv[0, 0] * xs + inv[0, 1] * ys + inv[0, 2]) / w,
                    (inv[1, 0] * xs + inv[1, 1] * ys + inv[1, 2]) / w)
    np.testing.assert_allclose(got, want, atol=0.01)


def test_warp_affine_and_remap_sample_at_the_exact_position():
    inv = np.array([[0.9, 0.21, 10.3], [0.13, 0.8, 5.7]])  # stays inside the ramp
    got = cvcompat.warp_affine(_RAMP, inv, (150, 120),
                               flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP)
    ys, xs = np.mgrid[0:120, 0:150].astype(np.float64)
    mx = inv[0, 0] * xs + inv[0, 1] * ys + inv[0, 2]
    my = inv[1, 0] * xs + inv[1, 1] * ys + inv[1, 2]
    np.testing.assert_allclose(got, _ramp_at(mx, my), atol=0.01)
    got = cvcompat.remap(_RAMP, mx.astype(np.float32), my.astype(np.float32), cv2.INTER_LINEAR)
    np.testing.assert_allclose(got, _ramp_at(mx.astype(np.float32), my.astype(np.float32)),
                               atol=0.01)


def test_constant_border_fills_outside_pixels_like_opencv():
    src = np.full((10, 10, 3), 200, np.uint8)
    shift = np.array([[1.0, 0, 5], [0, 1.0, 0]])  # the left five columns come from outside
    got = cvcompat.warp_affine(src, shift, (10, 10), borderMode=cv2.BORDER_CONSTANT,
                               borderValue=0)
    assert (got[:, :5] == 0).all() and (got[:, 6:] == 200).all()


def test_reflect_mirrors_outside_indices_with_the_edge_repeated():
    got = bilinear._reflect(np.arange(-4, 8), 3)
    assert got.tolist() == [2, 2, 1, 0, 0, 1, 2, 2, 1, 0, 0, 1]  # cba|abc|cba|ab


@pytest.mark.skipif(int(cv2.__version__.split(".")[0]) < 5,
                    reason="compares with OpenCV 5's own bilinear kernels")
def test_the_exact_warps_give_opencv_5s_own_bits(monkeypatch):
    # the 4.x path, on OpenCV 5 itself: a card rectified (uint8), features laid over one
    # another (float32) and a remap give OpenCV 5's very values, its float32 positions and
    # blend and all (an exact float64 position gave 555 of 3.2 million uint8 values one
    # level apart, and a third of the float values a few ulps apart)
    monkeypatch.setattr(cvcompat, "QUANTISED_WARPS", True)
    rng = np.random.default_rng(5)
    frame = cv2.GaussianBlur(rng.integers(0, 256, (240, 320, 3), dtype=np.uint8), (0, 0), 2)
    frame = np.clip(frame.astype(int) * 3 - 200, 0, 255).astype(np.uint8)  # strong edges
    feats = rng.normal(0, 1, (160, 110, 3)).astype(np.float32)
    for size in ((110, 160), (37, 41)):  # whole steps of 16 pixels and a row's tail
        quad = np.float32([[50, 40], [150, 45], [155, 200], [45, 195]])
        quad += rng.uniform(-15, 15, quad.shape).astype(np.float32)
        m = cv2.getPerspectiveTransform(quad, np.float32(
            [[0, 0], [size[0] - 1, 0], [size[0] - 1, size[1] - 1], [0, size[1] - 1]]))
        for border in (cv2.BORDER_CONSTANT, cv2.BORDER_REPLICATE):
            got = cvcompat.warp_perspective(frame, m, size, borderMode=border)
            want = cv2.warpPerspective(frame, m, size, flags=cv2.INTER_LINEAR,
                                       borderMode=border)
            assert got.tobytes() == want.tobytes()
        a = np.eye(2, 3) + rng.normal(0, [[0.05, 0.05, 3], [0.05, 0.05, 3]])
        flags = cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP
        assert (cvcompat.warp_affine(feats, a, size, flags=flags).tobytes()
                == cv2.warpAffine(feats, a, size, flags=flags).tobytes())
        mx = rng.uniform(-2, 112, (60, 50)).astype(np.float32)
        my = rng.uniform(-2, 162, (60, 50)).astype(np.float32)
        assert (cvcompat.remap(feats, mx, my, cv2.INTER_LINEAR).tobytes()
                == cv2.remap(feats, mx, my, cv2.INTER_LINEAR).tobytes())
