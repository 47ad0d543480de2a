"""vision.bilinear (cvcompat's exact warps on OpenCV 4.x) equals the numpy reference bit for
bit, on whichever OpenCV runs the tests (5.x here, 4.6 in .ci/pi-versions)."""

from __future__ import annotations

import zlib

import cv2
import numpy as np
import pytest

from tests.vision import bilinear_reference as reference
from vision import cvcompat
from vision.bilinear import _fetched, sample_bilinear

BORDERS = (cv2.BORDER_CONSTANT, cv2.BORDER_REPLICATE, cv2.BORDER_REFLECT)
SHAPES_DTYPES = [((37, 53, 3), np.uint8), ((37, 53), np.uint8), ((41, 29), np.float32),
                 ((41, 29, 3), np.float32), ((23, 31, 2), np.float64), ((30, 30, 4), np.uint8),
                 ((19, 17), np.int16), ((19, 17, 5), np.uint8), ((12, 14), np.int32),
                 ((1, 1), np.float32)]


def _image(rng: np.random.Generator, shape: tuple[int, ...], dtype) -> np.ndarray:
    if np.dtype(dtype).kind == "f":
        return (rng.normal(0, 50, shape)).astype(dtype)
    info = np.iinfo(dtype)
    return rng.integers(max(info.min, -30000), min(info.max, 30000), shape, endpoint=True,
                        dtype=dtype)


def _positions(rng: np.random.Generator, h: int, w: int, out: tuple[int, ...]):
    """Positions inside, near and far outside the image, on whole and half pixels, and a
    few that are not finite."""
    mx = rng.uniform(-0.3 * w - 3, 1.3 * w + 3, out)
    my = rng.uniform(-0.3 * h - 3, 1.3 * h + 3, out)
    flat_x, flat_y = mx.reshape(-1), my.reshape(-1)
    flat_x[::7] = np.round(flat_x[::7])
    flat_y[::5] = np.round(flat_y[::5] * 2) / 2
    flat_x[3::11] = rng.uniform(-5e6, 5e6, flat_x[3::11].shape)  # far beyond any reach
    flat_x[4::97], flat_y[5::89] = np.nan, np.inf
    return mx, my


@pytest.mark.parametrize("border", BORDERS)
@pytest.mark.parametrize("shape, dtype", SHAPES_DTYPES)
def test_sampling_equals_the_reference_bit_for_bit(shape, dtype, border):
    rng = np.random.default_rng(zlib.crc32(repr((shape, np.dtype(dtype).str, border)).encode()))
    src = _image(rng, shape, dtype)
    for out, value in (((24, 31), 0), ((7, 9), 17), ((50,), (3, 250, 7, 1)), ((6, 8), 0.5)):
        mx, my = _positions(rng, shape[0], shape[1], out)
        got = sample_bilinear(src, mx, my, border, value)
        want = reference.bilinear(src, mx, my, border, value)
        assert got.dtype == want.dtype and got.shape == want.shape
        assert got.tobytes() == want.tobytes()


def test_opencv_fetches_the_common_cases():
    """The quick path is the one taken for frames, features and masks (else the test above
    would only compare the reference with itself)."""
    at = np.zeros((4, 5))
    for src in (np.zeros((9, 9, 3), np.uint8), np.zeros((9, 9), np.float32)):
        for border in BORDERS:
            fill = np.zeros(src.shape[2:], np.float32)
            assert _fetched(src, at, at, border, fill) is not None


@pytest.mark.parametrize("flags", [cv2.INTER_LINEAR, cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                                   cv2.INTER_AREA])
@pytest.mark.parametrize("border", BORDERS)
def test_warps_equal_the_reference_bit_for_bit(monkeypatch, flags, border):
    monkeypatch.setattr(cvcompat, "QUANTISED_WARPS", True)  # the 4.x path on any OpenCV
    rng = np.random.default_rng(7)
    frame = _image(rng, (120, 160, 3), np.uint8)
    features = _image(rng, (60, 44, 3), np.float32)
    for _ in range(4):
        quad = np.array([[10, 8], [150, 12], [140, 110], [5, 100]], np.float32)
        quad += rng.uniform(-8, 8, quad.shape).astype(np.float32)
        dst = np.array([[0, 0], [51, 0], [51, 71], [0, 71]], np.float32)
        m = cv2.getPerspectiveTransform(quad, dst)
        got = cvcompat.warp_perspective(frame, m, (52, 72), flags=flags, borderMode=border)
        want = reference.warp(frame, m, (52, 72), flags, border, 0)
        assert got.tobytes() == want.tobytes()
        a = np.eye(2, 3) + rng.normal(0, [[0.05, 0.05, 3], [0.05, 0.05, 3]])
        got = cvcompat.warp_affine(features, a, (44, 60), flags=flags, borderMode=border)
        want = reference.warp(features, a, (44, 60), flags, border, 0)
        assert got.tobytes() == want.tobytes()
