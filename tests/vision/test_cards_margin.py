"""A named card's margin: an outline over a patterned cloth is no card's edge."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.cards_margin import MARGIN_SLACK, drop_patterned, margin_ink
from vision.deck import load_deck
from vision.results import CardSighting

H, W = 160, 110


def _face() -> np.ndarray:
    """A white card with large red pips well inside its margin and a corner index."""
    face = np.full((H, W, 3), 250, np.uint8)
    for cx, cy in ((30, 40), (80, 40), (55, 80), (30, 120), (80, 120)):
        cv2.circle(face, (cx, cy), 17, (30, 30, 220), -1)
    cv2.putText(face, "5", (9, 22), cv2.FONT_HERSHEY_SIMPLEX, 0.5, (30, 30, 220), 2)
    return face


def _checkers(shape: tuple[int, int], square: int) -> np.ndarray:
    """A red and white checkered cloth (its squares not lined up with the image's edge)."""
    yy, xx = np.mgrid[:shape[0], :shape[1]] + square // 3
    red = ((xx // square + yy // square) % 2).astype(bool)
    cloth = np.full((*shape, 3), 245, np.uint8)
    cloth[red] = (40, 40, 200)
    return cloth


def test_a_plain_margin_is_no_ink():
    assert margin_ink(_face(), np.ones((H, W), bool)) == pytest.approx(0.0, abs=0.02)


def test_a_pattern_running_through_the_margin_is_ink_on_every_side():
    assert margin_ink(_checkers((H, W), 22), np.ones((H, W), bool)) > 0.3


def test_a_card_under_a_hand_keeps_its_plainest_side():
    card = _face()
    card[:, : W // 2] = (60, 90, 140)  # a hand over its whole left half
    assert margin_ink(card, np.ones((H, W), bool)) < 0.05


def test_a_side_beyond_the_frame_does_not_count():
    card = _checkers((H, W), 22)
    card[:, W // 2:] = _face()[:, W // 2:]
    valid = np.ones((H, W), bool)
    valid[:, W // 2:] = False  # the plain half is beyond the frame's edge: not seen
    assert margin_ink(card, valid) > 0.3
    assert margin_ink(card, np.zeros((H, W), bool)) is None


def test_bad_input_is_refused_with_a_sentence():
    with pytest.raises(ValueError, match="card must be"):
        margin_ink(np.zeros((H, W), np.uint8), np.ones((H, W), bool))
    with pytest.raises(ValueError, match="valid must be"):
        margin_ink(_face(), np.ones((H, W + 1), bool))


def _sighting(card_id: str | None, x: float, y: float, w: float, h: float) -> CardSighting:
    corners = ((x, y), (x + w, y), (x + w, y + h), (x, y + h))
    return CardSighting(card_id=card_id, best_guess="5H", confidence=0.9 if card_id else 0.3,
                        runner_up=None, distance=0.3, corners=corners)


def test_a_name_on_a_checkered_cloth_is_dropped_and_a_card_on_it_kept(tmp_path):
    face = cv2.resize(_face(), (242, 352), interpolation=cv2.INTER_CUBIC)
    cv2.imwrite(str(tmp_path / "5H.png"), face)
    cv2.imwrite(str(tmp_path / "AS.png"), cv2.flip(face, 0)[:, :, ::-1].copy())
    deck = load_deck(tmp_path)
    frame = _checkers((480, 640), 24)
    frame[100:300, 380:518] = cv2.resize(face, (138, 200), interpolation=cv2.INTER_AREA)
    card = _sighting("5H", 380, 100, 138, 200)
    cloth = _sighting("5H", 60, 120, 138, 200)
    unsure = _sighting(None, 60, 250, 138, 200)
    assert drop_patterned(frame, [cloth, card, unsure], deck) == [card, unsure]


def test_a_deck_printed_to_its_edge_may_show_ink_in_its_margin(tmp_path):
    # the same cloth is the face itself: its margin is as inked as the card's
    cloth = _checkers((352, 242), 48)
    cv2.imwrite(str(tmp_path / "CL.png"), cloth)
    cv2.imwrite(str(tmp_path / "PL.png"), np.full((352, 242, 3), 250, np.uint8))
    deck = load_deck(tmp_path)
    frame = np.full((480, 640, 3), 90, np.uint8)
    frame[100:300, 380:518] = cv2.resize(cloth, (138, 200), interpolation=cv2.INTER_AREA)
    named = _sighting("CL", 380, 100, 138, 200)
    assert margin_ink(cv2.resize(cloth, (W, H)), np.ones((H, W), bool)) > MARGIN_SLACK
    assert drop_patterned(frame, [named], deck) == [named]


def _disc_face() -> np.ndarray:
    """A white card whose big dark disc runs off its right side (art printed to that edge)."""
    face = np.full((352, 242, 3), 250, np.uint8)
    cv2.circle(face, (225, 170), 55, (40, 70, 200), -1)
    cv2.circle(face, (90, 90), 40, (150, 40, 40), -1)
    return face


def test_a_side_is_compared_with_the_same_side_of_its_face(tmp_path):
    # the card's outline runs askew onto the cloth on three sides; the fourth follows the
    # card's edge and shows the disc its face shows there: the right name is kept
    face = _disc_face()
    cv2.imwrite(str(tmp_path / "DS.png"), face)
    cv2.imwrite(str(tmp_path / "PL.png"), np.full((352, 242, 3), 250, np.uint8))
    deck = load_deck(tmp_path)
    frame = _checkers((480, 640), 24)
    frame[100:300, 380:518] = cv2.resize(face, (138, 200), interpolation=cv2.INTER_AREA)
    askew = CardSighting(card_id="DS", best_guess="DS", confidence=1.0, runner_up=None,
                         distance=0.13, corners=((368, 88), (518, 100), (518, 300), (368, 312)))
    h, w = deck.faces.shape[1:3]
    plain = margin_ink(cv2.resize(face, (w, h)), np.ones((h, w), bool))
    assert plain == pytest.approx(0.0, abs=0.02)  # the face's plainest side is plain paper
    assert drop_patterned(frame, [askew], deck) == [askew]
    # the same name on the bare cloth is still no card: its right side is the cloth's
    cloth = _sighting("DS", 60, 120, 138, 200)
    assert drop_patterned(frame, [cloth], deck) == []
