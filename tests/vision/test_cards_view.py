"""Tests for vision.cards_view: a card's true aspect from its outline's perspective."""

from __future__ import annotations

import numpy as np
import pytest

from tests.vision.cards_support import deck, faces, place, table
from vision.cards import name_quad
from vision.cards_find import _canonical, find_card_quads
from vision.cards_stages import assignments
from vision.cards_view import is_clear_way, true_aspect

FOCAL, CENTRE = 770.0, (480.0, 360.0)  # a 960x720 frame, about 64 degrees across


def _seen(card_xy: np.ndarray, *, slant: float = 60.0, height: float = 250.0) -> np.ndarray:
    """Frame pixels (x, y) of points on the table (mm), seen by a camera ``height`` mm
    above it, looking ``slant`` degrees away from straight down."""
    t = np.radians(slant)
    right, down, ahead = (np.array(v) for v in ([1, 0, 0], [0, -np.cos(t), -np.sin(t)],
                                                 [0, np.sin(t), -np.cos(t)]))
    rel = np.column_stack([card_xy, np.zeros(len(card_xy))]) - [0, 0, height]
    depth = rel @ ahead
    return np.column_stack([CENTRE[0] + FOCAL * (rel @ right) / depth,
                            CENTRE[1] + FOCAL * (rel @ down) / depth]).astype(np.float32)


def _far_card(turn: float = 0.0) -> np.ndarray:
    """Corners (TL, TR, BR, BL, upright) of a 63x88 mm card lying far off, turned."""
    w, h = 63.0, 88.0
    a = np.radians(turn)
    rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
    corners = np.array([[-w / 2, h / 2], [w / 2, h / 2], [w / 2, -h / 2], [-w / 2, -h / 2]])
    return _seen(corners @ rot.T + [60, 380])


@pytest.mark.parametrize("turn", [0.0, 20.0, -35.0])
def test_true_aspect_of_a_slanted_card(turn: float) -> None:
    quad = _far_card(turn)
    assert true_aspect(quad, FOCAL, CENTRE) == pytest.approx(63 / 88, rel=0.02)
    # turned a quarter, the first side is the long one
    assert true_aspect(np.roll(quad, -1, axis=0), FOCAL, CENTRE) == pytest.approx(88 / 63, rel=0.02)


def test_a_far_card_looks_wider_than_long_but_is_not() -> None:
    quad = _far_card()
    sides = np.hypot(*(np.roll(quad, -1, axis=0) - quad).T)
    assert sides[0] + sides[2] > 1.15 * (sides[1] + sides[3])  # foreshortened: looks landscape
    # its perspective does not confirm the way its side lengths tell
    assert not is_clear_way(quad, (720, 960, 3), False, 1.15)
    # the side lengths alone try only the wrong way; with the frame, both ways are tried
    assert all(not np.allclose(o, quad) for o in assignments(quad))
    assert any(np.allclose(o, quad) for o in assignments(quad, (720, 960, 3)))


def test_a_flat_outline_reads_as_its_side_lengths() -> None:
    quad = np.array([[100, 100], [172, 100], [172, 200], [100, 200]], np.float32)
    for focal in (400.0, 800.0, 2000.0):
        assert true_aspect(quad, focal, CENTRE) == pytest.approx(0.72, rel=1e-6)
    assert is_clear_way(quad, (720, 960, 3), True, 1.15)
    assert not is_clear_way(quad, (720, 960, 3), False, 1.15)
    assert len(assignments(quad, (720, 960, 3))) == 1  # no slant: one way, as before
    assert np.isnan(true_aspect(np.zeros((4, 2), np.float32), FOCAL, CENTRE))
    with pytest.raises(ValueError, match="quad"):
        true_aspect(np.zeros((3, 2)), FOCAL, CENTRE)


def test_a_far_slanted_card_is_named() -> None:
    quad = _far_card(8.0)
    frame = place(table(), faces()["num-3"], quad)
    sighting = name_quad(frame, quad, deck())
    assert sighting is not None and sighting.card_id == "num-3"


def test_a_far_card_that_looks_square_is_outlined():
    # seen at a slant from afar, a lone card is foreshortened to a square: its outline is
    # a clean quad whose side lengths no longer show the card's aspect, its perspective does
    w, h = 63.0, 88.0
    corners = _seen(np.array([[-w / 2, h / 2], [w / 2, h / 2], [w / 2, -h / 2],
                              [-w / 2, -h / 2]]) + [40, 228], slant=60, height=200)
    sides = np.hypot(*(np.roll(corners, -1, axis=0) - corners).T)
    ratio = (sides[0] + sides[2]) / (sides[1] + sides[3])
    assert min(ratio, 1 / ratio) > 0.93  # squarer than any card lying flat before the camera
    frame = place(table(), faces()["num-6"], corners)
    quads = find_card_quads(frame, deck().aspect)
    gaps = [np.abs(_canonical(q[None])[0] - _canonical(corners[None])[0]).max() for q in quads]
    assert min(gaps) < 4  # pixels
    sighting = name_quad(frame, quads[int(np.argmin(gaps))], deck())
    assert sighting is not None and sighting.card_id == "num-6"
