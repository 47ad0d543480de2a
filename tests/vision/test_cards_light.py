"""Evening out a taught face's light from its border (``vision.cards_light``)."""

from __future__ import annotations

import numpy as np
import pytest

from tests.vision import cards_support as cs
from vision.cards_light import WHITE, even_light


def lit(face: np.ndarray, tint: tuple[float, float, float], slope: float) -> np.ndarray:
    """``face`` under a coloured light that falls off from top to bottom."""
    h = face.shape[0]
    fall = 1 - slope * np.linspace(0, 1, h)[:, None, None]
    return np.clip(face * np.array(tint) * fall, 0, 255).astype(np.uint8)


def test_a_warm_uneven_light_is_divided_out():
    clean = cs.faces()["act-fire"]
    shot = lit(clean, (0.75, 0.9, 1.05), 0.35)
    before = shot.copy()
    out = even_light(shot)
    assert out.shape == shot.shape and out.dtype == np.uint8
    assert np.array_equal(shot, before)  # the input is not written
    error_before = np.abs(shot.astype(int) - clean).mean()
    error_after = np.abs(out.astype(int) - clean).mean()
    assert error_after < 6 < error_before - 10
    border = out[6:10, 10:-10].reshape(-1, 3).mean(axis=0)  # the top border, now white
    assert np.abs(border - WHITE).max() < 10


def test_art_to_the_edge_or_a_coloured_border_is_left_alone():
    rng = np.random.default_rng(1)
    full_bleed = rng.integers(0, 256, (352, 252, 3), dtype=np.uint8)
    assert even_light(full_bleed) is full_bleed
    red_border = cs.faces()["hero-fox"].copy()
    red_border[:20], red_border[-20:], red_border[:, :20], red_border[:, -20:] = (
        (30, 30, 200), (30, 30, 200), (30, 30, 200), (30, 30, 200))
    assert even_light(red_border) is red_border


def test_bad_input_is_named():
    with pytest.raises(ValueError, match="^face must be"):
        even_light(np.zeros((40, 30), np.uint8))
