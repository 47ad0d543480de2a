"""Reading a camera's frames in turn (``vision.cards_track``): a still table is not read
again, a card that lands is found by searching only the part of the table that changed."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from tests.vision import cards_support as cs
from vision.cards import read_cards
from vision.cards_keys import find_keypoint_quads, frame_keys, with_nearest, work_gray
from vision.cards_stages import CardParams
from vision.cards_track import CardReader, TrackParams


def _noisy(frame: np.ndarray, seed: int) -> np.ndarray:
    """The same picture taken again: a little sensor noise on every pixel."""
    rng = np.random.default_rng(seed)
    return np.clip(frame.astype(np.int16) + rng.integers(-4, 5, frame.shape), 0, 255
                   ).astype(np.uint8)


def _one_card() -> np.ndarray:
    return cs.place(cs.table(seed=4), cs.faces()["hero-fox"], cs.card_corners((300, 360), 300, 8))


def _two_cards() -> np.ndarray:
    return cs.place(_one_card(), cs.faces()["num-4"], cs.card_corners((680, 380), 300, -12))


def test_a_still_table_is_read_once():
    reader = CardReader(cs.deck())
    first = reader.read(_one_card())
    assert first.ids == read_cards(_one_card(), cs.deck()).ids == ("hero-fox",)
    for seed in range(3):
        assert reader.read(_noisy(_one_card(), seed)).ids == ("hero-fox",)
    assert reader.reads == 1


def test_a_card_that_lands_is_named_like_a_fresh_read():
    reader = CardReader(cs.deck())
    reader.read(_one_card())
    landed = reader.read(_two_cards())
    assert reader.reads == 2
    assert landed.ids == read_cards(_two_cards(), cs.deck()).ids == ("hero-fox", "num-4")
    # and when it is taken away again, the table is read again
    assert reader.read(_one_card()).ids == ("hero-fox",)
    assert reader.reads == 3


def test_a_frame_of_another_size_is_read_afresh():
    reader = CardReader(cs.deck())
    reader.read(_one_card())
    small = _two_cards()[::2, ::2].copy()
    assert reader.read(small).ids == read_cards(small, cs.deck()).ids
    assert reader.reads == 2


def _spied(monkeypatch) -> list[np.ndarray]:
    """The outlines ``CardReader`` has named (its fine stage called), in turn."""
    import vision.cards_track as track

    named: list[np.ndarray] = []
    real = track.fine_stage

    def spy(frame, coarse, deck, params, *, usable=None):
        named.append(coarse[1])
        return real(frame, coarse, deck, params, usable=usable)

    monkeypatch.setattr(track, "fine_stage", spy)
    return named


def _near(quads: list[np.ndarray], corners: np.ndarray) -> int:
    """How many outlines have every corner within 15 pixels of one of ``corners``."""
    return sum(np.hypot(*(q[:, None] - corners[None]).transpose(2, 0, 1)).min(axis=1).max() < 15
               for q in quads)


def test_a_card_away_from_the_change_is_not_named_again(monkeypatch):
    named = _spied(monkeypatch)
    reader = CardReader(cs.deck())
    first = reader.read(_one_card())
    fox = cs.card_corners((300, 360), 300, 8)
    assert _near(named, fox) >= 1
    named.clear()
    landed = reader.read(_two_cards())
    assert landed.ids == read_cards(_two_cards(), cs.deck()).ids == ("hero-fox", "num-4")
    assert _near(named, fox) == 0  # recalled, not named again
    assert _near(named, cs.card_corners((680, 380), 300, -12)) >= 1
    assert any(s is first.cards[0] for s in landed.cards)
    # with recall turned off, every outline is named afresh
    named.clear()
    reader = CardReader(cs.deck(), track=TrackParams(same_outline=0, land=None))
    reader.read(_one_card())
    named.clear()
    assert reader.read(_two_cards()).ids == ("hero-fox", "num-4")
    assert _near(named, fox) >= 1


def test_a_card_the_change_touches_is_named_again(monkeypatch):
    named = _spied(monkeypatch)
    reader = CardReader(cs.deck())
    first = reader.read(_one_card())
    named.clear()
    # num-4 lands over a corner of hero-fox: what is seen of hero-fox has changed
    frame = cs.place(_one_card(), cs.faces()["num-4"], cs.card_corners((470, 420), 300, -12))
    landed = reader.read(frame)
    assert landed.ids == read_cards(frame, cs.deck()).ids
    assert not any(s is first.cards[0] for s in landed.cards)
    assert len(named) >= 2


@pytest.mark.parametrize("bad", [np.zeros((10, 10), np.uint8), np.zeros((40, 40, 3))])
def test_bad_frames_are_refused_with_a_clear_error(bad):
    with pytest.raises(ValueError, match="frame"):
        CardReader(cs.deck()).read(bad)


def test_keypoints_are_searched_again_only_where_the_table_changed():
    # the keypoints kept from before are those of another table: they are reused as
    # they were, never searched for again, outside the changed tiles
    old = frame_keys(*work_gray(cs.table(seed=9)))
    after = work_gray(_two_cards())
    changed = np.zeros((-(-after[0].shape[0] // 32), -(-after[0].shape[1] // 32)), bool)
    changed[4:14, 9:17] = True  # the new card: work pixels x 288-544, y 128-448
    keys = frame_keys(*after, reuse=old, changed=changed)
    # searched afresh: the changed tiles and one tile around them (x 256-576)
    far = (keys.pts[:, 0] < 8 * 32) | (keys.pts[:, 0] >= 18 * 32)
    old_far = (old.pts[:, 0] < 8 * 32) | (old.pts[:, 0] >= 18 * 32)
    assert old_far.sum() > 20
    assert np.array_equal(keys.pts[far], old.pts[old_far])
    assert np.array_equal(keys.desc[far], old.desc[old_far])
    # the card that landed is found; hero-fox, on tiles taken from the other table, is not
    deck = cs.deck()
    found = find_keypoint_quads(_two_cards(), deck.faces, deck.bank, keys=keys)
    assert {cid for _, cid in found} == {"num-4"}


def test_nearest_reference_descriptors_are_searched_once():
    deck = cs.deck()
    keys = with_nearest(frame_keys(*work_gray(_two_cards())), deck.faces, deck.bank)
    assert not np.isnan(keys.nearest).any()
    # a keypoint already searched keeps what was found for it
    marked = keys.nearest.copy()
    marked[0] = (-1, np.inf, np.inf)
    again = with_nearest(replace(keys, nearest=marked), deck.faces, deck.bank)
    assert np.array_equal(again.nearest, marked)
    assert ({cid for _, cid in find_keypoint_quads(_two_cards(), deck.faces, deck.bank, keys=keys)}
            == {cid for _, cid in find_keypoint_quads(_two_cards(), deck.faces, deck.bank)}
            == {"hero-fox", "num-4"})


def test_a_part_read_keeps_the_cards_away_from_the_change():
    reader = CardReader(cs.deck(), track=TrackParams(part_below=0.6))
    before = reader.read(_one_card())
    landed = reader.read(_two_cards())
    assert landed.ids == ("hero-fox", "num-4")
    # hero-fox lies away from the change: its sighting is the one seen before
    assert any(s is before.cards[0] for s in landed.cards)
    new = next(s for s in landed.cards if s.card_id == "num-4")
    want = cs.card_corners((680, 380), 300, -12)
    gap = np.hypot(*(np.array(new.corners)[:, None] - want[None]).transpose(2, 0, 1)).min(axis=1)
    assert gap.max() < 12  # in frame pixels, not the box's


def test_a_part_read_looks_again_at_a_card_the_change_touches():
    reader = CardReader(cs.deck(), track=TrackParams(part_below=0.9))
    before = reader.read(_one_card())
    # num-4 lands over a corner of hero-fox
    frame = cs.place(_one_card(), cs.faces()["num-4"], cs.card_corners((470, 420), 300, -12))
    landed = reader.read(frame)
    assert reader.reads == 2
    assert landed.ids == read_cards(frame, cs.deck()).ids
    assert not any(s is before.cards[0] for s in landed.cards)


def _searched(monkeypatch) -> list[tuple[int, int]]:
    """The (height, width) of every picture ``CardReader`` searched for card outlines."""
    import vision.cards_track as track

    sizes: list[tuple[int, int]] = []
    real = track.view_quads

    def spy(view, aspect, box=None, *, params):
        h, w = _one_card().shape[:2]
        x0, y0, x1, y1 = (0, 0, w, h) if box is None else box
        sizes.append((y1 - y0, x1 - x0))
        return real(view, aspect, box, params=params)

    monkeypatch.setattr(track, "view_quads", spy)
    return sizes


def test_outlines_are_searched_again_only_around_the_change(monkeypatch):
    sizes = _searched(monkeypatch)
    reader = CardReader(cs.deck(), track=TrackParams(crop_below=0.7, land=None))
    reader.read(_one_card())
    assert sizes == [_one_card().shape[:2]]  # the first frame: all of it
    landed = reader.read(_two_cards())
    assert landed.ids == read_cards(_two_cards(), cs.deck()).ids == ("hero-fox", "num-4")
    (h, w), (fh, fw) = sizes[1], _one_card().shape[:2]
    assert h * w < 0.7 * fh * fw  # only a box around num-4
    # hero-fox's outline was kept from the first read: its card is recalled as it was
    fox = next(s for s in landed.cards if s.card_id == "hero-fox")
    want = cs.card_corners((300, 360), 300, 8)
    gap = np.hypot(*(np.array(fox.corners)[:, None] - want[None]).transpose(2, 0, 1)).min(axis=1)
    assert gap.max() < 12
    # off (the default), the whole frame is searched every time
    sizes.clear()
    reader = CardReader(cs.deck(), track=TrackParams(land=None))
    reader.read(_one_card())
    assert reader.read(_two_cards()).ids == ("hero-fox", "num-4")
    assert sizes == [_one_card().shape[:2]] * 2


def test_kept_outlines_are_searched_afresh_after_a_while(monkeypatch):
    sizes = _searched(monkeypatch)
    reader = CardReader(cs.deck(), track=TrackParams(crop_below=0.7, carry_reads=1, land=None))
    reader.read(_one_card())
    reader.read(_two_cards())
    assert reader.read(_one_card()).ids == ("hero-fox",)  # num-4 taken away again
    # hero-fox's outline, kept over one read, is not kept over a second: the whole
    # frame is searched again
    assert reader.reads == 3
    assert sizes[0] == sizes[2] == _one_card().shape[:2] != sizes[1]


def test_kept_outlines_keep_their_coarse_ranking(monkeypatch):
    import vision.cards_track as track

    ranked: list[np.ndarray] = []
    real = track.coarse_all

    def spy(frame, quads, deck, **kw):
        ranked.extend(quads)
        return real(frame, quads, deck, **kw)

    monkeypatch.setattr(track, "coarse_all", spy)
    fox, four = cs.card_corners((300, 360), 300, 8), cs.card_corners((680, 380), 300, -12)
    # edge outlines only: a keypoint outline is always ranked afresh
    params = CardParams(keys=None)
    reader = CardReader(cs.deck(), params=params,
                        track=TrackParams(crop_below=0.7, level_drift=255, land=None))
    reader.read(_one_card())
    assert _near(ranked, fox) >= 1
    ranked.clear()
    assert reader.read(_two_cards()).ids == ("hero-fox", "num-4")
    assert _near(ranked, fox) == 0  # hero-fox's outlines were kept, and their ranking
    assert _near(ranked, four) >= 1
    # searched afresh, hero-fox's outlines are ranked again
    reader = CardReader(cs.deck(), params=params, track=TrackParams(land=None))
    reader.read(_one_card())
    ranked.clear()
    assert reader.read(_two_cards()).ids == ("hero-fox", "num-4")
    assert _near(ranked, fox) >= 1


def test_outlines_are_not_kept_once_the_card_white_level_moved(monkeypatch):
    from vision.cards_part import work_view

    sizes = _searched(monkeypatch)
    # a larger num-4: its white moves the frame's card-white level
    landed = cs.place(_one_card(), cs.faces()["num-4"], cs.card_corners((680, 380), 380, -12))
    moved = abs(work_view(landed).level - work_view(_one_card()).level)
    assert moved > 0
    for drift, searched in [(moved + 1, "part"), (moved - 0.5, "whole")]:
        sizes.clear()
        reader = CardReader(cs.deck(), track=TrackParams(crop_below=0.7, level_drift=drift))
        reader.read(_one_card())
        assert reader.read(landed).ids == read_cards(landed, cs.deck()).ids
        assert (sizes[1] == sizes[0]) == (searched == "whole")
