"""How much of a card the camera saw at its ceiling (``vision.cards_exposure``)."""

from __future__ import annotations

import numpy as np
import pytest

from tests.vision import cards_support as cs
from vision.cards_exposure import RIM, clipped_share


def exposed(face: np.ndarray, gain: float, *, seed: int = 0) -> np.ndarray:
    """``face`` photographed at ``gain`` times its exposure: sensor noise, then the
    camera's ceiling (what goes past 255 reads 255)."""
    rng = np.random.default_rng(seed)
    shot = face * gain + rng.normal(0, 2.5, face.shape[:2])[..., None]
    return np.clip(np.rint(shot), 0, 255).astype(np.uint8)


def test_paper_past_the_ceiling_is_measured_and_paper_below_it_is_not():
    face = cs.faces()["act-bank"]
    m = round(RIM * face.shape[0])
    inner = face[m:-m, m:-m]
    paper = np.count_nonzero(inner.min(axis=2) >= 240) / inner[..., 0].size  # plain paper
    before = exposed(face, 0.95)
    kept = before.copy()
    assert clipped_share(before) < 0.01  # paper at ~234 with noise: below the ceiling
    assert np.array_equal(before, kept)  # the input is not written
    over = exposed(face, 1.3)  # the paper at ~320: read 255
    assert clipped_share(over) > 0.9 * paper > 0.1


def test_paper_just_under_the_ceiling_with_its_noise_is_not_clipped():
    face = cs.faces()["hero-fox"]
    assert clipped_share(exposed(face, 248 / 246)) < 0.05  # paper at 248 +- 2.5


def tinted(face: np.ndarray, gains: tuple[float, float, float], *, seed: int = 0) -> np.ndarray:
    """``face`` under a tinted light: per-channel (B, G, R) exposure, noise, the ceiling."""
    rng = np.random.default_rng(seed)
    shot = face * np.array(gains) + rng.normal(0, 2.5, face.shape[:2])[..., None]
    return np.clip(np.rint(shot), 0, 255).astype(np.uint8)


def test_a_light_that_clips_green_and_red_is_measured_with_two_channels():
    # a yellowish light: the paper's green and red past the ceiling, its blue well below
    # (seed 45's BANK capture: two channels over 0.10 of the card, all three over 0.001)
    face = cs.faces()["act-bank"]
    yellowish = tinted(face, (0.8, 1.25, 1.25))
    assert clipped_share(yellowish) < 0.01  # blue at ~196: not every channel
    assert clipped_share(yellowish, channels=2) > 0.1
    assert clipped_share(yellowish, channels=1) >= clipped_share(yellowish, channels=2)
    assert clipped_share(exposed(face, 0.95), channels=2) < 0.01  # below it: none
    with pytest.raises(ValueError, match="channels must be 1, 2 or 3"):
        clipped_share(face, channels=4)


@pytest.mark.parametrize("bad", [np.zeros((10, 10), np.uint8), np.zeros((20, 20, 3), float)])
def test_a_face_that_is_no_colour_image_is_refused(bad):
    with pytest.raises(ValueError, match="face"):
        clipped_share(bad)
