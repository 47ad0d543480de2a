"""Snapping a lone card's outline onto its outer edge (``vision.cards_rim``)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from tests.vision import cards_support as cs
from vision.cards_rim import snap_to_rim


def pale_table(seed: int = 0, size: tuple[int, int] = (960, 720)) -> np.ndarray:
    """A pale grey table, close to a card's white (a faint card edge)."""
    w, h = size
    rng = np.random.default_rng(seed)
    noise = cv2.resize(rng.normal(0, 1, (h // 16, w // 16)).astype(np.float32), (w, h))
    return np.clip(np.array([200, 205, 212], np.float32) + 6 * noise[..., None], 0,
                   255).astype(np.uint8)


def with_shadow(table: np.ndarray, corners: np.ndarray) -> np.ndarray:
    """The card's soft shadow on the table, cast down and to the right."""
    mask = np.zeros(table.shape[:2], np.float32)
    cv2.fillConvexPoly(mask, np.round(corners + [5, 7]).astype(np.int32), 1.0)
    mask = cv2.GaussianBlur(mask, (0, 0), 3)
    return (table * (1 - 0.3 * mask)[..., None]).astype(np.uint8)


def scaled(corners: np.ndarray, factor: float) -> np.ndarray:
    centre = corners.mean(axis=0)
    return (centre + factor * (corners - centre)).astype(np.float32)


@pytest.mark.parametrize("art,angle", [("act-draw", -30), ("num-2", 100), ("hero-fox", 60)])
@pytest.mark.parametrize("start", ["printed frame", "on the table", "askew"])
def test_each_side_goes_to_the_cards_edge_not_its_frame_or_shadow(art, angle, start):
    truth = cs.card_corners((480, 360), 300, angle)
    frame = cs.place(with_shadow(pale_table(), truth), cs.faces()[art], truth)
    rough = {"printed frame": scaled(truth, 0.9), "on the table": scaled(truth, 1.08),
             "askew": truth + np.array([[-12, -9], [0, 0], [7, 10], [0, 0]], np.float32)}[start]
    snapped = snap_to_rim(frame, rough)
    assert snapped.shape == (4, 2) and snapped.dtype == np.float32
    assert np.hypot(*(snapped - truth).T).max() < 4.0  # pixels, on a card 300 high
    assert np.hypot(*(rough - truth).T).max() > 10.0  # (the start was well off)


def test_a_side_with_no_edge_near_it_stays():
    frame = np.full((480, 640, 3), 128, np.uint8)
    quad = cs.card_corners((320, 240), 200, 10)
    before = frame.copy()
    assert np.allclose(snap_to_rim(frame, quad), quad)
    assert np.array_equal(frame, before)  # the frame is not written


def test_a_side_along_the_pictures_edge_stays():
    truth = cs.card_corners((480, 560), 300, 0)  # the card runs out of the picture below
    # cut between the card's bottom edge (y 710) and its printed frame (y 696)
    frame = cs.place(cs.table(), cs.faces()["hero-fox"], truth)[:703]
    quad = truth.copy()
    quad[2:, 1] = 702.0
    snapped = snap_to_rim(frame, quad)
    assert np.abs(snapped[2:, 1] - 702.0).max() < 0.5  # not moved up onto the frame
    assert np.hypot(*(snapped[:2] - truth[:2]).T).max() < 2.0


def test_bad_input_is_named():
    with pytest.raises(ValueError, match="^frame must be"):
        snap_to_rim(np.zeros((10, 10), np.uint8), cs.card_corners((5, 5), 6, 0))
    with pytest.raises(ValueError, match="^quad must be"):
        snap_to_rim(np.zeros((10, 10, 3), np.uint8), np.zeros((3, 2)))
