"""One card alone on the table, for teaching a deck (``vision.cards_single``)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from tests.vision import cards_support as cs
from vision.cards_single import EDGE_CONTRAST, _edge_score, _passes, _whole_cards
from vision.deck import DEFAULT_ASPECT


def pale_table(seed: int = 0, size: tuple[int, int] = (960, 720)) -> np.ndarray:
    """A cream table close to a card's white, with photo noise: a faint card edge."""
    w, h = size
    rng = np.random.default_rng(seed)
    tone = cv2.resize(rng.normal(0, 1, (h // 16, w // 16)).astype(np.float32), (w, h))
    grain = rng.normal(0, 6, (h, w, 1)).astype(np.float32)
    return np.clip(np.array([232, 235, 238], np.float32) + 3 * tone[..., None] + grain, 0,
                   255).astype(np.uint8)


def scaled(corners: np.ndarray, factor: float) -> np.ndarray:
    centre = corners.mean(axis=0)
    return (centre + factor * (corners - centre)).astype(np.float32)


@pytest.mark.parametrize("factor", [0.95, 1.05])
@pytest.mark.parametrize("art,angle", [("hero-fox", 30), ("act-bank", 60)])
def test_a_white_card_on_a_pale_table_is_found_from_an_outline_a_little_off(art, angle,
                                                                             factor):
    truth = cs.card_corners((480, 360), 300, angle)
    frame = cs.place(pale_table(), cs.faces()[art], truth)
    rough = scaled(truth, factor)  # the outline search's guess: 5% in or out
    assert not _passes(_edge_score(frame, rough, EDGE_CONTRAST))  # it fails the edge test
    cards = _whole_cards(frame, [rough], EDGE_CONTRAST, DEFAULT_ASPECT)
    assert len(cards) == 1
    centre = truth.mean(axis=0)
    corner_gap = [np.hypot(*(cards[0] - c).T).min() for c in truth]
    assert max(corner_gap) < 5.0, corner_gap  # pixels, on a card 300 high
    assert np.allclose(cards[0].mean(axis=0), centre, atol=5.0)


def test_no_card_is_made_up_on_a_bare_pale_table():
    frame = pale_table(seed=3)
    guesses = [scaled(cs.card_corners((480, 360), 300, a), f) for a in (0, 25) for f in (1, 1.1)]
    assert _whole_cards(frame, guesses, EDGE_CONTRAST, DEFAULT_ASPECT) == []


@pytest.mark.parametrize("aspect", [44 / 67, 56 / 87, 70 / 120, 63 / 88])
@pytest.mark.parametrize("shift,pitch", [((0.0, 0.0), 0), ((1.7, 0.74), 20), ((-1.8, -0.6), 25)])
def test_a_cards_own_shape_is_read_in_perspective(aspect, shift, pitch):
    from vision.cards_single import card_aspect, shape_misfit

    w, h = 960, 720
    f = 0.8 * w  # the focal length of an ordinary camera, as the reading assumes
    a = np.radians(pitch)
    card = (np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]]) * [aspect, 1] + shift) * 176
    rot = np.array([[1, 0, 0], [0, np.cos(a), -np.sin(a)], [0, np.sin(a), np.cos(a)]])
    cam = np.c_[card, np.zeros(4)] @ rot.T + [0, 0, f * 352 / 260]
    quad = (cam[:, :2] * f / cam[:, 2:] + [w / 2, h / 2]).astype(np.float32)
    if pitch:  # its sides alone say another shape
        assert shape_misfit(quad, aspect) > 0.02
    assert card_aspect(quad, (h, w, 3)) == pytest.approx(aspect, abs=0.003)
    assert card_aspect(quad[[1, 2, 3, 0]], (h, w, 3)) == pytest.approx(aspect, abs=0.003)
