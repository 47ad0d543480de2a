"""The cheap first look before the keypoint search (``vision.cards_glance``), on tables
drawn in the test."""

from __future__ import annotations

import cv2
import numpy as np

from tests.vision import cards_support as cs
from vision.cards import CardParams, read_cards
from vision.cards_glance import GlanceParams, _merged, glance_keys, keypoint_quads, marked_boxes
from vision.cards_keys import KeyParams, find_keypoint_quads, frame_keys, work_gray

LOOK = KeyParams(first_look=320)


def _two_cards() -> np.ndarray:
    frame = cs.place(cs.table(size=(1280, 960), seed=4), cs.faces()["hero-comet"],
                     cs.card_corners((330, 300), 330, 20))
    return cs.place(frame, cs.faces()["num-4"], cs.card_corners((930, 640), 330, -15))


def test_boxes_that_overlap_much_are_searched_as_one_and_apart_ones_alone():
    assert _merged([[0, 0, 100, 100], [10, 10, 110, 110]]) == [(0, 0, 110, 110)]
    far = [[0, 0, 100, 100], [300, 300, 400, 400]]
    assert _merged(far) == [tuple(b) for b in far]
    # a thin overlap at a corner: their bounding box would search much table for nothing
    corner = [[0, 0, 100, 100], [90, 90, 190, 190]]
    assert _merged(corner) == [tuple(b) for b in corner]


def test_the_first_look_marks_the_cards_and_not_the_empty_table():
    deck, frame = cs.deck(), _two_cards()
    gray, scale = work_gray(frame)
    boxes = marked_boxes(frame, deck.faces, deck.bank, gray.shape, scale)
    area = sum((x1 - x0) * (y1 - y0) for x0, y0, x1, y1 in boxes) / gray.size
    assert 0 < area < 0.6
    for centre in ((330, 300), (930, 640)):  # frame pixels of the two cards' centres
        x, y = centre[0] * scale, centre[1] * scale
        assert any(x0 <= x < x1 and y0 <= y < y1 for x0, y0, x1, y1 in boxes)
    empty = cs.table(size=(1280, 960), seed=4)
    assert marked_boxes(empty, deck.faces, deck.bank, gray.shape, scale) == []
    assert len(glance_keys(empty, deck.faces, deck.bank).pts) == 0


def test_the_keypoints_searched_where_marked_place_the_same_cards():
    deck, frame = cs.deck(), _two_cards()
    keys = glance_keys(frame, deck.faces, deck.bank)
    assert len(keys.pts) < len(frame_keys(*work_gray(frame)).pts) + 1
    looked = {cid for _, cid in keypoint_quads(frame, deck.faces, deck.bank, params=LOOK)}
    whole = {cid for _, cid in find_keypoint_quads(frame, deck.faces, deck.bank)}
    assert looked == whole == {"hero-comet", "num-4"}
    assert read_cards(frame, deck, params=CardParams(keys=LOOK)).ids == ("hero-comet", "num-4")


def test_a_small_frame_is_searched_whole():
    # 480 work pixels is less than twice the first look's 320: nothing to save
    deck = cs.deck()
    frame = cv2.resize(_two_cards(), (480, 360), interpolation=cv2.INTER_AREA)
    keys = glance_keys(frame, deck.faces, deck.bank, glance=GlanceParams(side=320))
    whole = frame_keys(*work_gray(frame))
    assert np.array_equal(keys.pts, whole.pts)

