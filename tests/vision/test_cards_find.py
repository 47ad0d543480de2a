"""The outline search (``vision.cards_find``) on cases the suites only score as a whole."""

from __future__ import annotations

from pathlib import Path

import cv2
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


def test_card_white_covers_a_card_and_its_print_but_not_the_table():
    from tests.vision import cards_support as cs
    from vision.cards_find import card_white

    corners = cs.card_corners((480, 360), 300, 20)
    frame = cs.place(cs.table(seed=1), cs.faces()["num-4"], corners)
    white = card_white(frame)
    inside = np.zeros(frame.shape[:2], np.uint8)
    cv2.fillConvexPoly(inside, np.round(corners).astype(np.int32), 255)
    card = cv2.erode(inside, np.ones((9, 9), np.uint8)) > 0  # away from the card's rim
    table = cv2.dilate(inside, np.ones((31, 31), np.uint8)) == 0
    assert white.shape == frame.shape[:2] and white.dtype == np.uint8
    assert np.mean(white[card] > 0) > 0.97  # the pips and numerals count as card
    assert np.mean(white[table] > 0) < 0.2
