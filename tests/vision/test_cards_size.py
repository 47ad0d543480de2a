"""Tests for vision.cards_size: corners cut short, completed at the named cards' size."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from tests.vision.cards_support import card_corners, deck, faces, place, table
from vision.cards import name_quad
from vision.cards_size import card_size, sized_pass, sized_quads
from vision.cards_stages import CardParams, Evidence, edges_at, iou_quads


def _cut_short(corners: np.ndarray, share: float) -> np.ndarray:
    """The outline of a corner whose two sides are seen for only ``share`` of their length
    (TL kept first, as the outline search gives a corner)."""
    tl, tr, _, bl = corners
    a, b = (tr - tl) * share, (bl - tl) * share
    return np.array([tl, tl + a, tl + a + b, tl + b], np.float32)


def _scene() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A table with act-fire named and num-3 beside it; their outlines."""
    fire, num = card_corners((300, 360), 300, 10), card_corners((650, 380), 290, -20)
    frame = place(place(table(), faces()["act-fire"], fire), faces()["num-3"], num)
    return frame, fire, num


def test_card_size_is_short_then_long_side() -> None:
    short, long_ = card_size(card_corners((200, 200), 300, 33))
    assert short == pytest.approx(300 * 252 / 352, rel=1e-4)
    assert long_ == pytest.approx(300, rel=1e-4)


def test_a_short_corner_is_completed_at_the_named_size() -> None:
    _, fire, num = _scene()
    short = _cut_short(num, 0.75)
    out = sized_quads([short], [0.5], [fire], gap=5.0)
    assert len(out) == 2  # both ways round
    best = max(out, key=lambda q: iou_quads(q, num))
    assert iou_quads(best, num) > 0.9 and iou_quads(short, num) < 0.6
    assert np.allclose(best[0], num[0])  # from the corner the search saw


def test_no_completion_of_a_far_outline_a_named_one_or_one_of_the_size() -> None:
    _, fire, num = _scene()
    short = _cut_short(num, 0.75)
    assert sized_quads([short], [0.9], [fire], gap=5.0) == []  # ranks near no face
    assert sized_quads([fire], [0.2], [fire], gap=5.0) == []  # the named card itself
    assert sized_quads([short], [0.5], [], gap=5.0) == []  # no size known
    # an outline already of the named size is not completed again that way round
    assert len(sized_quads([num], [0.5], [fire], gap=5.0)) == 1


def test_sized_pass_names_the_card_whose_corner_was_cut_short() -> None:
    frame, fire, num = _scene()
    fire_seen = name_quad(frame, fire, deck())
    assert fire_seen is not None and fire_seen.card_id == "act-fire"
    short = _cut_short(num, 0.72)
    assert name_quad(frame, short, deck()) is None  # the short outline names nothing
    found = [(fire_seen, Evidence())]
    named = sized_pass(frame, [short], [0.55], found, deck(), CardParams(), halved=None,
                       edges=edges_at(frame, 640))
    assert [s.card_id for s, _ in named] == ["num-3"]
    assert iou_quads(np.array(named[0][0].corners, np.float32), num) > 0.85


def test_sized_pass_names_nothing_on_a_bare_table() -> None:
    frame, fire, _ = _scene()
    bare = place(table(), faces()["act-fire"], fire)
    fire_seen = name_quad(bare, fire, deck())
    short = _cut_short(card_corners((650, 380), 290, -20), 0.72)
    named = sized_pass(bare, [short], [0.55], [(fire_seen, Evidence())], deck(), CardParams(),
                       halved=None, edges=edges_at(bare, 640))
    assert named == []


def test_sized_pass_leaves_a_place_left_unsure_alone():
    # the first pass looked at num-3 and left it unsure (a look-alike too close to call):
    # a completion of its corner does not name it anew
    frame, fire, num = _scene()
    fire_seen = name_quad(frame, fire, deck())
    unsure = replace(name_quad(frame, num, deck()), card_id=None, confidence=0.3)
    named = sized_pass(frame, [_cut_short(num, 0.72)], [0.55],
                       [(fire_seen, Evidence()), (unsure, Evidence(margin=0.01))], deck(),
                       CardParams(), halved=None, edges=edges_at(frame, 640))
    assert named == []
