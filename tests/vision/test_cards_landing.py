"""The frame where a card lands, read from the change alone (``vision.cards_landing``,
through ``cards_track.CardReader``): only the change is searched, the cards seen before are
kept, and anything the new card does not explain sends the frame to the full read."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from tests.vision import cards_support as cs
from vision.cards import read_cards
from vision.cards_change import change_quads
from vision.cards_landing import is_explained, share_under, tile_means
from vision.cards_track import CardReader, TrackParams
from vision.results import CardSighting

FOX = cs.card_corners((300, 360), 300, 8)
FOUR = cs.card_corners((680, 380), 300, -12)


def _one_card() -> np.ndarray:
    return cs.place(cs.table(seed=4), cs.faces()["hero-fox"], FOX)


def _two_cards() -> np.ndarray:
    return cs.place(_one_card(), cs.faces()["num-4"], FOUR)


def _watched(monkeypatch) -> dict[str, list]:
    """What ``CardReader`` searched: the boxes of its outline searches (None: the whole
    frame) and its keypoint searches."""
    import vision.cards_landing as landing
    import vision.cards_track as track

    seen: dict[str, list] = {"boxes": [], "keys": []}
    real_quads, real_keys = landing.view_quads, track.frame_keys

    def quads(view, aspect, box=None, *, params):
        seen["boxes"].append(box)
        return real_quads(view, aspect, box, params=params)

    def keys(*args, **kw):
        seen["keys"].append(kw.get("changed"))
        return real_keys(*args, **kw)

    monkeypatch.setattr(landing, "view_quads", quads)
    monkeypatch.setattr(track, "view_quads", quads)
    monkeypatch.setattr(track, "frame_keys", keys)
    return seen


def test_a_card_that_lands_is_read_from_the_change_alone(monkeypatch):
    seen = _watched(monkeypatch)
    reader = CardReader(cs.deck())
    before = reader.read(_one_card())
    seen["boxes"].clear()
    seen["keys"].clear()
    landed = reader.read(_two_cards())
    assert sorted(landed.ids) == sorted(read_cards(_two_cards(), cs.deck()).ids) == [
        "hero-fox", "num-4"]
    assert reader.reads == 2
    # the outlines were searched only in a box around num-4, no keypoints at all
    assert seen["boxes"] and None not in seen["boxes"]
    h, w = _one_card().shape[:2]
    for x0, y0, x1, y1 in seen["boxes"]:
        assert (x1 - x0) * (y1 - y0) < 0.5 * h * w and x0 > 300
    assert seen["keys"] == []
    assert any(s is before.cards[0] for s in landed.cards)  # hero-fox kept as seen
    # the keypoints the landing left unsearched are searched at the next full read
    seen["keys"].clear()
    far = cs.place(_two_cards(), cs.back(), cs.card_corners((300, 360), 300, 8))
    reader.read(far)
    assert len(seen["keys"]) == 1 and seen["keys"][0][7, 14]  # a tile of num-4's


def test_without_the_landing_read_the_whole_frame_is_searched(monkeypatch):
    seen = _watched(monkeypatch)
    reader = CardReader(cs.deck(), track=TrackParams(land=None))
    reader.read(_one_card())
    seen["boxes"].clear()
    seen["keys"].clear()
    assert sorted(reader.read(_two_cards()).ids) == ["hero-fox", "num-4"]
    assert None in seen["boxes"] and len(seen["keys"]) == 1


def test_a_card_landing_on_the_pile_hides_the_one_beneath(monkeypatch):
    seen = _watched(monkeypatch)
    reader = CardReader(cs.deck())
    reader.read(_one_card())
    seen["boxes"].clear()
    pile = cs.place(_one_card(), cs.faces()["num-4"], cs.card_corners((302, 362), 306, 11))
    landed = reader.read(pile)
    assert landed.ids == read_cards(pile, cs.deck()).ids == ("num-4",)
    assert None not in seen["boxes"]


@pytest.mark.parametrize("what", ["half on the other card", "with a card back beside it"])
def test_a_change_the_new_card_does_not_explain_is_read_in_full(monkeypatch, what):
    seen = _watched(monkeypatch)
    reader = CardReader(cs.deck())
    reader.read(_one_card())
    seen["boxes"].clear()
    if what == "half on the other card":
        frame = cs.place(_one_card(), cs.faces()["num-4"], cs.card_corners((470, 420), 300, -12))
    else:
        frame = cs.place(_two_cards(), cs.back(), cs.card_corners((760, 200), 200, 30))
    landed = reader.read(frame)
    assert sorted(landed.ids) == sorted(read_cards(frame, cs.deck()).ids)
    assert None in seen["boxes"]  # the whole frame was searched


def test_a_change_is_explained_only_where_the_card_lies():
    diff = np.zeros((480, 640), np.float32)
    diff[100:300, 200:340] = 40  # the card
    diff[298:304, 200:340] = 20  # its shadow, just beyond it
    card = CardSighting(card_id="num-4", best_guess="num-4", confidence=1.0, runner_up=None,
                        distance=0.1, corners=((400, 200), (680, 200), (680, 600), (400, 600)))
    assert tile_means(diff, 32).max() > 6
    assert is_explained(diff, [card], 0.5, still=6, tile=32, shadow=0.04)
    diff[20:60, 20:60] = 40  # something else changed too
    assert not is_explained(diff, [card], 0.5, still=6, tile=32, shadow=0.04)


def test_a_card_landing_a_little_on_another_keeps_it_as_seen(monkeypatch):
    # the card beneath loses less of itself than the full read looks under
    # (CardParams.hidden_cover): what is left of it is unchanged, so it is kept as seen
    seen = _watched(monkeypatch)
    reader = CardReader(cs.deck())
    before = reader.read(_one_card())
    seen["boxes"].clear()
    corners = cs.card_corners((500, 380), 300, -12)
    frame = cs.place(_one_card(), cs.faces()["num-4"], corners)
    fox = CardSighting(card_id="hero-fox", best_guess="hero-fox", confidence=1.0,
                       runner_up=None, distance=0.1, corners=tuple(map(tuple, FOX)))
    lands = CardSighting(card_id="num-4", best_guess="num-4", confidence=1.0,
                         runner_up=None, distance=0.1, corners=tuple(map(tuple, corners)))
    assert 0.02 < share_under(fox, lands) < 0.15
    landed = reader.read(frame)
    assert sorted(landed.ids) == sorted(read_cards(frame, cs.deck()).ids) == [
        "hero-fox", "num-4"]
    assert None not in seen["boxes"]  # read from the change alone
    assert any(s is before.cards[0] for s in landed.cards)


def test_the_change_itself_outlines_the_card_that_landed():
    frame_before, frame_after = _one_card(), _two_cards()
    scale = 640 / frame_after.shape[1]
    size = (640, round(frame_after.shape[0] * scale))
    grey = [cv2.GaussianBlur(cv2.cvtColor(cv2.resize(f, size, interpolation=cv2.INTER_AREA),
                                          cv2.COLOR_BGR2GRAY).astype(np.float32), (5, 5), 0)
            for f in (frame_before, frame_after)]
    diff = np.abs(grey[1] - grey[0])
    changed = tile_means(diff, 32) >= 6
    quads = change_quads(diff, changed, scale, still=6, tile=32)
    assert len(quads) == 1
    side = float(np.hypot(*(FOUR[0] - FOUR[1])))
    err = min(np.abs(np.roll(quads[0], k, axis=0) - FOUR).max() for k in range(4))
    assert err < 0.05 * side
    # a change of no card's shape (a hand's round blob) outlines nothing
    blob = np.zeros_like(diff)
    cv2.circle(blob, (300, 240), 80, 40.0, -1)
    assert change_quads(blob, tile_means(blob, 32) >= 6, scale, still=6, tile=32) == []


def test_a_landed_name_the_margin_check_drops_sends_the_frame_to_the_full_read(monkeypatch):
    # the full read drops a name whose rim a cloth's pattern runs through (cards_margin);
    # a landing read from the change alone must leave it to the full read too
    import vision.cards_landing as landing

    seen = _watched(monkeypatch)
    monkeypatch.setattr(landing, "drop_patterned", lambda frame, sightings, deck: [])
    reader = CardReader(cs.deck())
    reader.read(_one_card())
    seen["boxes"].clear()
    reader.read(_two_cards())
    assert None in seen["boxes"]  # the whole frame searched
