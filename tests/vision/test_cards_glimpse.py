"""A look-alike duel judged on a glimpse of the telling detail (``vision.cards_glimpse``)."""

from __future__ import annotations

import numpy as np
import pytest

from vision.cards_glimpse import glimpse_duel, glimpse_share
from vision.cards_match import fine_duel

MARGIN = 0.04


def _aces(ink_a: tuple[float, float] = (0.0, 0.0), ink_b: tuple[float, float] = (0.0, 0.0)
          ) -> tuple[np.ndarray, np.ndarray]:
    """Fine features (160x124) of two look-alike aces: one large centre pip, a square on
    one and a diamond on the other, each in its ink's chroma (features' units)."""
    a = np.zeros((160, 124, 3), np.float32)
    b = a.copy()
    a[50:110, 32:92] = (-2.0, *ink_a)  # a square pip...
    yy, xx = np.mgrid[:160, :124]
    b[np.abs(yy - 80) + np.abs(xx - 62) < 36] = (-2.0, *ink_b)  # ...against a diamond
    return a, b


def _duel(query: np.ndarray, a: np.ndarray, b: np.ndarray, seen: np.ndarray):
    return glimpse_duel({"a": (query, a), "b": (query, b)}, {"a": seen, "b": seen},
                        "a", "b", MARGIN)


def _strip(columns: int) -> np.ndarray:
    """A card seen only on its left ``columns`` pixels (the rest under the card on top)."""
    seen = np.zeros((160, 124), bool)
    seen[:, :columns] = True
    return seen


def test_a_glimpse_of_the_pip_leans_to_the_face_the_card_shows():
    a, b = _aces()
    seen = _strip(40)  # the pip's left edge and corner, less than a readable patch
    assert 0 < glimpse_share(seen, a, b) < 1
    assert fine_duel(a, a, seen, a, b) == (0.0, 0.0)  # too little for the usual duel
    lean_a, support = _duel(a, a, b, seen)
    lean_b, _ = _duel(b, a, b, seen)
    assert lean_a >= MARGIN and support > 0.85 and lean_b <= -MARGIN


def test_a_glimpse_counts_in_proportion_to_how_much_of_a_patch_is_seen():
    a, b = _aces()
    wide, narrow = _strip(40), _strip(36)
    assert glimpse_share(narrow, a, b) < glimpse_share(wide, a, b)
    for seen in (wide, narrow):
        c_a, c_b = fine_duel(a, a, seen, a, b, least=0.0)  # the correlations on the glimpse
        share = glimpse_share(seen, a, b)
        assert share < 1 and _duel(a, a, b, seen)[0] == pytest.approx((c_a - c_b) * share)
    assert _duel(a, a, b, _strip(20)) is None  # nothing of the telling pixels seen


def test_the_colour_of_the_ink_has_the_last_word_on_a_glimpse():
    red, black = (0.9, 0.3), (0.0, 0.0)
    a, b = _aces(red, black)
    seen = _strip(40)
    # the card shows the square's edge, as face a, but in black ink, as face b
    card = a.copy()
    card[:, :, 1:] = 0.0
    assert _duel(card, a, b, seen)[0] <= -MARGIN
    assert _duel(a, a, b, seen)[0] >= MARGIN  # in red it is face a


def test_the_naming_duel_judges_a_glimpse_the_usual_duel_declines():
    from vision.cards_name import _duel as naming_duel

    a, b = _aces()
    seen = _strip(40)
    margin, support = naming_duel({"a": (a, a), "b": (a, b)}, {"a": seen, "b": seen},
                                  "a", "b", MARGIN)
    assert margin >= MARGIN and support > 0.85
