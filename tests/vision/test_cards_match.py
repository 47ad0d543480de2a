"""The look-alike duel's contrast statistic (``vision.cards_match.duel_contrast``)."""

from __future__ import annotations

import numpy as np

from tests.vision import cards_support as cs
from vision.cards_match import duel_contrast, fine_duel


def _pair(a: str, b: str) -> tuple[np.ndarray, np.ndarray]:
    deck = cs.deck()
    return tuple(deck.bank.fine[deck.ids.index(cid)] for cid in (a, b))


def test_the_contrast_says_which_look_alike_the_card_shows():
    ref_a, ref_b = _pair("act-bark", "act-bank")
    seen = np.ones(ref_a.shape[:2], bool)
    assert duel_contrast(ref_a, seen, ref_a, ref_b) > 0.4
    assert duel_contrast(ref_b, seen, ref_a, ref_b) < -0.4
    # a faded print (half the contrast) and a small shift do not change the answer
    faded = np.roll(ref_a * 0.5, 2, axis=1)
    assert duel_contrast(faded, seen, ref_a, ref_b) > 0.4


def test_a_card_showing_neither_look_alike_gets_no_clear_contrast():
    ref_a, ref_b = _pair("num-5", "num-6")
    seen = np.ones(ref_a.shape[:2], bool)
    other = _pair("rune-star", "rune-star")[0]  # another layout altogether
    assert abs(duel_contrast(other, seen, ref_a, ref_b)) < 0.25
    assert duel_contrast(ref_a, np.zeros_like(seen), ref_a, ref_b) == 0.0


def test_the_wide_blur_of_the_features_is_opencvs_gaussian():
    import cv2

    from vision.cards_match import _wide_blur

    rng = np.random.default_rng(3)
    for h, w, sigma in ((160, 110, 16.0), (64, 44, 6.4), (7, 5, 1.0)):
        image = (rng.random((h, w)) * 255).astype(np.float32)
        image[h // 3:h // 2, w // 4:] += 300  # an edge, to see the border handling
        want = cv2.GaussianBlur(image, (0, 0), sigma)
        got = _wide_blur(image, sigma)
        assert got.dtype == np.float32 and got.shape == (h, w)
        assert np.abs(got - want).max() < 1e-3 * np.abs(want).max()


def _faces_differing_in_centre_and_index(index: int) -> tuple[np.ndarray, np.ndarray]:
    """Fine features of two look-alikes (160x124): a large centre mark and a corner index
    ``index`` pixels wide tell them apart (think ace of clubs, ace of diamonds)."""
    a = np.zeros((160, 124, 3), np.float32)
    b = a.copy()
    a[50:110, 32:92, 0] = 1.0  # a square in the centre...
    b[60:100, 42:82, 0] = 1.0  # ...against a smaller one
    a[12:12 + index, 10:10 + index // 3, 0] = 1.0  # an upright bar in the corner...
    b[12 + index // 3:12 + 2 * index // 3, 10:10 + index, 0] = 1.0  # ...against a flat one
    return a, b


def test_a_duel_on_a_partly_hidden_card_judges_a_readable_index_left_in_view():
    ref_a, ref_b = _faces_differing_in_centre_and_index(30)
    seen = np.zeros(ref_a.shape[:2], bool)
    seen[:45, :45] = True  # only the corner with its index is in view
    c_a, c_b = fine_duel(ref_a, ref_a, seen, ref_a, ref_b)
    assert c_a - c_b > 0.3
    c_a, c_b = fine_duel(ref_b, ref_b, seen, ref_a, ref_b)
    assert c_b - c_a > 0.3


def test_a_duel_gives_no_verdict_on_a_speck_or_at_the_edge_of_what_hides_the_card():
    ref_a, ref_b = _faces_differing_in_centre_and_index(9)  # too small a patch to read
    seen = np.zeros(ref_a.shape[:2], bool)
    seen[:45, :45] = True
    assert fine_duel(ref_a, ref_a, seen, ref_a, ref_b) == (0.0, 0.0)
    # a large index seen between the fingers of a hand: every seen pixel lies within a
    # slide's width of what hides the card
    ref_a, ref_b = _faces_differing_in_centre_and_index(40)
    seen = np.zeros(ref_a.shape[:2], bool)
    seen[:45, 0::8] = seen[:45, 1::8] = seen[:45, 2::8] = seen[:45, 3::8] = True
    assert np.count_nonzero(seen & (((ref_a - ref_b) ** 2).sum(-1) > 0)) > 0.015 * seen.size
    assert fine_duel(ref_a, ref_a, seen, ref_a, ref_b) == (0.0, 0.0)
