"""Whether an outline runs along a card's own edges (``vision.cards_own``), and the
capture's choice among outlines that pass the colour test (``vision.cards_single``)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from tests.vision import cards_support as cs
from vision.cards_own import own_edges
from vision.cards_rim import snap_to_rim
from vision.cards_single import (EDGE_CONTRAST, _edge_score, _passes, _search, _whole_cards,
                                 is_own, on_rim)
from vision.deck import DEFAULT_ASPECT

CHECK = 40  # pixels of one square of the checked cloth


def checked_cloth(seed: int = 0, size: tuple[int, int] = (960, 720)) -> np.ndarray:
    """Red and cream squares, square to the picture, with photo noise."""
    w, h = size
    rows, cols = np.mgrid[0:h, 0:w]
    red = ((rows // CHECK + cols // CHECK) % 2).astype(bool)
    cloth = np.where(red[..., None], np.float32([40, 40, 200]), np.float32([200, 225, 240]))
    noise = np.random.default_rng(seed).normal(0, 4, (h, w, 1))
    return np.clip(cloth + noise, 0, 255).astype(np.uint8)


def grid_block(x0: int, y0: int, x1: int, y1: int) -> np.ndarray:
    """The outline of the cloth's squares from square (x0, y0) to (x1, y1), on its lines."""
    return CHECK * np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], np.float32)


def stone(seed: int = 0, size: tuple[int, int] = (960, 720)) -> np.ndarray:
    """A grey table mottled at a few pixels' scale, as stone or a coarse grain."""
    w, h = size
    rng = np.random.default_rng(seed)
    fine = cv2.resize(rng.normal(0, 1, (h // 3, w // 3)).astype(np.float32), (w, h))
    grey = 150 + 30 * fine[..., None] + rng.normal(0, 3, (h, w, 1))
    return np.repeat(np.clip(grey, 0, 255).astype(np.uint8), 3, axis=2)


def test_a_card_on_a_checked_cloth_is_found_inside_a_block_of_the_cloth():
    truth = cs.card_corners((500, 350), 260, 25)
    frame = cs.place(checked_cloth(), cs.faces()["num-3"], truth)
    block = grid_block(6, 2, 19, 15)  # a block of squares around the card
    assert _passes(_edge_score(frame, block, EDGE_CONTRAST))  # its colour changes all round
    assert max(own_edges(frame, block).beyond) >= 0.5  # but its sides run on past it
    assert is_own(frame, truth) and not is_own(frame, block)
    cards = _whole_cards(frame, [block, truth], EDGE_CONTRAST, DEFAULT_ASPECT)
    assert len(cards) == 1
    assert np.abs(cards[0] - truth).max() < 1.0  # the card, not the block around it


def test_no_card_is_counted_on_a_bare_checked_cloth():
    frame = checked_cloth(seed=1)
    blocks = [grid_block(2, 2, 7, 9), grid_block(10, 3, 15, 10), grid_block(17, 8, 22, 15),
              grid_block(3, 11, 8, 17)]
    assert all(_passes(_edge_score(frame, b, EDGE_CONTRAST)) for b in blocks)
    assert _whole_cards(frame, blocks, EDGE_CONTRAST, DEFAULT_ASPECT) == []


@pytest.mark.parametrize("angle", [10, 70])
def test_an_outline_running_on_over_stone_is_not_a_cards_own(angle):
    truth = cs.card_corners((480, 400), 220, angle)
    frame = cs.place(stone(), cs.faces()["rune-circle"], truth)
    tl, tr, br, bl = truth
    longer = np.array([tl, tr, tr + 1.9 * (br - tr), tl + 1.9 * (bl - tl)], np.float32)
    own = own_edges(frame, longer)
    assert min(own.straight) < 0.5  # the sides over the stone follow no straight edge
    assert is_own(frame, truth) and not is_own(frame, longer)


def test_own_edges_refuses_bad_input():
    with pytest.raises(ValueError, match="frame"):
        own_edges(np.zeros((10, 10), np.uint8), np.zeros((4, 2)))
    with pytest.raises(ValueError, match="quad"):
        own_edges(np.zeros((10, 10, 3), np.uint8), np.zeros((3, 2)))


@pytest.mark.parametrize("angle,below", [(2, 335), (-2, 338)])
def test_a_side_is_not_put_on_a_grid_line_beside_the_card(angle, below):
    truth = cs.card_corners((500, below), 260, angle)  # its lower side near a grid line
    frame = cs.place(checked_cloth(), cs.faces()["act-drop"], truth)
    assert np.abs(snap_to_rim(frame, truth) - truth).max() > 10  # the rim search goes to it
    assert np.abs(on_rim(frame, truth) - truth).max() < 2.0  # the line runs on: not taken


def test_a_second_card_whose_outline_is_off_still_counts_as_another_card():
    one = cs.card_corners((250, 360), 240, 15)
    other = cs.card_corners((680, 360), 240, -20)
    frame = cs.place(cs.place(stone(seed=4), cs.faces()["act-swap"], one),
                     cs.faces()["rune-circle"], other)
    tl, tr, br, bl = other
    off = np.array([tl, tr, tr + 1.2 * (br - tr), tl + 1.2 * (bl - tl)], np.float32)
    assert _passes(_edge_score(frame, off, EDGE_CONTRAST)) and not is_own(frame, off)
    search = _search(frame, [one, off], EDGE_CONTRAST, DEFAULT_ASPECT)
    assert len(search.cards) == 1 and search.doubtful == 1  # "I see 2 cards", not one saved
