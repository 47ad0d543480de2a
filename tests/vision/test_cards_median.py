"""Medians of 8-bit values by counting (``vision.cards_median``), and the features that use
them: the same numbers as ``np.median`` and the plain formulas, bit for bit."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.cards_batch import features_many
from vision.cards_match import (BLUR, CHROMA_DEADBAND, CHROMA_SCALE, FINE_BLUR, features,
                                fine_distance, reference_cells)
from vision.cards_median import median_u8


@pytest.mark.parametrize("shape", [(1,), (2,), (3,), (7, 704), (2, 17920), (3, 4, 9)])
def test_the_median_by_counting_is_numpys(shape):
    rng = np.random.default_rng(len(shape) * 100 + shape[-1])
    for _ in range(20):
        low, high = sorted(int(v) for v in rng.integers(0, 256, 2))
        values = rng.integers(low, high + 1, shape).astype(np.uint8)
        got = median_u8(values)
        want = np.median(values.astype(np.float32), axis=-1)
        assert got.dtype == np.float32 and got.shape == np.shape(want)
        assert np.array_equal(got, want)


def test_the_median_of_interleaved_channels_is_numpys_along_the_axis():
    lab = np.random.default_rng(5).integers(0, 256, (16, 12, 3)).astype(np.uint8)
    pixels = lab[:, :, 1:].reshape(-1, 2)  # a strided view, as a card's chroma is
    assert np.array_equal(median_u8(pixels.T), np.median(pixels.astype(np.float32), axis=0))


def test_the_median_refuses_what_is_not_8_bit():
    with pytest.raises(ValueError, match="uint8"):
        median_u8(np.zeros(4, np.float32))
    with pytest.raises(ValueError, match="M >= 1"):
        median_u8(np.zeros((3, 0), np.uint8))


def _plain_features(card: np.ndarray, blur: float) -> np.ndarray:
    """``cards_match.features`` written as the formulas (np.median, no look-up table)."""
    from vision.cards_match import RIM, _wide_blur

    lab = cv2.cvtColor(card, cv2.COLOR_BGR2LAB).astype(np.float32)
    sigma = card.shape[0] / 10
    light = lab[:, :, 0]
    centred = light - _wide_blur(light, sigma)
    spread = np.sqrt(_wide_blur(centred * centred, sigma))
    out = np.empty(card.shape, np.float32)
    out[:, :, 0] = centred / (spread + max(6.0, float(np.median(spread))))
    chroma = lab[:, :, 1:] - np.median(lab[:, :, 1:].reshape(-1, 2), axis=0)
    out[:, :, 1:] = np.sign(chroma) * np.maximum(np.abs(chroma) - CHROMA_DEADBAND, 0) / CHROMA_SCALE
    out = cv2.GaussianBlur(out, (0, 0), card.shape[0] * blur)
    m = max(1, round(card.shape[0] * RIM))
    out[:m], out[-m:], out[:, :m], out[:, -m:] = 0, 0, 0, 0
    return out


def _cards(count: int, seed: int) -> list[np.ndarray]:
    """Coloured cards of stripes, blobs and noise, some tinted, some washed out."""
    rng = np.random.default_rng(seed)
    out = []
    for k in range(count):
        h, w = (160, 112) if k % 2 else (int(rng.integers(20, 90)), int(rng.integers(20, 90)))
        card = np.full((h, w, 3), rng.integers(150, 256, 3), np.uint8)
        for _ in range(4):
            y, x = int(rng.integers(0, h)), int(rng.integers(0, w))
            colour = tuple(int(c) for c in rng.integers(0, 256, 3))
            cv2.circle(card, (x, y), int(rng.integers(2, max(3, h // 3))), colour, -1)
        noise = rng.normal(0, float(rng.uniform(0, 12)), card.shape)
        out.append(np.clip(card + noise, 0, 255).astype(np.uint8))
    return out


def test_a_cards_features_are_the_formulas_bit_for_bit():
    for card in _cards(24, 7):
        for blur in (FINE_BLUR, BLUR):
            assert np.array_equal(features(card, blur), _plain_features(card, blur))


def test_many_cards_features_take_each_cards_median_colour():
    cards = np.stack([cv2.resize(c, (44, 64), interpolation=cv2.INTER_AREA)
                      for c in _cards(6, 11)])
    unblurred = features_many(cards, blur=0.0)  # the colour channels before their blur
    rim = max(1, round(64 * 0.03))
    for k in range(len(cards)):
        lab = cv2.cvtColor(cards[k], cv2.COLOR_BGR2LAB).astype(np.float32)
        chroma = lab[:, :, 1:] - np.median(lab[::2, ::2, 1:].reshape(-1, 2), axis=0)
        want = (chroma - np.clip(chroma, -CHROMA_DEADBAND, CHROMA_DEADBAND)) / CHROMA_SCALE
        assert np.array_equal(unblurred[k, rim:-rim, rim:-rim, 1:], want[rim:-rim, rim:-rim])


def test_a_distance_with_its_reference_cells_kept_is_the_same():
    cards = _cards(4, 13)
    query, ref = (features(c, FINE_BLUR) for c in cards[1::2])
    seen = np.ones(query.shape[:2], bool)
    seen[:40, :30] = False
    for ref_view in (ref, ref[::-1, ::-1]):
        kept = reference_cells(ref_view)
        assert fine_distance(query, seen, ref_view, keep=0.7, ref_cells=kept) == fine_distance(
            query, seen, ref_view, keep=0.7)
