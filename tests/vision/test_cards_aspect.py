"""The card's own aspect measured on the cards named in a frame (``vision.cards_aspect``)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from tests.vision import cards_support as cs
from vision.cards import read_cards
from vision.cards_aspect import measured_aspect, outline_aspect
from vision.deck import load_deck
from vision.imageio import read_image

PINOCHLE = Path(__file__).resolve().parents[1] / "data" / "cards-pinochle"


def _card(aspect: float, angle: float, tilt: float = 0.0) -> tuple:
    """Corners of a card of the aspect, 200 px long, turned by the angle, its far side
    foreshortened by ``tilt``."""
    quad = cs.card_corners((320, 240), 200, 0, tilt=tilt)
    quad[:, 0] = 320 + (quad[:, 0] - 320) * aspect / (252 / 352)
    a = np.radians(angle)
    turned = (quad - 320 + [0, 80]) @ np.array([[np.cos(a), np.sin(a)], [-np.sin(a), np.cos(a)]])
    return tuple(map(tuple, turned + 320))


def test_cards_of_another_aspect_than_the_decks_are_measured():
    outlines = [_card(0.71, a, t) for a, t in ((-10, 0.0), (3, 0.04), (25, 0.0))]
    assert measured_aspect(outlines, 0.77) == pytest.approx(0.71, abs=0.01)


def test_the_decks_aspect_stands_when_the_cards_agree_or_are_too_few_or_odd():
    assert measured_aspect([_card(0.74, a) for a in (0, 20)], 0.77) is None  # within 5%
    assert measured_aspect([_card(0.70, 8)], 0.77) is None  # one card is not enough
    assert measured_aspect([_card(0.45, a) for a in (0, 20)], 0.77) is None  # no card's shape


def test_a_bad_outline_is_named_in_one_line():
    with pytest.raises(ValueError, match="four"):
        outline_aspect([(0, 0), (1, 0), (1, 1)])


def test_a_card_completed_at_the_measured_aspect_is_named():
    # IMG_2583: the Pinochle references are cut at top and bottom (aspect 0.77), the
    # cards named whole measure 0.70-0.71; AS, under 9H and a box, is completed from its
    # corner only at the card's own aspect
    labels = json.loads((PINOCHLE / "labels.json").read_text(encoding="utf-8"))
    deck = load_deck(PINOCHLE / labels["deck"])
    reading = read_cards(read_image(PINOCHLE / "img" / "IMG_2583.jpg"), deck)
    assert "AS" in reading.ids
    assert set(reading.ids) <= set(labels["images"]["img/IMG_2583.jpg"]["cards"])
