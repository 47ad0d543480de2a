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


def test_corner_completions_are_judged_on_the_card_coloured_pixels_all_at_once():
    from vision.cards_find import _inside_fractions

    mask = np.zeros((100, 200), np.uint8)
    mask[20:80, :100] = 255  # card-white, reaching the frame's left edge
    quads = np.array([[[30, 30], [90, 30], [90, 70], [30, 70]],  # on the card
                      [[60, 30], [120, 30], [120, 70], [60, 70]],  # half on it
                      [[150, 30], [190, 30], [190, 70], [150, 70]],  # on the table
                      [[-20, 30], [60, 30], [60, 70], [-20, 70]],  # cut by the frame's edge
                      [[-300, 30], [10, 30], [10, 70], [-300, 70]]], np.float32)  # mostly beyond
    inside = _inside_fractions(quads, mask)
    assert inside[0] == 1.0 and 0.6 < inside[1] < 0.8 and inside[2] == 0.0
    assert inside[3] == 1.0  # the points beyond the edge are unknown, not missing
    assert inside[4] == 0.0
