"""Second looks at a frame, after the clear cards are named: cards beneath them.

A card named in the first pass is taken to lie on top. Outlines partly under it (a fanned
card shows only a strip with its corner index; the rest is completed from the strip) and
outlines its keypoints vouch for (``cards_keys``) are named again from their visible part
only: the named cards' area is masked out of every comparison. Last, a card partly under
something that is no card (a rug, a box) is named from its card-white part only.
"""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np

from vision.cards_find import card_white
from vision.cards_match import Bank, MatchParams, features
from vision.cards_snap import snap_quad
from vision.cards_stages import (SAME_OUTLINE, CardParams, Evidence, coarse_all, fine_stage,
                                 iou_quads, name_stages, rectify, suppress)
from vision.deck import Deck
from vision.results import CardSighting


def vouched(frame: np.ndarray, keyed: list[tuple[np.ndarray, str]],
            found: list[tuple[CardSighting, Evidence]], deck: Deck, params: CardParams, *,
            halved: np.ndarray | None,
            edges: tuple[np.ndarray, np.ndarray, float] | None
            ) -> list[tuple[CardSighting, Evidence]]:
    """Name the keypoint outlines left unnamed, with the looser gates their keypoints
    earn; kept only when named as the very face whose keypoints were found.

    ``halved`` and ``edges``: the frame halved (``cards_stages.halve``) and its edge
    gradients (``cards_stages.edges_at``; None only when ``keyed`` is empty).
    """
    if not keyed:
        return []
    loose = replace(params.match, max_distance=params.keys.max_distance,
                    max_fine_distance=params.keys.max_fine_distance)
    named = [np.array(s.corners, np.float32) for s, _ in found if s.card_id is not None]
    usable = _usable_mask(frame.shape[:2], named, params.top_margin)  # it may lie beneath
    out = []
    for quad, cid in keyed:
        if (any(iou_quads(quad, q) > SAME_OUTLINE for q in named)
                or _seen_fraction(quad, usable) < params.hidden_seen):
            continue
        stage = _snapped(frame, quad, deck, usable, edges, halved)
        result = fine_stage(frame, stage, deck, loose, usable=usable)
        if result is not None and result[0].card_id == cid:
            out.append(result)
            named.append(np.array(result[0].corners, np.float32))
    return out


def _snapped(frame: np.ndarray, quad: np.ndarray, deck: Deck, usable: np.ndarray,
             edges: tuple[np.ndarray, np.ndarray, float], halved: np.ndarray | None
             ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The coarse stage of a keypoint outline or of it snapped onto the image's edges
    (keypoints bunched on part of a card place its far corners roughly), the closer."""
    gx, gy, scale = edges
    both = coarse_all(frame, [quad, snap_quad(quad * scale, gx, gy) / scale], deck,
                      usable=usable, halved=halved)
    return min(both, key=lambda c: float(c[0].min()))


def hidden_pass(frame: np.ndarray, quads: list[np.ndarray],
                found: list[tuple[CardSighting, Evidence]], deck: Deck, params: CardParams, *,
                halved: np.ndarray | None = None) -> list[tuple[CardSighting, Evidence]]:
    """Name the cards partly under the cards named so far, from their visible part only.

    A card named in the first pass is taken to lie on top: its area says nothing about
    the cards beneath, so it is left out of their comparison (a fanned card shows only a
    strip with its corner index; the rest of its outline is completed from the strip).
    """
    tops = [np.array(s.corners, np.float32) for s, _ in found if s.card_id is not None]
    if not tops or params.hidden_cover[1] <= 0:
        return []
    lo, hi = params.hidden_cover
    under = [q for q in quads if lo <= _covered(q, tops) <= hi]
    if not under:
        return []
    usable = _usable_mask(frame.shape[:2], tops, params.top_margin)
    # a card beneath is the size of those on top (one deck) and shows its own corners
    size = float(np.median([cv2.contourArea(t) for t in tops]))
    under = [q for q in under if _corners_seen(q, usable) >= 2
             and 0.65 <= cv2.contourArea(q.astype(np.float32)) / size <= 1.5
             and _seen_fraction(q, usable) >= params.hidden_seen]
    stages = [c for c in coarse_all(frame, under, deck, usable=usable, halved=halved)
              if c[0].min() <= params.match.max_distance]
    named = name_stages(frame, stages, deck, params, usable=usable)
    return [f for f in suppress(named, params.same_card_iou) if f[0].card_id is not None]


OCCLUDED_COARSE = 0.8  # coarse distance of an outline, seen whole, worth a look at its white part
OCCLUDED_SHARE = 0.85  # most of what is seen of it that may be card-white for such a look
OCCLUDED_OWN = 0.5  # least correlation of the seen part's lightness with the named face's


def occluded_pass(frame: np.ndarray, stages: list, found: list[tuple[CardSighting, Evidence]],
                  deck: Deck, params: CardParams, *, halved: np.ndarray | None = None
                  ) -> list[tuple[CardSighting, Evidence]]:
    """Name the cards partly under something that is not card-white (a rug, a box, a dark
    book), from their card-white part only.

    ``stages`` are the outlines with their coarse ranking (``coarse_all``). An outline
    left unnamed that ranks near a face seen whole, and of which at least
    ``params.hidden_seen`` but less than ``OCCLUDED_SHARE`` of what is seen is card-white
    (a card's print counts as card, the white around it closes), is named again with
    everything else masked out of every comparison: the usual gates and duels apply, and
    the match must be trusted by itself (``MatchParams.sure_distance``). The mask comes
    from the frame, not from any face, so no face is favoured by it.
    """
    if params.hidden_cover[1] <= 0:  # second looks turned off
        return []
    named = [np.array(s.corners, np.float32) for s, _ in found if s.card_id is not None]
    usable = _usable_mask(frame.shape[:2], named, params.top_margin)
    near = [c[1] for c in stages if c[0].min() <= OCCLUDED_COARSE
            and not any(iou_quads(c[1], t) > 0.3 for t in named)]
    if not near:
        return []
    white = cv2.bitwise_and(card_white(frame, params.find.work_side, halved=halved), usable)
    # as a card beneath a named one, it shows two of its own corners
    under = [q for q in near if _corners_seen(q, white) >= 2 and params.hidden_seen
             <= _seen_fraction(q, white) <= OCCLUDED_SHARE * _seen_fraction(q, usable)]
    stages = [c for c in coarse_all(frame, under, deck, usable=white, halved=halved)
              if c[0].min() <= params.match.max_distance]
    # the part compared is chosen by its colour, not known from a card on top: only a
    # match trusted by itself counts (a whole card back inside a larger outline, compared
    # on its white part alone, came within the usual gate of one of 120 faces); of that
    # part, only what joins the card's own seen corners (:func:`_cornered`)
    named_now = name_stages(frame, stages, deck, params, usable=white, fine=_fine_cornered)
    # and the part seen must show the face's own print: a card back's repeated pattern,
    # compared on its white lines alone, came within the sure distance of a face it bears
    # no likeness to (no look-alike near, so no duel asked for the face's telling detail)
    return [f for f in suppress(named_now, params.same_card_iou) if f[0].card_id is not None
            and f[0].distance <= params.match.sure_distance
            and own_print(frame, f[0], deck.bank, _cornered(np.array(f[0].corners), white))
            >= OCCLUDED_OWN]


def own_print(frame: np.ndarray, sighting: CardSighting, bank: Bank,
              usable: np.ndarray) -> float:
    """Correlation (-1 to 1) of the lightness of the card seen under ``sighting`` with
    that of the face it is named (its best reference photo), over the part of the card
    ``usable`` ((H, W) uint8, 255 where the card is seen) shows; 0.0 when too little is
    seen or either side is flat."""
    h, w = bank.fine.shape[1:3]
    card, seen = rectify(frame, np.array(sighting.corners, np.float32), (h, w), usable=usable)
    if np.count_nonzero(seen) < 0.05 * seen.size:
        return 0.0
    query = features(card)[:, :, 0][seen]
    query = query - query.mean()
    best = 0.0
    for i in (i for i, cid in enumerate(bank.ids) if cid == sighting.card_id):
        ref = bank.fine[i][:, :, 0][seen]
        ref = ref - ref.mean()
        scale = float(np.sqrt((query ** 2).sum() * (ref ** 2).sum()))
        best = max(best, float((query * ref).sum()) / scale if scale > 1e-6 else 0.0)
    return best


def _usable_mask(shape: tuple[int, ...], tops: list[np.ndarray], margin: float) -> np.ndarray:
    """uint8 mask of the frame: 0 under the ``tops`` outlines grown by ``margin`` about
    their centres (a card's edge and shadow are not the card beneath), 255 elsewhere."""
    usable = np.full(shape[:2], 255, np.uint8)
    for q in tops:
        centre = q.mean(axis=0)
        grown = centre + (q - centre) * margin
        cv2.fillConvexPoly(usable, np.round(grown).astype(np.int32), 0)
    return usable


def _fine_cornered(frame: np.ndarray, coarse: tuple, deck: Deck, params: MatchParams, *,
                   usable: np.ndarray) -> tuple[CardSighting, Evidence] | None:
    """``fine_stage`` with ``usable`` (card-white) cut to what joins the card's corners."""
    return fine_stage(frame, coarse, deck, params, usable=_cornered(coarse[1], usable))


def _cornered(quad: np.ndarray, white: np.ndarray) -> np.ndarray:
    """``white`` ((H, W) uint8, 255 for card-white) inside ``quad``, kept only in the
    pieces that hold one of the card's corners.

    A card partly under a box shows its paper joined to its own seen corners; a white
    thing beyond the box (a cloth, a bag, a book's pages) inside the outline is no part of
    the card that can be told by its colour, and compared as card it drags every face's
    fit down (a nine's strip beside a box with a crumpled white bag past it).
    """
    inner = np.zeros_like(white)
    cv2.fillConvexPoly(inner, np.round(quad).astype(np.int32), 255)
    _, labels = cv2.connectedComponents(cv2.bitwise_and(white, inner), connectivity=8)
    h, w = white.shape
    keep = {labels[y, x] for x, y in _corner_points(quad) if 0 <= x < w and 0 <= y < h} - {0}
    return np.where(np.isin(labels, list(keep)), 255, 0).astype(np.uint8)


def _corners_seen(quad: np.ndarray, usable: np.ndarray) -> int:
    """How many corners of ``quad`` are in the frame and not under a named card (a card
    beneath shows its own corners; an outline found along a named card's edge does not)."""
    pts = _corner_points(quad)
    h, w = usable.shape
    inside = (pts[:, 0] >= 0) & (pts[:, 1] >= 0) & (pts[:, 0] < w) & (pts[:, 1] < h)
    return int(sum(usable[y, x] > 0 for x, y in pts[inside]))


def _corner_points(quad: np.ndarray) -> np.ndarray:
    """A point just inside each corner of ``quad`` ((4, 2) int, x then y)."""
    centre = quad.mean(axis=0)
    return np.round(centre + (quad - centre) * 0.92).astype(int)


def _seen_fraction(quad: np.ndarray, usable: np.ndarray) -> float:
    """Fraction of the card under ``quad`` that is in the frame and not under a named card."""
    dst = np.array([[0, 0], [16, 0], [16, 24], [0, 24]], np.float32)
    m = cv2.getPerspectiveTransform(quad.astype(np.float32), dst)
    seen = cv2.warpPerspective(usable, m, (16, 24), flags=cv2.INTER_NEAREST,
                               borderMode=cv2.BORDER_CONSTANT, borderValue=0)
    return float(np.count_nonzero(seen)) / seen.size


def _covered(quad: np.ndarray, tops: list[np.ndarray]) -> float:
    """Fraction of ``quad``'s area under the ``tops`` outlines (overlaps counted twice)."""
    area = cv2.contourArea(quad.astype(np.float32))
    if area <= 0:
        return 0.0
    return sum(cv2.intersectConvexConvex(quad.astype(np.float32), t)[0] for t in tops) / area
