"""Outlines of cards cut by the frame's edge (``vision.cards_beyond``)."""

from __future__ import annotations

import numpy as np

from tests.vision import cards_support as cs
from vision.cards_beyond import beyond_frame, leaves_frame

SHAPE = (480, 640, 3)


def _seen_part(card: np.ndarray) -> np.ndarray:
    """The outline of what is seen of a card whose top runs off the frame's top edge: its
    two cut sides end on the edge (y = 0), the contour closes along it."""
    tl, tr, br, bl = card
    on_edge = [bl + (tl - bl) * (0 - bl[1]) / (tl[1] - bl[1]),
               br + (tr - br) * (0 - br[1]) / (tr[1] - br[1])]
    return np.array([on_edge[0], on_edge[1], br, bl], np.float32)


def test_a_card_cut_by_the_frame_edge_gets_its_outline_back():
    aspect = 252 / 352
    for angle in (-12, 6, 9):
        card = cs.card_corners((320, 60), 200, angle)  # its top third beyond the edge
        seen = _seen_part(card)
        done = beyond_frame([seen], SHAPE, aspect)
        assert len(done) == 1
        assert np.abs(done[0] - card).max() < 1.0, (angle, done[0], card)
        assert leaves_frame(tuple(map(tuple, done[0])), SHAPE)


def test_outlines_inside_the_frame_or_already_whole_are_left_alone():
    aspect = 252 / 352
    inside = cs.card_corners((320, 240), 200, 10)
    assert beyond_frame([inside], SHAPE, aspect) == []
    assert not leaves_frame(tuple(map(tuple, inside)), SHAPE)
    # a whole card lying with one side along the edge: nothing beyond it
    flush = np.array([[100, 0], [243, 0], [243, 200], [100, 200]], np.float32)
    assert beyond_frame([flush], SHAPE, aspect) == []


def test_the_completion_follows_the_card_on_any_edge():
    aspect = 252 / 352
    card = cs.card_corners((320, 60), 200, 7)
    seen = _seen_part(card)
    # the same card and frame turned upside down: cut by the bottom edge
    h, w = SHAPE[:2]
    turn = np.array([w - 1, h - 1], np.float32)
    done = beyond_frame([turn - seen], SHAPE, aspect)
    assert len(done) == 1 and np.abs(done[0] - (turn - card)).max() < 1.0
