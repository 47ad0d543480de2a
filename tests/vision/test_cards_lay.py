"""A look-alike whose own fit failed is laid as the closest face lies (``vision.cards_lay``)."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from vision.cards_lay import lay_as_closest
from vision.cards_match import (FINE_BLUR, FINE_SCALE, MatchParams, features, fine_distance,
                                warp_to_ref)
from vision.deck import build_deck

DECK = Path(__file__).resolve().parents[1] / "data" / "cards-kennard" / "deck"
KEEP = MatchParams().keep_cells


def _fits(bank, card: np.ndarray, warps: dict[str, np.ndarray]):
    """What ``cards_name._fine_fits`` gives, with each face's alignment given."""
    query = features(card, FINE_BLUR)
    valid = np.ones(card.shape[:2], np.float32)
    aligned, masks, dist = {}, {}, {}
    for cid, warp in warps.items():
        ref = bank.fine[bank.ids.index(cid)]
        aligned[cid] = (warp_to_ref(query, warp, FINE_SCALE), ref)
        masks[cid] = warp_to_ref(valid, warp, FINE_SCALE, border=cv2.BORDER_REPLICATE) > 0.5
        dist[cid] = fine_distance(aligned[cid][0], masks[cid], ref, keep=KEEP)
    return aligned, masks, dist, dict(warps)


def _shifted_ace() -> tuple[object, np.ndarray, np.ndarray]:
    """The bank of three aces, the ace of diamonds seen through an outline 6% off across
    (at the fine size), and the warp that lays a face back over it (coarse units)."""
    ids = ("AC", "AD", "AH")
    bank = build_deck([(cid, cv2.imread(str(DECK / f"{cid}.png"))) for cid in ids]).bank
    h, w = bank.fine.shape[1:3]
    face = cv2.resize(cv2.imread(str(DECK / "AD.png")), (w, h), interpolation=cv2.INTER_AREA)
    dx = round(0.06 * w)
    card = cv2.warpAffine(face, np.float32([[1, 0, dx], [0, 1, 0]]), (w, h),
                          borderMode=cv2.BORDER_REPLICATE)
    back = np.float32([[1, 0, -dx / FINE_SCALE], [0, 1, 0]])
    return bank, card, back


def test_a_face_whose_own_fit_failed_is_laid_as_the_closest_lies():
    bank, card, back = _shifted_ace()
    eye = np.eye(2, 3, dtype=np.float32)
    # the closest face (first) aligned; the card's own face's fit failed (no correction)
    fits = _fits(bank, card, {"AH": back, "AD": eye, "AC": eye})
    aligned, masks, dist, warps = lay_as_closest({"AH": 2, "AD": 1, "AC": 0}, KEEP, *fits)
    assert fits[2]["AD"] > fits[2]["AH"]  # misaligned, the card's own face looked farther
    assert dist["AD"] < fits[2]["AD"] and dist["AD"] < dist["AH"]
    assert np.array_equal(warps["AD"], back) and aligned["AD"][0] is aligned["AH"][0]
    assert dist["AH"] == fits[2]["AH"]  # the closest face keeps its own fit
    assert dist["AC"] > dist["AD"]  # another face does not show on the card either way


def test_a_face_whose_own_fit_succeeded_keeps_it():
    # only a failed fit (the identity) is replaced: a fit of its own, even a worse one,
    # is the face's measurement (laying every face as the closest lies brought taught
    # look-alikes into duels they lost unsure)
    bank, card, back = _shifted_ace()
    near = back + np.float32([[0, 0, 1.0], [0, 0, 0]])  # a fit one coarse pixel off
    fits = _fits(bank, card, {"AH": back, "AD": near})
    aligned, masks, dist, warps = lay_as_closest({"AH": 2, "AD": 1}, KEEP, *fits)
    assert dist == fits[2] and np.array_equal(warps["AD"], near)


def test_a_face_keeps_its_own_fit_when_that_fits_better():
    bank, card, back = _shifted_ace()
    eye = np.eye(2, 3, dtype=np.float32)
    fits = _fits(bank, card, {"AH": eye, "AD": back})
    aligned, masks, dist, warps = lay_as_closest({"AH": 2, "AD": 1}, KEEP, *fits)
    assert dist == fits[2] and np.array_equal(warps["AD"], back)


def test_nothing_to_lay_when_only_the_closest_was_measured():
    bank, card, back = _shifted_ace()
    fits = _fits(bank, card, {"AH": back})
    assert lay_as_closest({"AH": 2, "AD": 1}, KEEP, *fits)[2] == fits[2]
