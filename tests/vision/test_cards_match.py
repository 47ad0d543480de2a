"""The look-alike duel's contrast statistic (``vision.cards_match.duel_contrast``)."""

from __future__ import annotations

import numpy as np

from tests.vision import cards_support as cs
from vision.cards_match import duel_contrast


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
