"""A card named inside another card's outline is that card's print (``vision.cards_nest``)."""

from __future__ import annotations

from pathlib import Path

from vision.cards import read_cards
from vision.cards_match import MatchParams
from vision.cards_nest import doubt_nested
from vision.deck import load_deck
from vision.imageio import read_image
from vision.results import CardSighting

SURE = MatchParams().sure_distance
SUITE = Path(__file__).resolve().parents[1] / "data" / "cards-kennard"


def _seen(cid: str | None, distance: float, x: float, y: float, w: float, h: float,
          guess: str | None = None) -> CardSighting:
    return CardSighting(card_id=cid, best_guess=guess or cid or "?", confidence=1.0,
                        runner_up=None, distance=distance,
                        corners=((x, y), (x + w, y), (x + w, y + h), (x, y + h)))


def test_a_small_outline_inside_a_sure_card_is_left_unsure():
    seven = _seen("7H", 0.03, 400, 100, 160, 240)
    ace = _seen("AH", 0.41, 410, 200, 110, 90)  # a group of the seven's pips
    out = doubt_nested([seven, ace], SURE)
    assert out[0] == seven
    assert out[1].card_id is None and out[1].best_guess == "AH" and out[1].confidence < 0.5


def test_the_outer_outline_is_left_unsure_when_the_one_inside_is_the_closer_match():
    wide = _seen("KS", 0.30, 300, 50, 300, 400)  # a card and the table around it
    card = _seen("QS", 0.05, 350, 100, 160, 240)
    out = doubt_nested([wide, card], SURE)
    assert out[0].card_id is None and out[1] == card


def test_cards_lying_on_each_other_are_all_kept():
    below = _seen("7H", 0.03, 400, 100, 160, 240)
    above = _seen("8H", 0.20, 480, 150, 160, 240)  # partly on it, the rest beyond it
    stacked = _seen("9H", 0.25, 405, 105, 160, 240)  # of one size: one place, not a print
    assert doubt_nested([below, above, stacked], SURE) == [below, above, stacked]


def test_only_a_sure_match_vouches_for_its_outline():
    loose = _seen("7H", SURE + 0.02, 400, 100, 160, 240)
    ace = _seen("AH", SURE + 0.05, 410, 200, 110, 90)
    assert doubt_nested([loose, ace], SURE)[1].card_id == "AH"
    unsure = _seen(None, 0.03, 400, 100, 160, 240, guess="7H")  # a sure match left unsure
    assert doubt_nested([unsure, ace], SURE)[1].card_id is None


def test_the_pips_of_a_seven_are_not_read_as_an_ace():
    # a rendered table of one seven of hearts: an outline around three of its pips came
    # within the gate of the ace of hearts (0.42) before this check
    reading = read_cards(read_image(SUITE / "img" / "0001.jpg"), load_deck(SUITE / "deck"))
    assert reading.ids == ("7H",)
