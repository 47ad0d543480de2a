"""Card naming on tables drawn in the test: one hard thing at a time."""

from __future__ import annotations

import numpy as np
import pytest

from scenes.card_faces import draw_face, outside_face
from tests.vision import cards_support as cs
from vision.cards import read_cards
from vision.results import CardReading


def _read(frame: np.ndarray) -> CardReading:
    return read_cards(frame, cs.deck())


def test_empty_table_has_no_cards():
    reading = _read(cs.table())
    assert reading.cards == () and reading.unsure == ()


@pytest.mark.parametrize("angle", [0, 37, 90, 161, 250])
def test_one_card_at_any_rotation(angle):
    frame = cs.place(cs.table(), cs.faces()["hero-fox"], cs.card_corners((480, 360), 300, angle))
    reading = _read(frame)
    assert reading.ids == ("hero-fox",)
    sighting = reading.cards[0]
    assert 0.5 <= sighting.confidence <= 1.0
    # the corners come back as the card's own top-left... in the frame
    want = cs.card_corners((480, 360), 300, angle)
    assert np.abs(np.array(sighting.corners) - want).max() < 12


def test_perspective_tilt():
    corners = cs.card_corners((420, 380), 320, 20, tilt=0.2)
    reading = _read(cs.place(cs.table(seed=3), cs.faces()["num-4"], corners))
    assert reading.ids == ("num-4",)


@pytest.mark.parametrize("pair", [("act-swap", "act-skip"), ("act-fire", "act-five"),
                                  ("num-5", "num-6"), ("rune-circle", "rune-square")])
def test_look_alikes_side_by_side(pair):
    frame = cs.table(seed=1)
    for cid, x in zip(pair, (290, 670)):
        frame = cs.place(frame, cs.faces()[cid], cs.card_corners((x, 360), 340, 8))
    assert _read(frame).ids == tuple(sorted(pair))


def test_several_cards_and_one_partly_covered():
    frame = cs.table(seed=2)
    frame = cs.place(frame, cs.faces()["hero-moon"], cs.card_corners((330, 330), 300, -10))
    # about a quarter of hero-moon lies under num-2
    frame = cs.place(frame, cs.faces()["num-2"], cs.card_corners((500, 420), 300, 5))
    frame = cs.place(frame, cs.faces()["act-bank"], cs.card_corners((800, 300), 260, 60))
    assert _read(frame).ids == ("act-bank", "hero-moon", "num-2")


def test_face_down_and_foreign_cards_are_never_named():
    frame = cs.table(seed=4)
    frame = cs.place(frame, cs.back(), cs.card_corners((250, 360), 300, 15))
    frame = cs.place(frame, outside_face("zebra"), cs.card_corners((520, 360), 300, -20))
    frame = cs.place(frame, cs.faces()["hero-tower"], cs.card_corners((780, 360), 300, 3))
    assert _read(frame).ids == ("hero-tower",)


@pytest.mark.xfail(strict=True, reason="known limit: a foreign card with the same art whose "
                   "title shares most letters with a deck face's title (SNAP vs SWAP) is "
                   "named; see docs/benchmarks.md")
def test_a_foreign_look_alike_is_not_named_as_its_neighbour():
    # same art and colour as the SWAP/SKIP pair, another title: not a card of the deck
    snap = draw_face({"art": 100, "colour": 0, "title": "SNAP"})
    reading = _read(cs.place(cs.table(seed=5), snap, cs.card_corners((480, 360), 340, 12)))
    assert reading.ids == ()


def test_dim_noisy_light():
    corners = cs.card_corners((480, 360), 330, 30)
    frame = cs.place(cs.table(seed=6), cs.faces()["rune-star"], corners)
    rng = np.random.default_rng(0)
    dim = np.clip(frame * 0.35 + rng.normal(0, 4, frame.shape), 0, 255).astype(np.uint8)
    assert _read(dim).ids == ("rune-star",)


def test_input_frame_is_not_modified():
    frame = cs.place(cs.table(), cs.faces()["num-1"], cs.card_corners((480, 360), 300, 45))
    before = frame.copy()
    _read(frame)
    assert np.array_equal(frame, before)


@pytest.mark.parametrize("bad", [np.zeros((10, 10), np.uint8), np.zeros((50, 50, 3), np.float32),
                                 np.zeros((50, 50, 4), np.uint8), [[1, 2, 3]]])
def test_bad_frames_are_refused_with_a_clear_error(bad):
    with pytest.raises(ValueError, match="frame"):
        read_cards(bad, cs.deck())  # type: ignore[arg-type]


def test_two_copies_of_one_face_are_both_reported():
    frame = cs.table(seed=7)
    for x in (280, 680):
        frame = cs.place(frame, cs.faces()["hero-comet"], cs.card_corners((x, 360), 300, x / 10))
    assert _read(frame).ids == ("hero-comet", "hero-comet")


def test_foreign_card_with_the_same_art_and_another_title_is_not_named():
    # same art and colour as SWAP/SKIP, another title: RAFT
    raft = draw_face({"art": 100, "colour": 0, "title": "RAFT"})
    reading = _read(cs.place(cs.table(seed=5), raft, cs.card_corners((480, 360), 340, 12)))
    assert reading.ids == ()


def test_unknown_numeral_style_card_is_not_a_number_card():
    seven = draw_face({"art": 200, "colour": 4, "title": "NUMBER", "numeral": "7"})
    reading = _read(cs.place(cs.table(seed=8), seven, cs.card_corners((480, 360), 340, -5)))
    assert not any(cid.startswith("num-") for cid in reading.ids)
