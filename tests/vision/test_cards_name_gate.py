"""Naming one rectified card (``vision.cards_name``): a face the look-alike duel turns to
passes the fine gate itself, judged on the part of the card seen."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np

from tests.vision import cards_support as cs
from vision.cards_batch import features_many
from vision.cards_match import MatchParams
from vision.cards_name import _fine_fits, _seen_distance
from vision.cards_stages import coarse_all, fine_stage, rectify
from vision.deck import build_deck


def test_a_face_the_duel_turns_to_must_pass_the_gate_itself():
    # num-3 taught from a soft photo: a plain card of num-3 lies closer to other numbers
    # by the whole-card distance, and the duel on the numeral turns it to num-3, further off
    faces = dict(cs.faces())
    faces["num-3"] = cv2.GaussianBlur(faces["num-3"], (0, 0), 5)
    deck = build_deck(sorted(faces.items()))
    corners = cs.card_corners((480, 360), 420, 8)
    frame = cs.place(cs.table(seed=4), cs.faces()["num-3"], corners)
    stage = coarse_all(frame, [corners], deck)[0]
    loose, _ = fine_stage(frame, stage, deck, replace(MatchParams(), max_fine_distance=0.9))
    assert loose.card_id == "num-3"
    # a gate between the closest face's distance and num-3's: the closest passes it, the
    # face the duel turned to does not, and the card is left unsure
    gate = loose.distance - 0.02
    tight = fine_stage(frame, stage, deck, replace(MatchParams(), max_fine_distance=gate))
    assert tight is not None
    assert tight[0].card_id is None and tight[0].best_guess == "num-3"


def test_a_strip_is_laid_over_its_face_by_the_part_seen():
    # num-3 with a card of other art over most of it: aligned on the whole rectified card,
    # the card on top pulls its face astray; aligned on the part seen, it fits again
    bank = cs.deck().bank
    corners = cs.card_corners((480, 360), 420, 8)
    tl, tr = corners[0], corners[1]
    over = corners + 0.35 * (tl - tr)  # act-fire over the left 65% of it
    frame = cs.place(cs.place(cs.table(seed=4), cs.faces()["num-3"], corners),
                     cs.faces()["act-fire"], over)
    usable = np.full(frame.shape[:2], 255, np.uint8)
    cv2.fillConvexPoly(usable, np.round(over).astype(np.int32), 0)
    dist, order, small = coarse_all(frame, [corners], cs.deck(), usable=usable)[0]
    card, valid = rectify(frame, order, bank.fine.shape[1:3], usable=usable)
    light = features_many(small[None])[0, :, :, 0]
    n, i = len(bank.ids), bank.ids.index("num-3")
    i = i if dist[i] <= dist[i + n] else i + n
    _, _, plain, _ = _fine_fits({"num-3": i}, light, card, valid, bank, MatchParams())
    seen = _seen_distance(i, light, card, valid, bank, MatchParams())
    assert seen < 0.2 and plain["num-3"] > seen + 0.15
