"""The fast path (``vision.cards_fast``): a bare table of clean cards read without the
rest of the pipeline, on tables drawn in the test."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np

from tests.vision import cards_support as cs
from vision.cards import CardParams, read_cards
from vision.cards_fast import FastParams, busy_keypoint_quads, busy_tiles, fast_first, is_bare
from vision.cards_keys import find_keypoint_quads
from vision.cards_part import view_quads, work_view
from vision.cards_stages import coarse_all
from vision.cards_unnamed import recalling, unnamed_tiles

FAST = replace(CardParams(), fast=FastParams())
FULL = replace(CardParams(), fast=None)  # every frame read in full


def _cloth(seed: int = 4) -> np.ndarray:
    """A plain green cloth at 1280x960 with the camera's pixel noise: a bare table."""
    rng = np.random.default_rng(seed)
    cloth = np.array([70, 120, 40], np.float32) + rng.normal(0, 3, (960, 1280, 3))
    return np.clip(cloth, 0, 255).astype(np.uint8)


def _two_cards(table: np.ndarray | None = None) -> np.ndarray:
    frame = _cloth() if table is None else table
    frame = cs.place(frame, cs.faces()["hero-comet"], cs.card_corners((330, 300), 330, 20))
    return cs.place(frame, cs.faces()["num-4"], cs.card_corners((930, 640), 330, -15))


def test_a_bare_table_of_clean_cards_is_read_by_the_fast_path_as_in_full():
    assert CardParams().fast == FastParams()  # on by default
    deck, frame = cs.deck(), _two_cards()
    reading, _ = fast_first(frame, deck, FAST)
    assert reading is not None
    full = read_cards(frame, deck, params=FULL)
    assert sorted(reading.ids) == ["hero-comet", "num-4"] == sorted(full.ids)
    assert read_cards(frame, deck, params=FAST) == reading


def test_an_empty_bare_table_reads_empty_on_the_fast_path():
    reading, _ = fast_first(_cloth(), cs.deck(), FAST)
    assert reading is not None and reading.ids == () and reading.unsure == ()
    # a textured table shows edges of its own: read in full, as a card back would be
    textured = _two_cards(cs.table(size=(1280, 960), seed=4))
    assert fast_first(textured, cs.deck(), FAST)[0] is None


def test_a_card_partly_under_another_sends_the_frame_to_the_full_read():
    # the card beneath shows its print beside the top card: the table is not bare, and
    # only the full read's second looks name it
    deck = cs.deck()
    frame = cs.place(_cloth(), cs.faces()["hero-fox"],
                     cs.card_corners((520, 480), 360, 5))
    frame = cs.place(frame, cs.faces()["hero-comet"], cs.card_corners((700, 500), 360, -8))
    reading, reuse = fast_first(frame, deck, FAST)
    assert reading is None and {"view", "quads", "coarse", "fine"} <= set(reuse)
    full = read_cards(frame, deck, params=FULL)
    assert {"hero-fox", "hero-comet"} <= set(full.ids)
    # the same cards (the keypoints are not searched on a clean card named: its outline
    # may be another, busy_keys)
    fast = read_cards(frame, deck, params=FAST)
    assert fast.ids == full.ids and fast.unsure == full.unsure


def test_a_card_back_beside_the_cards_sends_the_frame_to_the_full_read():
    deck = cs.deck()
    frame = cs.place(_two_cards(), cs.back(), cs.card_corners((640, 250), 300, 70))
    assert fast_first(frame, deck, FAST)[0] is None
    assert sorted(read_cards(frame, deck, params=FAST).ids) == ["hero-comet", "num-4"]


def test_the_bare_test_sees_edges_only_outside_the_cards_given():
    frame = _cloth()
    cv2.line(frame, (100, 100), (400, 100), (250, 250, 250), 3)
    view = work_view(frame)
    assert is_bare(work_view(_cloth()), [])
    assert not is_bare(view, [])
    over = np.array([[60, 60], [440, 60], [440, 140], [60, 140]], np.float32)
    assert is_bare(view, [over])
    assert not is_bare(view, [over * 0.5])


def test_the_keypoints_are_searched_only_where_the_table_is_busy():
    deck = cs.deck()
    frame = cs.place(_cloth(), cs.faces()["hero-comet"], cs.card_corners((330, 300), 330, 20))
    frame = cs.place(frame, cs.back(), cs.card_corners((640, 250), 300, 70))
    view = work_view(frame)
    busy = busy_tiles(view, [])  # the two cards' tiles, nothing else
    assert 0 < busy.mean() < 0.5
    whole = {cid for _, cid in find_keypoint_quads(frame, deck.faces, deck.bank)}
    assert {cid for _, cid in busy_keypoint_quads(frame, deck, busy)} == whole == {"hero-comet"}
    # tiles marked bare are not searched: the card there is not found by keypoints
    assert busy_keypoint_quads(frame, deck, np.zeros_like(busy)) == []
    # the fast path hands the full read the tiles beyond its clean card (the back's),
    # and reads as the whole search does
    with_busy = replace(FAST, fast=FastParams(busy_keys=True))
    reading, reuse = fast_first(frame, deck, with_busy)
    assert reading is None and 0 < reuse["busy"].sum() < busy.sum()
    assert read_cards(frame, deck, params=with_busy).ids == read_cards(
        frame, deck, params=FULL).ids


def test_a_cold_read_searches_keypoints_only_on_the_busy_tiles_by_default():
    # the bare cloth and the clean card named hold no card only keypoints would find
    deck = cs.deck()
    frame = cs.place(_cloth(), cs.faces()["hero-comet"], cs.card_corners((330, 300), 330, 20))
    frame = cs.place(frame, cs.back(), cs.card_corners((640, 250), 300, 70))
    reading, reuse = fast_first(frame, deck, CardParams())
    assert reading is None and 0 < reuse["busy"].mean() < 0.5


def test_a_busy_table_is_searched_for_keypoints_whole():
    textured = _two_cards(cs.table(size=(1280, 960), seed=4))
    reading, reuse = fast_first(textured, cs.deck(), replace(FAST, fast=FastParams(
        busy_keys=True, busy_most=0.0)))
    assert reading is None and "busy" not in reuse


def test_a_clean_card_the_naming_leaves_unnamed_is_searched_for_keypoints():
    # a card cleanly outlined on a bare cloth leaves no busy tile; when its naming does
    # not name it (a sparse print, a taught face), only its keypoints can place it
    deck = cs.deck()
    frame = cs.place(_cloth(), cs.faces()["hero-comet"], cs.card_corners((330, 300), 330, 20))
    view, params = work_view(frame), replace(CardParams(), fast=FastParams(busy_keys=True))
    first = coarse_all(frame, view_quads(view, deck.aspect), deck)
    clean = [c for c in first if c[0].min() <= FastParams().clean_distance]
    assert clean and not busy_tiles(view, [c[1] for c in clean]).any()
    args = dict(params=params, grow=1.06, tile=32, halved=None)
    named = unnamed_tiles(frame, deck, clean, view, fine=recalling(), **args)
    assert not named.any()  # named: its tiles stay bare
    refused = unnamed_tiles(frame, deck, clean, view, fine=lambda *a, **k: None, **args)
    assert 0 < refused.mean() < 0.3
    assert busy_keypoint_quads(frame, deck, np.zeros_like(refused)) == []
    assert {cid for _, cid in busy_keypoint_quads(frame, deck, refused)} == {"hero-comet"}


def test_an_outline_is_named_once_by_the_recalling_stand_in():
    deck = cs.deck()
    frame = cs.place(_cloth(), cs.faces()["num-4"], cs.card_corners((640, 480), 330, 10))
    stage = coarse_all(frame, [np.array(cs.card_corners((640, 480), 330, 10), np.float32)],
                       deck)[0]
    fine = recalling()
    first = fine(frame, stage, deck, CardParams().match)
    assert first is not None and first[0].card_id == "num-4"
    assert fine(frame, stage, deck, CardParams().match) is first  # recalled, not named again
    moved = (stage[0], stage[1] + 3.0, stage[2])
    assert fine(frame, moved, deck, CardParams().match) is not first


def test_a_name_the_margin_check_drops_sends_the_frame_to_the_full_read(monkeypatch):
    # the full read drops a name whose rim a cloth's pattern runs through (cards_margin);
    # the fast path must not report it either
    import vision.cards_fast as fast

    deck, frame = cs.deck(), _two_cards()
    assert fast_first(frame, deck, FAST)[0] is not None
    monkeypatch.setattr(fast, "drop_patterned", lambda frame, sightings, deck: sightings[1:])
    assert fast_first(frame, deck, FAST)[0] is None
