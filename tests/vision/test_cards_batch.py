"""Coarse ranking of many outlines at once (``vision.cards_batch``)."""

from __future__ import annotations

import cv2
import numpy as np

from tests.vision import cards_support as cs
from vision.cards_batch import (_padded, _row_medians, features_many, light_many,
                                robust_many)
from vision.cards_match import robust_distance
from vision.deck import build_deck


def _one_by_one(q: np.ndarray, seen: np.ndarray, ref: np.ndarray, ref_sq: np.ndarray
                ) -> np.ndarray:
    """``robust_distance`` of each query alone (each cell wholly seen or not)."""
    frac = np.repeat(seen[:, :, None].astype(np.float32), 4, axis=2)
    return np.stack([robust_distance(qi, fi, ref, ref_sq, keep=0.7) for qi, fi in zip(q, frac)])


def _queries(bank, rng: np.random.Generator, noise: float) -> tuple[np.ndarray, np.ndarray]:
    picks = rng.integers(0, len(bank.coarse), 5)
    q = bank.coarse[picks] + rng.normal(0, noise, (5,) + bank.coarse.shape[1:]).astype(np.float32)
    return q, rng.random(q.shape[:2]) > 0.2


def test_batched_distances_are_those_of_each_card_alone():
    bank = cs.deck().bank
    rng = np.random.default_rng(0)
    q, seen = _queries(bank, rng, 0.3)
    batched = robust_many(q, seen, bank.coarse, bank.coarse_sq, keep=0.7, top=len(bank.coarse))
    assert np.allclose(batched, _one_by_one(q, seen, bank.coarse, bank.coarse_sq), atol=1e-4)


def test_each_bank_is_ranked_against_its_own_references():
    # the references' layout for the product is kept per bank: banks used in turn must
    # not be confused, whichever was laid out first
    faces = sorted(cs.faces().items())
    one, two = build_deck(faces[:12]).bank, build_deck(faces[12:]).bank
    rng = np.random.default_rng(1)
    for bank in (one, two, one, two):
        q, seen = _queries(bank, rng, 0.2)
        batched = robust_many(q, seen, bank.coarse, bank.coarse_sq, keep=0.7,
                              top=len(bank.coarse))
        assert np.allclose(batched, _one_by_one(q, seen, bank.coarse, bank.coarse_sq), atol=1e-4)


def _small_cards(n: int) -> np.ndarray:
    """``n`` of the test deck's faces at the coarse size, some turned, uint8 BGR."""
    bank = cs.deck().bank
    h, w = bank.size
    faces = [f for _, f in sorted(cs.faces().items())][:n]
    small = [cv2.resize(f, (w, h), interpolation=cv2.INTER_AREA) for f in faces]
    return np.stack([s if k % 2 else s[::-1, ::-1] for k, s in enumerate(small)])


def test_lightness_alone_is_the_features_lightness():
    cards = _small_cards(5)
    for stack in (cards, cards[2:3]):  # a batch, and one card as the naming takes it
        assert np.array_equal(light_many(stack), features_many(stack)[..., 0])


def test_reflected_padding_and_medians_are_numpys():
    rng = np.random.default_rng(2)
    images = rng.integers(0, 256, (3, 7, 5, 2)).astype(np.uint8)
    assert np.array_equal(_padded(images, 4),
                          np.pad(images, ((0, 0), (4, 4), (4, 4), (0, 0)), mode="reflect"))
    for m in (9, 10):  # odd and even counts
        values = rng.normal(0, 1, (4, m)).astype(np.float32)
        assert np.array_equal(_row_medians(values), np.median(values, axis=1))
