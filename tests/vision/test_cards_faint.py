"""A white card on a pale table: its colour change is faint where no shadow falls, its
edges clean (``vision.cards_single._faint_cards``)."""

from __future__ import annotations

import cv2
import numpy as np

from tests.vision import cards_support as cs
from tests.vision.test_cards_own import checked_cloth, grid_block
from vision.cards_single import EDGE_CONTRAST, _edge_score, _passes, _search
from vision.deck import DEFAULT_ASPECT


def white_court_card(size: tuple[int, int] = (250, 350)) -> np.ndarray:
    """A white card with a dark-framed picture close to its edge (a court card's)."""
    w, h = size
    face = np.full((h, w, 3), 250, np.uint8)
    cv2.rectangle(face, (28, 40), (w - 29, h - 41), (30, 30, 30), 3)
    cv2.rectangle(face, (32, 44), (w - 33, h - 45), (40, 170, 220), -1)
    cv2.putText(face, "K", (6, 30), cv2.FONT_HERSHEY_SIMPLEX, 0.9, (0, 0, 0), 2)
    return face


def pale_table_with_card(truth: np.ndarray, seed: int = 0) -> np.ndarray:
    """A pale mottled table (a few levels under the card's white), the card on it, and
    its shadow falling to the right and down only (light from the top left)."""
    w, h = 960, 720
    rng = np.random.default_rng(seed)
    mottle = cv2.resize(rng.normal(0, 1, (h // 8, w // 8)).astype(np.float32), (w, h))
    grey = 241 + 3 * mottle[..., None] + rng.normal(0, 2, (h, w, 1))
    frame = np.repeat(np.clip(grey, 0, 255), 3, axis=2)
    shadow = np.zeros((h, w), np.float32)
    cv2.fillConvexPoly(shadow, np.int32(truth + np.float32([5, 5])), 1.0)
    frame *= 1 - 0.18 * cv2.GaussianBlur(shadow, (0, 0), 2.0)[..., None]
    return cs.place(frame.astype(np.uint8), white_court_card(), truth)


def test_a_white_card_on_a_pale_table_is_found_by_its_clean_edges():
    truth = cs.card_corners((480, 360), 300, 20)
    frame = pale_table_with_card(truth)
    rough = truth + np.float32([[3, -2], [-2, 3], [2, 2], [-3, -2]])  # the search's guess
    score = _edge_score(frame, truth, EDGE_CONTRAST)
    assert not _passes(score)  # the colour test alone misses it
    search = _search(frame, [rough], EDGE_CONTRAST, DEFAULT_ASPECT)
    assert len(search.cards) == 1
    assert np.abs(search.cards[0] - truth).max() < 4.0  # on the card's edge


def test_a_bare_checked_cloth_still_shows_no_card():
    frame = checked_cloth(seed=2)
    blocks = [grid_block(2, 2, 7, 9), grid_block(10, 3, 15, 10), grid_block(3, 11, 8, 17)]
    assert _search(frame, blocks, EDGE_CONTRAST, DEFAULT_ASPECT).cards == ()
