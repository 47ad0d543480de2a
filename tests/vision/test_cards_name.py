"""Naming one rectified card (``vision.cards_name``): which faces duel it."""

from __future__ import annotations

from tests.vision import cards_support as cs
from vision.cards_match import MatchParams
from vision.cards_name import _kin


def test_each_face_knows_its_look_alikes_in_the_deck():
    deck = cs.deck()
    kin = _kin(deck.bank, MatchParams.max_distance)
    near = {cid: {deck.ids[j] for j in kin[i]} for i, cid in enumerate(deck.ids)}
    for a, b in [("act-fire", "act-five"), ("act-bank", "act-bark"), ("act-draw", "act-drop"),
                 ("act-skip", "act-swap")]:
        assert b in near[a] and a in near[b], (a, near[a], b, near[b])
    assert near["hero-fox"] == set()  # nothing in the deck looks like it
    assert all(len(k) <= 2 and cid not in k for cid, k in near.items())
