"""The stages of :func:`vision.cards.read_cards`, one outline at a time or in batches.

An outline hypothesis is rectified small and ranked coarsely against every face
(:func:`coarse_all`, batched in ``cards_batch``), the promising ones are snapped onto the
image's edges (:func:`snap_stages`), named at the fine resolution with the look-alike duel
(:func:`fine_stage`, ``cards_name``), and one sighting is kept per card (:func:`suppress`).
A ``usable`` mask (uint8, frame-sized, 0 where a card already named lies over the outline)
restricts every comparison to what is seen of a card beneath.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

import cv2
import numpy as np

from vision import frames
from vision.cards_batch import coarse_many, light_many
from vision.cards_find import FindParams
from vision.cards_keys import KeyParams
from vision.cards_match import MatchParams
from vision.cards_name import name_card
from vision.cards_snap import edge_gradient, snap_quads
from vision.cards_view import is_clear_way
from vision.cvcompat import warp_perspective
from vision.deck import Deck
from vision.results import CardSighting

if TYPE_CHECKING:
    from vision.cards_fast import FastParams

SAME_OUTLINE = 0.8  # two outlines overlapping more than this (IoU) are one card's
UNSURE_TRIES = 2  # outlines of one place named before an unsure card is left unsure
HALVE_ABOVE = 1000  # frames with a longer side (pixels) are halved for the coarse ranking


def _fast_default() -> FastParams:
    """The fast path's default tunables (``cards_fast`` imports this module)."""
    from vision.cards_fast import FastParams
    return FastParams()


@dataclass(frozen=True)
class Evidence:
    """What the naming step found beyond the sighting: the look-alike duel's margin
    (difference of correlations) and support (the winner's own correlation)."""

    margin: float = 1.0
    support: float = 1.0


@dataclass(frozen=True)
class CardParams:
    """Tunables of :func:`read_cards`: outline search, naming, and overlap handling.

    Attributes
    ----------
    find, match : FindParams, MatchParams
    same_card_iou : float
        Two hypotheses overlapping more than this (intersection over union) are one card.
    snap_best : int
        Outlines (the closest first) snapped onto the image's edges before naming; the
        rest are dropped.
    hidden_cover : (float, float)
        An outline whose area lies this much (least, most) under cards already named is
        looked at again on its visible part only; (0, 0) turns the second looks off
        (also the one at cards partly under something else, ``cards_look``).
    hidden_rounds : int
        Most such looks, each under the cards named by the one before.
    hidden_seen : float
        Least fraction of such a card that must be seen (the rest is under named cards
        or beyond the frame edge): a thinner sliver is too easily mistaken.
    top_margin : float
        A named card's outline is grown by this factor about its centre before it hides
        what lies under it (its edge and its shadow are not the card beneath).
    fast : FastParams or None
        The fast path (``cards_fast``): a bare table of clean cards is read without the
        keypoint search and the second looks; None reads every frame in full.
    """

    find: FindParams = field(default_factory=FindParams)
    match: MatchParams = field(default_factory=MatchParams)
    keys: KeyParams | None = field(default_factory=KeyParams)
    same_card_iou: float = 0.55
    snap_best: int = 16
    hidden_cover: tuple[float, float] = (0.15, 0.88)
    hidden_rounds: int = 3
    top_margin: float = 1.03
    hidden_seen: float = 0.3
    fast: FastParams | None = field(default_factory=_fast_default)


def check_frame(frame: np.ndarray) -> None:
    """Refuse anything but an (H, W, 3) uint8 frame of at least 16x16 pixels."""
    frames.check_frame(frame, min_side=16)


def rectify(frame: np.ndarray, quad: np.ndarray, size: tuple[int, int], *,
            usable: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Warp the card under ``quad`` to an upright (height, width) image.

    Parameters
    ----------
    quad : ndarray of shape (4, 2), float32
        Corners (x, y) in frame pixels, in the order top-left, top-right, bottom-right,
        bottom-left of the card as it should appear.
    usable : ndarray of shape (H, W), uint8, optional
        0 where the frame shows something known to lie over the card (another card
        already named), 255 elsewhere.

    Returns
    -------
    card : ndarray of shape (height, width, 3), uint8, BGR
    valid : ndarray of shape (height, width), bool
        False where the card lies outside the frame (cut by the frame edge) or under
        what ``usable`` marks.
    """
    h, w = size
    dst = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    m = cv2.getPerspectiveTransform(quad.astype(np.float32), dst)
    card = warp_perspective(frame, m, (w, h), flags=cv2.INTER_LINEAR,
                            borderMode=cv2.BORDER_REPLICATE)
    fh, fw = frame.shape[:2]
    inside = quad.min() >= 0 and quad[:, 0].max() <= fw - 1 and quad[:, 1].max() <= fh - 1
    if inside and usable is None:
        return card, np.ones((h, w), bool)
    ones = _everywhere(frame.shape[:2]) if usable is None else usable
    valid = cv2.warpPerspective(ones, m, (w, h), flags=cv2.INTER_NEAREST,
                                borderMode=cv2.BORDER_CONSTANT, borderValue=0) > 0
    return card, valid


_EVERYWHERE: dict[tuple[int, ...], np.ndarray] = {}


def _everywhere(shape: tuple[int, ...]) -> np.ndarray:
    """A read-only uint8 mask of ``shape``, 255 everywhere, made once per frame size."""
    hit = _EVERYWHERE.get(shape)
    if hit is None:
        if len(_EVERYWHERE) > 4:
            _EVERYWHERE.clear()
        hit = _EVERYWHERE[shape] = np.full(shape, 255, np.uint8)
        hit.flags.writeable = False
    return hit


_NEXT = np.array([1, 2, 3, 0])  # each corner's next one, round the outline


def assignments(quad: np.ndarray, frame_shape: tuple[int, ...] | None = None
                ) -> list[np.ndarray]:
    """Corner orders to try: the card's long side vertical, or both when unclear.

    With ``frame_shape`` (the frame's (H, W, ...)), the side lengths decide only when the
    outline's perspective agrees (``cards_view``: a card far off at a slant is
    foreshortened, its long side may look the shorter).
    """
    q = quad.astype(np.float32)
    x, y = q[:, 0], q[:, 1]
    # ``_NEXT`` indexes as ``np.roll(-1)`` does (the same numbers, a tenth of the call)
    if np.dot(x, y[_NEXT]) - np.dot(y, x[_NEXT]) < 0:
        q = q[::-1].copy()  # clockwise on screen (y points down)
    second = q[_NEXT]
    sides = np.hypot(*(second - q).T)
    across, down = sides[0] + sides[2], sides[1] + sides[3]
    first = q
    if max(across, down) / max(min(across, down), 1e-6) < 1.15 or (
            frame_shape is not None and not is_clear_way(first, frame_shape, down > across, 1.15)):
        return [first, second]
    return [first] if down > across else [second]


def coarse_all(frame: np.ndarray, quads: list[np.ndarray], deck: Deck, *,
               usable: np.ndarray | None = None, halved: np.ndarray | None = None
               ) -> list[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """Rectify each quad small (both ways round if unclear) and rank every face coarsely.

    Returns, per quad, the coarse distances, the corner order used and the small card.
    ``halved`` is the frame already halved (:func:`halve`), when at hand.
    """
    bank = deck.bank
    h, w = bank.size
    if not quads:
        return []
    # rectified at twice the coarse size and then halved, against aliasing; a large
    # frame is halved first instead (the same smoothing, a quarter of the warping)
    half = max(frame.shape[:2]) >= HALVE_ABOVE
    src, src_usable, k_up = frame, usable, 2
    if half:
        src = halve(frame) if halved is None else halved
        src_usable = None if usable is None else usable[::2, ::2]
        k_up = 1
    owner, orders, cards, valids = [], [], [], []
    for k, quad in enumerate(quads):
        for order in assignments(quad, frame.shape):
            card, valid = rectify(src, order * (0.5 if half else 1.0), (k_up * h, k_up * w),
                                  usable=src_usable)
            owner.append(k)
            orders.append(order)
            cards.append(card if half else cv2.resize(card, (w, h), interpolation=cv2.INTER_AREA))
            valids.append(valid[::k_up, ::k_up])
    dist = coarse_many(bank, np.stack(cards), np.stack(valids), keep=MatchParams.keep_cells)
    best: dict[int, int] = {}
    for j, k in enumerate(owner):
        if k not in best or dist[j].min() < dist[best[k]].min():
            best[k] = j
    return [(dist[j], orders[j], cards[j]) for _, j in sorted(best.items())]


def halve(frame: np.ndarray) -> np.ndarray | None:
    """The frame at half size, as :func:`coarse_all` ranks a large one; None if small."""
    if max(frame.shape[:2]) < HALVE_ABOVE:
        return None
    return cv2.resize(frame, None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA)


def fine_stage(frame: np.ndarray, coarse: tuple[np.ndarray, np.ndarray, np.ndarray],
               deck: Deck, params: MatchParams, *, usable: np.ndarray | None = None
               ) -> tuple[CardSighting, Evidence] | None:
    """Rectify at the fine size and name the card (``cards_name``)."""
    dist, order, small = coarse
    card, valid = rectify(frame, order, deck.bank.fine.shape[1:3], usable=usable)
    light = light_many(small[None])[0]
    match = name_card(dist, light, card, valid, deck.bank, params,
                      sharp=lambda size: rectify(frame, order, size, usable=usable))
    if match is None:
        return None
    corners = order if not match.flip else np.roll(order, 2, axis=0)
    sighting = CardSighting(card_id=match.card_id, best_guess=match.best_id,
                            confidence=round(match.confidence, 3), runner_up=match.runner_up,
                            distance=round(match.distance, 4),
                            corners=tuple((float(x), float(y)) for x, y in corners))
    return sighting, Evidence(margin=match.margin, support=match.support)


def name_stages(frame: np.ndarray, stages: list, deck: Deck, params: CardParams, *,
                usable: np.ndarray | None = None, fine: Callable | None = None
                ) -> list[tuple[CardSighting, Evidence]]:
    """Run the fine stage on the outlines, closest first, skipping repeats of one card.

    ``fine`` stands in for :func:`fine_stage` (same arguments; the reader of a camera's
    frames recalls what it named on an unchanged part of the table, ``cards_track``).
    """
    found: list[tuple[CardSighting, Evidence]] = []
    tried: list[np.ndarray] = []
    named: list[np.ndarray] = []
    # outlines left unsure, and the face their duels leaned to (None: to no face clearly)
    doubted: list[tuple[np.ndarray, str | None]] = []
    for c in sorted(stages, key=lambda c: float(c[0].min())):
        # an outline much like one already tried, or named, is the same card; one left
        # unsure gets a second try from a slightly different outline (a better fit may
        # settle the look-alike duel)
        if any(iou_quads(c[1], t) > 0.8 for t in tried) or any(
                iou_quads(c[1], t) > 0.5 for t in named) or sum(
                iou_quads(c[1], t) > 0.8 for t, _ in doubted) >= UNSURE_TRIES:
            continue
        result = (fine or fine_stage)(frame, c, deck, params.match, usable=usable)
        if result is not None and result[0].card_id is not None and (any(
                iou_quads(c[1], t) > 0.8 and g not in (None, result[0].card_id)
                for t, g in doubted) or is_contradicted(result[0], found,
                                                        params.same_card_iou)):
            # the same place was a close call leaning to another face: the two outlines
            # disagree on the look-alike, so it stays unsure
            result = (doubt(result[0]), result[1])
        if result is not None and result[0].card_id is None:
            doubted.append((c[1], result[0].best_guess if result[1].margin > 0 else None))
        else:
            tried.append(c[1])
        if result is not None:
            found.append(result)
            if result[0].card_id is not None:
                named.append(c[1])
    return found


def is_contradicted(sighting: CardSighting, seen: list[tuple[CardSighting, Evidence]],
                    same_iou: float) -> bool:
    """Whether a named ``sighting`` has a better fit among ``seen``: an outline of the same
    card (overlapping more than ``same_iou``), closer to its own face, left unsure with its
    duel leaning to another face. The two outlines disagree on a look-alike."""
    return sighting.card_id is not None and any(
        s.card_id is None and ev.margin > 0 and s.best_guess != sighting.card_id
        and s.distance < sighting.distance and iou(s.corners, sighting.corners) > same_iou
        for s, ev in seen)


def doubt(sighting: CardSighting) -> CardSighting:
    """``sighting`` made unsure (its best guess kept)."""
    return replace(sighting, card_id=None, confidence=min(sighting.confidence, 0.49))


def snap_stages(frame: np.ndarray, stages: list, deck: Deck, params: CardParams, *,
                halved: np.ndarray | None,
                edges: tuple[np.ndarray, np.ndarray, float] | None) -> list:
    """Tighten each promising outline onto the card's edges; keep whichever ranks better.

    ``halved`` is the frame already halved (:func:`halve`) and ``edges`` its
    :func:`edges_at` (None only when ``stages`` is empty).
    """
    if not stages:
        return stages
    gx, gy, scale = edges
    stages = sorted(stages, key=lambda c: float(c[0].min()))[:params.snap_best]
    out = [q / scale for q in snap_quads([c[1] * scale for c in stages], gx, gy)]
    snapped = coarse_all(frame, out, deck, halved=halved)
    return [s if s[0].min() < c[0].min() else c for s, c in zip(snapped, stages)]


def edges_at(frame: np.ndarray, work_side: int, halved: np.ndarray | None = None
             ) -> tuple[np.ndarray, np.ndarray, float]:
    """Gradients (gx, gy) of the frame at the work size (``halved`` when it is that size),
    and the work pixels per frame pixel."""
    h, w = frame.shape[:2]
    scale = min(1.0, work_side / max(h, w))
    size = (round(w * scale), round(h * scale))
    small = (halved if halved is not None and halved.shape[1::-1] == size
             else cv2.resize(frame, size, interpolation=cv2.INTER_AREA))
    gx, gy = edge_gradient(cv2.cvtColor(small, cv2.COLOR_BGR2GRAY))
    return gx, gy, scale


def iou(a: tuple[tuple[float, float], ...], b: tuple[tuple[float, float], ...]) -> float:
    """Intersection over union of two convex outlines given as (x, y) corner tuples."""
    return iou_quads(np.array(a, np.float32), np.array(b, np.float32))


def iou_quads(pa: np.ndarray, pb: np.ndarray) -> float:
    """Intersection over union of two convex outlines, arrays of shape (4, 2)."""
    pa, pb = pa.astype(np.float32), pb.astype(np.float32)
    inter, _ = cv2.intersectConvexConvex(pa, pb)
    union = cv2.contourArea(pa) + cv2.contourArea(pb) - inter
    return float(inter / union) if union > 0 else 0.0


def suppress(found: list[tuple[CardSighting, Evidence]], same_iou: float
             ) -> list[tuple[CardSighting, Evidence]]:
    """One sighting per card: the named and closest first; an id once per place."""
    order = sorted(found, key=lambda f: (f[0].card_id is None, -min(f[1].margin, 1.0),
                                          f[0].distance))
    kept: list[tuple[CardSighting, Evidence]] = []
    for s, ev in order:
        clash = False
        for k, _ in kept:
            overlap = iou(s.corners, k.corners)
            if overlap > same_iou or (overlap > 0.2 and (s.best_guess == k.best_guess
                                                 or s.card_id is None)):
                clash = True
                break
        if not clash:
            kept.append((s, ev))
    return kept
