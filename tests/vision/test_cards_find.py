"""The outline search (``vision.cards_find``) on cases the suites only score as a whole."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from vision.cards_find import find_card_quads
from vision.cards_stages import iou_quads
from vision.deck import load_deck
from vision.imageio import read_image

PINOCHLE = Path(__file__).resolve().parents[1] / "data" / "cards-pinochle"


def test_a_white_card_on_white_paper_gets_its_outline():
    # the ace of clubs lies on a white paper box: its edges against the paper are faint
    # (a thin shadow line), so neither card-white threshold nor the usual edge map closes
    # its outline; the corners below are the card's, read off the photo
    frame = read_image(PINOCHLE / "img" / "IMG_2470.jpg")
    card = np.array([[151, 197], [269, 219], [242, 389], [119, 362]], np.float32)
    quads = find_card_quads(frame, load_deck(PINOCHLE / "deck").aspect)
    assert max(iou_quads(q, card) for q in quads) > 0.9
