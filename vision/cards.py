"""Name the known card faces lying on the table in one frame.

>>> reading = read_cards(frame, deck)          # deck from vision.deck.load_deck
>>> reading.ids                                 # ('good-throw', 'perfect')

Pipeline (``cards_stages``): outline hypotheses from the card's edges (``cards_find``:
card-white blobs, closed edges, corners of partly hidden cards, L-shaped edge segments) and
from each face's own keypoints (``cards_keys``: SIFT matches agreeing on one homography,
for cards whose edges melt into the table) -> each rectified small and ranked against
every face (``cards_batch``) -> the promising ones snapped onto the image's edges
(``cards_snap``) -> named at the fine resolution with the look-alike duel (``cards_name``)
-> one sighting per card -> second looks (``cards_look``) at the cards lying partly under
those named, or under something that is no card, on their visible part only. A face not in the deck, a card back or a table
pattern matches no reference closely and is dropped; a card that matches a face but cannot
be told from its look-alike is returned as unsure (``card_id`` None).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from vision.cards_aspect import measured_aspect
from vision.cards_beyond import beyond_frame, leaves_frame
from vision.cards_fast import busy_keypoint_quads, fast_first
from vision.cards_glance import keypoint_quads
from vision.cards_look import hidden_pass, occluded_pass, vouched
from vision.cards_margin import drop_patterned
from vision.cards_match import MatchParams
from vision.cards_nest import doubt_nested
from vision.cards_part import WorkView, view_quads, work_view
from vision.cards_size import sized_pass
from vision.cards_stages import (CardParams, Evidence, check_frame, coarse_all, doubt,
                                 edges_at, fine_stage, halve, iou, is_contradicted,
                                 name_stages, rectify, snap_stages, suppress)
from vision.deck import Deck
from vision.results import CardReading, CardSighting

__all__ = ["CardParams", "Evidence", "name_quad", "read_cards", "read_keyed", "rectify"]


def read_cards(frame: np.ndarray, deck: Deck, *, params: CardParams = CardParams()) -> CardReading:
    """Find and name the deck's card faces in a frame.

    Parameters
    ----------
    frame : ndarray of shape (H, W, 3), uint8, BGR
    deck : Deck

    Returns
    -------
    CardReading
        ``cards``: the named cards (an id may appear twice for a deck with duplicates);
        ``unsure``: card faces of the deck that could not be told from a look-alike.

    :raises ValueError: ``frame`` is not an (H, W, 3) uint8 array.
    """
    check_frame(frame)
    if not deck.ids:
        return CardReading(cards=(), unsure=())
    reuse: dict = {}
    if params.fast is not None:  # a bare table of clean cards is read without the rest
        reading, reuse = fast_first(frame, deck, params)
        if reading is not None:
            return reading
    busy = reuse.pop("busy", None)  # the fast path's tiles left to search (cards_fast)
    keyed = ([] if params.keys is None
             else keypoint_quads(frame, deck.faces, deck.bank, params=params.keys) if busy is None
             else busy_keypoint_quads(frame, deck, busy, params=params.keys))
    return read_keyed(frame, deck, keyed, params=params, **reuse)


def read_keyed(frame: np.ndarray, deck: Deck, keyed: list[tuple[np.ndarray, str]], *,
               params: CardParams = CardParams(), fine: Callable | None = None,
               quads: list[np.ndarray] | None = None, coarse: Callable | None = None,
               view: WorkView | None = None) -> CardReading:
    """:func:`read_cards` with the keypoint outlines already found (``cards_keys``; the
    reader of a camera's frames in turn, ``cards_track``, finds them on what changed, and
    names the outlines through ``fine``, :func:`cards_stages.fine_stage` or a stand-in
    that recalls the cards it named on an unchanged part of the table); ``quads`` are the
    edge outlines (``cards_find``) when already found, and ``coarse`` stands in for
    :func:`cards_stages.coarse_all` in their first ranking (recalling kept ones'); ``view``
    is the outline search's view of the frame when already made (``cards_part``)."""
    gate = params.match.max_distance
    # the outline search's view of the frame (whatever the aspect), made once
    if quads is None:
        view = work_view(frame, params.find)
        quads = view_quads(view, deck.aspect, params=params.find)
    quads = quads + beyond_frame(quads, frame.shape, deck.aspect)  # cards cut by the frame's edge
    halved = halve(frame)  # the coarse ranking's view of a large frame, made once
    first = (coarse or coarse_all)(frame, quads + [q for q, _ in keyed], deck, halved=halved)
    promising = [c for c in first if c[0].min() <= gate]
    # the edge gradients outlines are snapped onto, made once when there is one to snap
    edges = edges_at(frame, params.find.work_side, halved) if promising or keyed else None
    stages = snap_stages(frame, promising, deck, params, halved=halved, edges=edges)
    first_pass = name_stages(frame, stages, deck, params, fine=fine)
    # the cards named surely and whole may show the card's own aspect, not the deck's
    # (references cut from the card): the outlines are searched again at it
    sure = [s.corners for s, _ in first_pass if s.card_id is not None
            and s.distance <= params.match.sure_distance
            and not leaves_frame(s.corners, frame.shape)]
    aspect = measured_aspect(sure, deck.aspect)
    if aspect is not None:
        view = view or work_view(frame, params.find)
        again = [q for q in view_quads(view, aspect, params=params.find)
                 if not any(iou(q, s.corners) > params.same_card_iou
                            for s, _ in first_pass if s.card_id is not None)]
        extra = [c for c in coarse_all(frame, again, deck, halved=halved) if c[0].min() <= gate]
        first += extra
        first_pass += name_stages(frame, snap_stages(frame, extra, deck, params, halved=halved,
                                                     edges=edges), deck, params, fine=fine)
    found = suppress(first_pass, params.same_card_iou)
    # corners cut short, completed again at the size of the cards just named
    near = [float(c[0].min()) for c in first[:len(quads)]]
    found = suppress(found + sized_pass(frame, quads, near, found, deck, params,
                                        halved=halved, edges=edges), params.same_card_iou)
    hidden: list[tuple[CardSighting, Evidence]] = []
    for _ in range(params.hidden_rounds):  # a fan: each card lies under the next one
        more = vouched(frame, keyed, found + hidden, deck, params, halved=halved, edges=edges)
        more += hidden_pass(frame, [c[1] for c in first], found + hidden + more, deck, params,
                            halved=halved)
        hidden += more
        if not more:
            break
    hidden += occluded_pass(frame, first, found + hidden, deck, params, halved=halved)
    # a second look that names the other look-alike of a closer, unsure first look
    hidden = suppress([(doubt(s), ev) if is_contradicted(s, first_pass, params.same_card_iou)
                       else (s, ev) for s, ev in hidden], params.same_card_iou)
    kept = [s for s, _ in hidden] + [s for s, _ in found if s.card_id is not None or not any(
        iou(s.corners, h.corners) > params.same_card_iou for h, _ in hidden)]
    # a card the frame's edge cuts is seen in part, the part chosen by the edge: only a
    # match trusted by itself names it (a cloth's square completed beyond the edge came
    # within the gate of a face)
    kept = [doubt(s) if s.card_id is not None and s.distance > params.match.sure_distance
            and leaves_frame(s.corners, frame.shape) else s for s in kept]
    kept = doubt_nested(kept, params.match.sure_distance)  # a card's print is no card
    kept = drop_patterned(frame, kept, deck)  # nor is a cloth's pattern running through its rim
    return CardReading(cards=tuple(s for s in kept if s.card_id is not None),
                       unsure=tuple(s for s in kept if s.card_id is None))


def name_quad(frame: np.ndarray, quad: np.ndarray, deck: Deck, *,
              params: MatchParams = MatchParams()) -> CardSighting | None:
    """Name the card under one outline hypothesis; None when it is no face of the deck."""
    stages = coarse_all(frame, [quad], deck)
    named = fine_stage(frame, stages[0], deck, params) if stages else None
    return named[0] if named else None
