"""Snapping outlines onto a card's edges (``vision.cards_snap``), one or many at once."""

from __future__ import annotations

import cv2
import numpy as np

from tests.vision import cards_support as cs
from vision.cards_snap import edge_gradient, snap_quad, snap_quads


def _gradients(frame: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    return edge_gradient(cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY))


def _blank(table: np.ndarray, corners: np.ndarray) -> np.ndarray:
    """A plain white card (no print to snap onto) inside ``corners``."""
    return cs.place(table, np.full((352, 252, 3), 235, np.uint8), corners)


def test_a_rough_outline_lands_on_the_card_edges():
    true = cs.card_corners((480, 360), 300, 8)
    frame = _blank(cs.table(seed=3), true)
    gx, gy = _gradients(frame)
    rough = true + np.array([[8, -7], [9, 6], [-7, 8], [-8, -6]], np.float32)
    snapped = snap_quad(rough, gx, gy)
    assert np.abs(rough - true).max() >= 9  # it started well off
    assert np.abs(snapped - true).max() < 4  # within a step of the searched band
    assert snapped.dtype == np.float32 and snapped.shape == (4, 2)


def test_many_outlines_snap_as_each_would_alone():
    frame = cs.place(cs.table(seed=4), cs.faces()["num-2"], cs.card_corners((300, 300), 260, -12))
    frame = _blank(frame, cs.card_corners((700, 400), 220, 25))
    gx, gy = _gradients(frame)
    rng = np.random.default_rng(0)
    quads = [cs.card_corners((300, 300), 260, -12) + rng.normal(0, 4, (4, 2)).astype(np.float32),
             cs.card_corners((700, 400), 220, 25) + rng.normal(0, 4, (4, 2)).astype(np.float32),
             cs.card_corners((900, 650), 300, 0),  # reaching beyond the frame
             np.array([[10, 10], [14, 10], [14, 15], [10, 15]], np.float32)]  # sides too short
    together = snap_quads(quads, gx, gy)
    assert len(together) == len(quads)
    for quad, snapped in zip(quads, together):
        assert np.array_equal(snapped, snap_quad(quad, gx, gy))
    assert np.array_equal(together[3], quads[3])  # nothing to judge: left as it was
    assert snap_quads([], gx, gy) == []


def test_an_outline_on_a_plain_table_stays_put():
    flat = np.full((480, 640), 120, np.float32)
    gx, gy = edge_gradient(flat)
    quad = cs.card_corners((320, 240), 200, 10)
    assert np.array_equal(snap_quad(quad, gx, gy), quad)
