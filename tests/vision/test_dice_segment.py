"""The exposure gain and what it clips: brightness contrasts measured before it."""

from __future__ import annotations

import numpy as np
import pytest

import cv2

from tests.vision import dice_support as ds
from vision.dice import read_dice
from vision.dice_faces import gradient, unclipped_gradient
from vision.dice_segment import (exposure_gain, median5, normalise_exposure, unclipped_value,
                                 white_gains)


def _block(angle: float, *, seed: int = 0, edge: int = 30, gap: int = 4,
           seam: int = 140, table: tuple = (78, 72, 68)) -> np.ndarray:
    """A dark table holding a 2x2 block of light dice with small round marks (a twelfth of
    a face: green, yellow, red, green), their tops parted by lit grey gaps (side faces)."""
    frame = ds.table(colour=table, seed=seed)
    centre = np.array([300.0, 240.0])
    cv2.fillConvexPoly(frame, np.round(ds.square(centre, 2 * edge + gap + 2, angle)).astype(
        np.int32), (seam, seam, seam), cv2.LINE_AA)
    c, s = np.cos(np.radians(angle)), np.sin(np.radians(angle))
    marks = iter(("green", "yellow", "red", "green"))
    for i in (-1, 1):
        for j in (-1, 1):
            at = centre + np.array([[c, -s], [s, c]]) @ (np.array([i, j]) * (edge + gap) / 2)
            cv2.fillConvexPoly(frame, np.round(ds.square(at, edge, angle)).astype(np.int32),
                               (225, 225, 222), cv2.LINE_AA)
            cv2.circle(frame, (int(round(at[0])), int(round(at[1]))), round(0.16 * edge),
                       ds.FACE[next(marks)], -1, cv2.LINE_AA)
    return frame


def test_a_bright_frame_gets_no_gain():
    frame = ds.scene(["green", "red"])
    assert exposure_gain(frame) == 1.0
    assert normalise_exposure(frame) is frame


def test_a_gain_measured_already_is_the_one_applied():
    frame = _block(0.0)
    gain = exposure_gain(frame)
    assert gain > 1.25
    assert np.array_equal(normalise_exposure(frame, gain=gain), normalise_exposure(frame))
    assert normalise_exposure(frame, gain=1.0) is frame


def test_the_brightness_before_the_gain_keeps_what_the_gain_clipped():
    frame = _block(0.0)
    exposed = normalise_exposure(frame)
    value, gain = unclipped_value(frame, white_gains(frame)), exposure_gain(frame)
    assert 2.0 < gain < 3.0
    top, seam = (slice(212, 216), slice(270, 274)), (slice(239, 241), slice(270, 274))
    assert exposed[top].min() == 255 and exposed[seam].min() >= 250  # both clipped white
    assert value[top].mean() > 1.4 * value[seam].mean()  # 225 against 140 before the gain
    hsv = cv2.cvtColor(exposed, cv2.COLOR_BGR2HSV)
    edge = (slice(237, 240), slice(270, 274))  # the top's edge against the gap
    assert gradient(hsv)[edge].max() < 40
    assert unclipped_gradient(gradient(hsv), (value, gain))[edge].max() >= 200


def test_touching_light_dice_on_a_dark_table_are_read_apart():
    # the gain that lifts the dark table clips the tops and the gaps between them alike;
    # measured before it, the gaps part the tops and each top keeps its own mark
    for angle in (0.0, 20.0, 30.0):
        for seed in (0, 1):
            assert read_dice(_block(angle, seed=seed)).counts() == (2, 1, 1, 0), (angle, seed)


def _numpy_white_gains(frame: np.ndarray, *, top: float = 0.02, max_chroma: float = 0.4,
                       max_gain: float = 1.35) -> np.ndarray | None:
    """``white_gains`` as first written, in numpy (the reference the OpenCV calls keep)."""
    h, w = frame.shape[:2]
    small = cv2.resize(frame, (w // 4, h // 4), interpolation=cv2.INTER_NEAREST)
    hi, lo = small.max(axis=2).ravel(), small.min(axis=2).ravel()
    k = int((1 - top) * (len(hi) - 1))
    kth = int(np.searchsorted(np.cumsum(np.bincount(hi, minlength=256)), k, side="right"))
    white = (hi >= max(kth, 60)) & ((hi - lo) < (max_chroma * hi).astype(np.uint8))
    if np.count_nonzero(white) < 20:
        return None
    ref = small.reshape(-1, 3)[white].mean(axis=0)
    gains = np.clip(ref.mean() / np.maximum(ref, 1.0), 1 / max_gain, max_gain)
    return None if np.abs(gains - 1).max() < 0.06 else gains


def test_the_white_gains_are_numpys_bit_for_bit():
    rng = np.random.default_rng(5)
    frames = [ds.scene(["green", "red", "yellow"], seed=s) for s in range(3)]
    frames += [cv2.convertScaleAbs(f, alpha=0.8) for f in frames]  # dimmer
    frames += [cv2.LUT(f, np.clip(np.arange(256)[:, None] * [0.8, 1.0, 1.2], 0, 255)
                       .astype(np.uint8).reshape(256, 1, 3)) for f in frames]  # a warm cast
    frames += [rng.integers(0, 256, (242, 321, 3), dtype=np.uint8),  # noise, odd sizes
               np.full((120, 160, 3), 90, np.uint8)]  # no white at all
    cast = 0
    for frame in frames:
        want, got = _numpy_white_gains(frame), white_gains(frame)
        assert (want is None) == (got is None)
        if want is not None:
            cast += 1
            assert got.dtype == want.dtype and got.tobytes() == want.tobytes()
    assert cast >= 3  # the warm frames have a cast to take out


@pytest.mark.parametrize("size", [(20, 15), (31, 9), (4, 4), (1, 6), (32, 24), (45, 30)])
@pytest.mark.parametrize("channels", [1, 3])
def test_the_narrow_median_is_opencvs_bit_for_bit(size, channels):
    rng = np.random.default_rng(size[0] * 7 + channels)
    image = rng.integers(0, 256, (size[1], size[0], channels)[:2 if channels == 1 else 3],
                         dtype=np.uint8)
    image[:, :2] = 255  # an edge column unlike the rest: the border must repeat it
    got = median5(image)
    assert got.shape == image.shape and got.flags["C_CONTIGUOUS"]
    assert np.array_equal(got, cv2.medianBlur(image, 5))


def test_the_picked_quarter_takes_the_gain_and_the_cast_as_the_frame_does():
    from vision.dice_cloth import cloth_grid
    from vision.dice_segment import apply_gains, quarter_sample

    dark = _block(0.0)
    warm = cv2.LUT(dark, np.clip(np.arange(256)[:, None] * [0.8, 1.0, 1.25], 0, 255)
                   .astype(np.uint8).reshape(256, 1, 3))
    for frame in (dark, warm, dark[:, :-3], warm[1:, 2:]):  # odd sizes too
        gain = exposure_gain(frame)
        exposed = normalise_exposure(frame, gain=gain)
        picked = normalise_exposure(quarter_sample(frame), gain=gain)
        assert np.array_equal(picked, quarter_sample(exposed))
        assert np.array_equal(white_gains(exposed, small=picked), white_gains(exposed))
        gains = white_gains(exposed)
        work = apply_gains(exposed, gains)
        assert np.array_equal(apply_gains(picked, gains), quarter_sample(work))
        assert cloth_grid(work, None, apply_gains(picked, gains)) == cloth_grid(work)
    assert gain > 1.25 and gains is not None  # both a gain and a cast were taken out
