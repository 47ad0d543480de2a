"""The colour of a card's ink against a reference's (``vision.cards_ink``)."""

from __future__ import annotations

import functools

import cv2
import numpy as np
import pytest

from tests.vision import cards_support as cs
from vision.cards_ink import ink_alike, ink_chroma, ink_clash, ink_duel, ink_kind
from vision.cards_match import FINE_BLUR, MatchParams, features
from vision.cards_stages import coarse_all, fine_stage
from vision.deck import Deck, build_deck

RED = (40, 40, 200)  # BGR


def _grey_as_light_as(bgr: tuple[int, int, int]) -> tuple[int, int, int]:
    """A neutral ink exactly as light as ``bgr``: the two inks differ in colour only."""
    light = cv2.cvtColor(np.uint8([[bgr]]), cv2.COLOR_BGR2LAB)[0, 0, 0]
    grey = int(np.argmin([abs(int(cv2.cvtColor(np.uint8([[[g, g, g]]]), cv2.COLOR_BGR2LAB)
                                  [0, 0, 0]) - int(light)) for g in range(256)]))
    return grey, grey, grey


GREY = _grey_as_light_as(RED)


def _ace(ink: tuple[int, int, int], size: tuple[int, int] = (352, 252)) -> np.ndarray:
    """An ace-like face: corner indices and a central pip, all in one ink, on white."""
    h, w = size
    face = np.full((h, w, 3), 245, np.uint8)
    for turn in (False, True):
        half = face[::-1, ::-1] if turn else face
        half = np.ascontiguousarray(half)
        cv2.putText(half, "A", (10, 40), cv2.FONT_HERSHEY_SIMPLEX, 1.1, ink, 3)
        cv2.fillPoly(half, [np.array([[27, 52], [37, 67], [27, 82], [17, 67]], np.int32)], ink)
        face[:] = half[::-1, ::-1] if turn else half
    cv2.fillPoly(face, [np.array([[126, 130], [166, 176], [126, 222], [86, 176]], np.int32)], ink)
    return face


def _tinted(frame: np.ndarray, gains: tuple[float, float, float]) -> np.ndarray:
    """The frame under coloured light: each channel (B, G, R) scaled."""
    return np.clip(frame * np.float32(gains), 0, 255).astype(np.uint8)


@functools.lru_cache(maxsize=1)
def _deck() -> Deck:
    """The synthetic deck with two aces alike in all but the colour of their ink."""
    return build_deck(sorted({**cs.faces(), "ace-black": _ace(GREY), "ace-red": _ace(RED)}
                             .items()))


def _feats(face: np.ndarray) -> np.ndarray:
    return features(cv2.resize(face, (120, 160), interpolation=cv2.INTER_AREA), FINE_BLUR)


def test_black_ink_is_neutral_and_red_ink_coloured_under_tinted_light():
    seen = np.ones((160, 120), bool)
    for gains in [(1.0, 1.0, 1.0), (0.85, 0.95, 1.05), (1.15, 1.0, 0.75)]:  # white, warm, cool
        black = ink_chroma(_feats(_tinted(_ace((20, 20, 20)), gains)), seen)
        red = ink_chroma(_feats(_tinted(_ace(RED), gains)), seen)
        assert ink_kind(black) == -1.0, (gains, black)
        hue = ink_kind(red)
        assert hue is not None and hue >= 0 and abs((hue + 180) % 360 - 180) < 30, (gains, red)


def test_black_ink_under_strong_light_is_never_taken_for_red():
    # very warm light leaves black ink bluish against the card's white: no longer black,
    # but never alike a red print either (no verdict rather than a wrong one)
    seen = np.ones((160, 120), bool)
    red = _feats(_ace(RED))
    for b in (0.7, 0.85, 1.0, 1.15, 1.3):  # blue and red 30% either side of green
        for r in (0.7, 0.85, 1.0, 1.15, 1.3):
            black = _feats(_tinted(_ace((20, 20, 20)), (b, 1.0, r)))
            assert not ink_alike(black, red, seen), (b, r)


def test_inks_clash_by_kind_and_hue_but_not_when_alike_or_unseen():
    seen = np.ones((160, 120), bool)
    black, red, blue = (_feats(_ace(c)) for c in [(20, 20, 20), RED, (200, 60, 30)])
    dark_red = _feats(_ace((20, 20, 120)))
    assert ink_clash(black, red, seen) and ink_clash(red, black, seen)
    assert ink_clash(red, blue, seen)  # two colours, far apart in hue
    assert not ink_clash(red, dark_red, seen) and not ink_clash(black, black, seen)
    assert ink_alike(red, dark_red, seen) and ink_alike(black, black, seen)
    assert not ink_alike(red, blue, seen) and not ink_alike(black, red, seen)
    blank = _feats(np.full((352, 252, 3), 245, np.uint8))
    assert ink_chroma(blank, seen) is None and not ink_clash(blank, red, seen)
    # too little ink seen (a sliver of the card): no judgement
    sliver = np.zeros((160, 120), bool)
    sliver[80:92, 55:62] = True
    assert not ink_clash(black, red, sliver)


def test_ink_chroma_refuses_mismatched_shapes():
    with pytest.raises(ValueError, match="seen"):
        ink_chroma(np.zeros((160, 120, 3), np.float32), np.ones((10, 10), bool))


def test_a_duel_of_two_inks_goes_to_the_card_s_own_ink():
    seen = np.ones((160, 120), bool)
    grey, red, green = (_feats(_ace(c)) for c in [GREY, RED, (40, 160, 40)])
    masks = {"g": seen, "r": seen}
    assert ink_duel({"g": (grey, grey), "r": (grey, red)}, masks, "g", "r", 0.04) == (0.04, 1.0)
    assert ink_duel({"g": (red, grey), "r": (red, red)}, masks, "g", "r", 0.04) == (-0.04, 0.0)
    # a card of neither ink (green) and two faces of one ink: no verdict
    assert ink_duel({"g": (green, grey), "r": (green, red)}, masks, "g", "r", 0.04) is None
    assert ink_duel({"g": (grey, grey), "r": (grey, grey)}, masks, "g", "r", 0.04) is None


def _strip(corners: np.ndarray, share: float) -> np.ndarray:
    """uint8 mask of a 960x720 frame: 255 on the card's left ``share`` only (a card on top
    hides the rest of it, as in a fan), 0 elsewhere."""
    tl, tr, br, bl = corners
    strip = np.array([tl, tl + share * (tr - tl), bl + share * (br - bl), bl], np.float32)
    usable = np.zeros((720, 960), np.uint8)
    cv2.fillPoly(usable, [np.round(strip).astype(np.int32)], 255)
    return usable


@pytest.mark.parametrize("ink,gains", [(GREY, (1, 1, 1)), (RED, (1, 1, 1)),
                                       (GREY, (0.85, 0.95, 1.05)), (RED, (1.15, 1.0, 0.8))])
@pytest.mark.parametrize("share", [1.0, 0.3, 0.22])
def test_two_faces_alike_but_for_their_ink_are_told_apart(ink, gains, share):
    # only a strip of the card is seen (its corner index, a sliver of the pip): the
    # lightness of the two faces is the same there, the colour of their ink is not
    deck = _deck()
    corners = cs.card_corners((480, 360), 420, 8)
    frame = _tinted(cs.place(cs.table(seed=4), _ace(ink), corners), gains)
    usable = _strip(corners, share)
    sighting, evidence = fine_stage(
        frame, coarse_all(frame, [corners], deck, usable=usable)[0], deck, MatchParams(),
        usable=usable)
    want, other = ("ace-red", "ace-black") if ink == RED else ("ace-black", "ace-red")
    assert sighting.card_id == want and sighting.runner_up == other
    assert evidence.margin >= MatchParams.min_margin
