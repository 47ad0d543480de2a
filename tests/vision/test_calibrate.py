"""Calibration: die size and colours learned from one frame, stored as JSON, used to read."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import cv2

from tests.vision import dice_support as ds
from vision.calibrate import (MAX_HUE_SHIFT, SIZE_RANGE, Calibration, apply_calibration,
                              calibrate, within_prior)
from vision.dice import DiceParams, read_dice
from vision.imageio import read_image


def hue_of(bgr) -> float:
    return float(cv2.cvtColor(np.uint8([[bgr]]), cv2.COLOR_BGR2HSV)[0, 0, 0])


def test_learns_size_colours_and_table():
    frame = ds.scene(["green", "yellow", "red", "green", "yellow", "red"], side=40,
                     table_colour=(90, 100, 110))
    cal = calibrate(frame)
    assert cal.dice_seen == 6
    assert 0.8 * 40 < cal.die_side_px < 1.2 * 40
    assert cal.frame_width == 640
    for name, bgr in ds.FACE.items():
        assert abs(cal.hues[name] - hue_of(bgr)) < 4, name
    assert np.allclose(cal.table_bgr, (90, 100, 110), atol=6)


def test_round_trip_through_json():
    cal = calibrate(ds.scene(["green", "yellow", "red"], side=36))
    stored = json.loads(json.dumps(cal.to_dict()))
    again = Calibration.from_dict(stored)
    assert again.to_dict() == cal.to_dict()
    assert again.side_at(1280) == pytest.approx(2 * again.side_at(640))


@pytest.mark.parametrize("bad, words", [
    ({}, "version"),
    ({"version": 1}, "not a dice calibration"),
    ({"version": 1, "die_side_px": 30, "frame_width": 640, "hues": {"blue": 100},
      "table_bgr": [1, 2, 3]}, "unknown colour"),
    ({"version": 1, "die_side_px": 3000, "frame_width": 640, "hues": {},
      "table_bgr": [1, 2, 3]}, "out of range"),
    ({"version": 1, "die_side_px": 30, "frame_width": 640, "hues": {},
      "table_bgr": [1, 2]}, "3 numbers"),
])
def test_malformed_calibrations_are_refused(bad, words):
    with pytest.raises(ValueError, match=words):
        Calibration.from_dict(bad)
    with pytest.raises(ValueError):
        read_dice(ds.table(), calibration=bad)


def test_no_dice_no_calibration():
    with pytest.raises(ValueError, match="No dice found"):
        calibrate(ds.table())


def test_a_warm_lamp_is_learned():
    # under a warm lamp the yellow faces look orange; learned boundaries follow them
    warm_yellow = (10, 120, 240)
    colours = ["green", warm_yellow, "red", warm_yellow, "green", "red"]
    frame = ds.scene(colours, side=40)
    plain = read_dice(frame)
    cal = calibrate(ds.scene(colours, side=40, seed=3))
    assert cal.hues["yellow"] < 16  # an orange that the default calls another game's die
    assert plain.counts() != (2, 2, 2, 0)
    assert read_dice(frame, calibration=cal.to_dict()).counts() == (2, 2, 2, 0)


def test_calibration_moves_hue_boundaries_between_the_colours():
    cal = Calibration(30.0, 640, {"red": 176.0, "yellow": 20.0, "green": 62.0}, (0, 0, 0), 3)
    ro, ry, yg, go, orr = apply_calibration(DiceParams(), cal).hue_edges
    assert ro < ry <= 20 - 2 and 20 < yg < 62 < go and 62 < orr < 176


def test_a_measured_size_is_kept_within_a_wide_range_of_the_learned_one():
    # a camera raised or lowered, a phone photo: the size measured in the frame wins ...
    assert within_prior(18.0, 32.0) == 18.0 and within_prior(32.0, 18.0) == 32.0
    # ... but a wild measurement (a cluttered frame) is pulled back; no calibration: as is
    assert within_prior(5.0, 30.0) == pytest.approx(30.0 / SIZE_RANGE)
    assert within_prior(200.0, 30.0) == pytest.approx(30.0 * SIZE_RANGE)
    assert within_prior(5.0, None) == 5.0


def test_hue_boundaries_move_at_most_a_few_steps():
    # even a calibration of strange hues moves no boundary far: another game's dice stay other
    cal = Calibration(30.0, 640, {"red": 150.0, "yellow": 40.0, "green": 90.0}, (0, 0, 0), 3)
    edges = apply_calibration(DiceParams(), cal).hue_edges
    assert all(abs(e - d) <= MAX_HUE_SHIFT for e, d in zip(edges, DiceParams().hue_edges))


BLUE, PURPLE, WHITE = (200, 90, 30), (150, 40, 120), (235, 235, 235)


@pytest.mark.parametrize("colours, words", [
    (["green", "red"], "only 2 Toss Up! dice"),
    (["green", "yellow", "red", BLUE, PURPLE, WHITE, BLUE], "only 3 of the 7 dice"),
])
def test_a_photo_of_other_dice_or_too_few_teaches_nothing(colours, words):
    with pytest.raises(ValueError, match=words) as caught:
        calibrate(ds.scene(colours, side=36, seed=5))
    assert "\n" not in str(caught.value) and "Toss Up!" in str(caught.value)


def test_calibrated_from_any_demo_frame_every_demo_frame_reads_right():
    folder = Path(__file__).resolve().parents[2] / "companion" / "demo" / "frames"
    labels = json.loads((folder / "labels.json").read_text())["images"]
    frames = {n: read_image(folder / n) for n in sorted(labels)}
    wrong = []
    for source, frame in frames.items():
        cal = calibrate(frame)
        for name, other in frames.items():
            got = read_dice(other, calibration=cal).counts()[:3]
            want = tuple(labels[name][c] for c in ("green", "yellow", "red"))
            if got != want:
                wrong.append(f"{name} from {source}: {got} not {want}")
    assert wrong == []
