"""A look-alike duel judged pip by pip (``vision.cards_windows``), on a real deck's nines."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.cards_match import FINE_BLUR, MatchParams, features, fine_duel
from vision.cards_windows import vote_windows, window_duel
from vision.deck import build_deck

DECK = Path(__file__).resolve().parents[1] / "data" / "cards-kennard" / "deck"
MARGIN, SUPPORT = MatchParams().min_margin, MatchParams().min_support


def _face(cid: str, size: tuple[int, int]) -> np.ndarray:
    """The deck's face ``cid`` (BGR uint8) at ``size`` (h, w)."""
    return cv2.resize(cv2.imread(str(DECK / f"{cid}.png")), size[::-1],
                      interpolation=cv2.INTER_AREA)


def _nines() -> tuple[np.ndarray, np.ndarray, tuple[int, int]]:
    """The fine features of the nine of hearts and of diamonds, and the fine size."""
    bank = build_deck([(cid, cv2.imread(str(DECK / f"{cid}.png"))) for cid in ("9D", "9H")]).bank
    return bank.fine[bank.ids.index("9H")], bank.fine[bank.ids.index("9D")], bank.fine.shape[1:3]


def _under_a_card(face: np.ndarray, share: float) -> np.ndarray:
    """``face`` with its top ``share`` under another card's print (a king's, whose lines
    are no pip of either nine), its pips bent a little as a card seen in perspective."""
    h, w = face.shape[:2]
    card = face.copy()
    top = round(share * h)
    card[:top] = _face("KD", (h, w))[h - top:]
    bend = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    lean = np.float32([[1, 0], [w - 2, 1], [w + 1, h], [-1, h - 2]])
    return cv2.warpPerspective(card, cv2.getPerspectiveTransform(bend, lean), (w, h),
                               borderMode=cv2.BORDER_REPLICATE)


def _laid(card: np.ndarray, ref_a: np.ndarray, ref_b: np.ndarray):
    """``aligned`` and ``masks`` as ``cards_name`` passes them: the card laid as it is."""
    query = features(card, FINE_BLUR)
    seen = np.ones(card.shape[:2], bool)
    return {"9H": (query, ref_a), "9D": (query, ref_b)}, {"9H": seen, "9D": seen}


def test_a_nine_with_a_row_of_pips_under_another_card_is_told_by_its_windows():
    hearts, diamonds, size = _nines()
    card = _under_a_card(_face("9H", size), 0.24)
    aligned, masks = _laid(card, hearts, diamonds)
    query, seen = aligned["9H"][0], masks["9H"]
    c_a, c_b = fine_duel(query, query, seen, hearts, diamonds)
    assert c_a - c_b >= MARGIN and c_a < SUPPORT  # one patch over every pip: short
    margin, support = window_duel(query, query, seen, hearts, diamonds, MARGIN)
    assert margin >= MARGIN and support >= SUPPORT  # each pip it shows is a heart
    assert vote_windows(aligned, masks, "9H", "9D", (c_a - c_b, c_a), MARGIN) == (margin, support)
    # and the nine of diamonds under the same card is no nine of hearts
    other = features(_under_a_card(_face("9D", size), 0.24), FINE_BLUR)
    lean, _ = window_duel(other, other, seen, hearts, diamonds, MARGIN)
    assert lean <= -MARGIN


def test_an_outline_over_two_cards_gets_no_verdict_from_the_windows():
    # the lower half a nine of diamonds (an outline taking in the card beside): a window
    # that votes against the rest leaves the duel as the one patch judged it
    hearts, diamonds, size = _nines()
    card = _face("9H", size)
    card[size[0] // 2:] = _face("9D", size)[size[0] // 2:]
    aligned, masks = _laid(card, hearts, diamonds)
    query, seen = aligned["9H"][0], masks["9H"]
    assert window_duel(query, query, seen, hearts, diamonds, MARGIN) is None
    short = (0.2, 0.6)
    assert vote_windows(aligned, masks, "9H", "9D", short, MARGIN) == short


def test_too_little_seen_of_the_pips_gets_no_verdict():
    hearts, diamonds, size = _nines()
    card = _under_a_card(_face("9H", size), 0.6)  # most pips under the other card
    aligned, masks = _laid(card, hearts, diamonds)
    query, seen = aligned["9H"][0], masks["9H"]
    assert window_duel(query, query, seen, hearts, diamonds, MARGIN) is None


@pytest.mark.parametrize("verdict", [(0.3, 0.9), (-0.3, 0.5), (0.0, 0.5)])
def test_a_sure_patch_or_one_leaning_away_is_left_as_it_is(verdict):
    hearts, diamonds, size = _nines()
    aligned, masks = _laid(_under_a_card(_face("9H", size), 0.24), hearts, diamonds)
    assert vote_windows(aligned, masks, "9H", "9D", verdict, MARGIN) == verdict


def test_references_whose_difference_is_one_region_are_not_judged_by_windows():
    # two photos of a face a little apart differ around every pip: one joined region
    hearts, _, size = _nines()
    apart = features(cv2.warpAffine(_face("9H", size), np.float32([[1, 0, 3], [0, 1, 2]]),
                                    size[::-1], borderMode=cv2.BORDER_REPLICATE), FINE_BLUR)
    assert window_duel(hearts, apart, np.ones(size, bool), hearts, apart, MARGIN) is None
