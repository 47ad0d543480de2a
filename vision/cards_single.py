"""One card alone on the table: its outline, for teaching a deck from the camera.

:func:`whole_cards` keeps the outline hypotheses of :func:`vision.cards_find.find_card_quads`
that are whole cards (the colour changes across all four sides, as at a card's edge and
rarely along a made-up outline on a patterned table); :func:`card_outline` fits the
chosen one again on a crop around it and orders its corners as a portrait card's.

A hypothesis that passes is a card only when it runs along a card's own edges
(:func:`vision.cards_own.own_edges`): each side one straight edge that ends at the
corners. Made-up outlines on a textured table (sides partly over stone or grain) or
along a checked cloth's grid lines (which run on past the corners) pass the colour test
and fail this one; it is asked only of the outlines that would be counted or taken.

When no hypothesis passes, the few that nearly do are put on the card's rim
(:func:`vision.cards_rim.snap_to_rim`) and tested again: the edge test probes a few
pixels either side of the outline, so a hypothesis 2-5% off a card whose edge is faint
(a white card on a pale table) probes the card's white margin or the table on one side
and fails, though the card is plainly there.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from vision.cards_face import find_face_outline
from vision.cards_find import find_card_quads
from vision.cards_own import own_edges
from vision.cards_rim import snap_to_rim
from vision.cards_view import FOCAL_RANGE, true_aspect, true_aspects

#: Colour distance (0-441) across a card's edge that counts as an edge: low enough for a
#: pale card on a pale table, or a grey card on a dim grey cloth.
EDGE_CONTRAST = 15.0
EDGE_SHARE, EDGE_SIDE = 0.85, 0.6  # share of edge points that must show it: all, each side
EDGE_CLEAR = 0.95  # an outline this clear is preferred to a larger, less clear one
SHAPE_GAIN = 0.05  # an outer outline this much nearer the deck's aspect beats a printed frame
FRAME_SHARE = 2.5  # a printed frame covers more than 1 / FRAME_SHARE of its card
#: With no outline passing, this many of those with this share of edge points or more are
#: put on the rim and tested again (each snap costs some 20-50 ms).
RESCUE_TRIES, RESCUE_SHARE = 3, 0.7
#: With no card found, the outlines with this share of edge points or more (this many of
#: them, the clearest first) are put on the rim; one whose colour changes at ``FAINT_SHARE``
#: of its points and whose four sides are clean edges (:func:`is_clean`) is a card. Measured
#: on white Knoll court cards on pale tables: their true outlines 0.69 (0.79-0.82 on the
#: rim), the weakest side 0.38-0.54; every side straight 1.0, running on past a corner 0.0.
FAINT_NEAR, FAINT_SHARE, FAINT_TRIES = 0.6, 0.75, 8
CLEAN_STRAIGHT, CLEAN_BEYOND = 0.9, 0.1
#: A card's side is a straight edge on this share of the profiles across it, and its
#: line shows an edge past the corners on less than ``OWN_BEYOND`` of the profiles there.
OWN_STRAIGHT, OWN_BEYOND = 0.5, 0.5
OWN_SEEN = 2  # sides whose line can be followed past the corners in the picture, at least
#: A side with no straight edge near it is looked for again on the card's rim, for outlines
#: under this share of the picture (a card is seen with table round it; the rim search of an
#: outline as large as the picture costs some 0.7 s).
OWN_RETRY = 0.25


@dataclass(frozen=True)
class CardSearch:
    """What the search of a teaching capture found.

    Attributes
    ----------
    cards : tuple of ndarray of shape (4, 2), float32
        The whole cards' outlines (x, y), one per card.
    edged : bool
        Some outline showed a colour change all round (a card, or a made-up outline on
        a patterned table that is not one): with no card, the edge is what is unclear.
    doubtful : int
        Outlines apart from the cards (none inside another) with a colour change all
        round whose sides do not run on past their corners, but are not all straight
        edges: perhaps another card whose outline the search missed by a little.
    """

    cards: tuple[np.ndarray, ...]
    edged: bool
    doubtful: int = 0


def whole_cards(frame: np.ndarray, aspect: float) -> list[np.ndarray]:
    """The outlines of the whole cards in ``frame`` (BGR uint8), one (4, 2) array each.

    ``aspect`` is the deck's width / height (a printed art box inside a card loses to the
    outline around it that has this shape).
    """
    return list(search_cards(frame, aspect).cards)


def search_cards(frame: np.ndarray, aspect: float) -> CardSearch:
    """:func:`whole_cards`, and whether any outline showed an edge all round."""
    return _search(frame, find_card_quads(frame, aspect), EDGE_CONTRAST, aspect)


def card_outline(frame: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """``quad`` fitted again on a crop around the card, corners as top-left, top-right,
    bottom-right, bottom-left of a portrait card."""
    return _upright(_refined(frame, quad))


def on_rim(frame: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """``quad`` with its sides put on the card's outer edge (:func:`vision.cards_rim.snap_to_rim`),
    unless a side then follows a line that runs on past the corners (a checked cloth's
    grid line beside the card's edge): then ``quad`` as it was."""
    snapped = snap_to_rim(frame, quad)
    return snapped if max(own_edges(frame, snapped).beyond) < OWN_BEYOND else quad


def _whole_cards(frame: np.ndarray, quads: list[np.ndarray], contrast: float,
                 aspect: float) -> list[np.ndarray]:
    """The whole cards of :func:`_search`."""
    return list(_search(frame, quads, contrast, aspect).cards)


def _search(frame: np.ndarray, quads: list[np.ndarray], contrast: float,
            aspect: float) -> CardSearch:
    """The hypotheses with an edge all round, one per card. Of outlines nested in one
    another the clearest wins, and of equally clear ones the outermost, since a card's
    printed frames have edges all round too (a made-up outline on a patterned table
    around the card rarely shows an edge at every point). But a clear printed frame
    (an art box) loses to an outline around it that has the deck's shape."""
    scored = [(_edge_score(frame, quad, contrast), quad) for quad in quads]
    edged = any(_passes(score) for score, _ in scored)
    if not edged:  # the few that nearly pass, put on the card's rim and tested again
        near = sorted((p for p in scored if p[0][0] >= RESCUE_SHARE), key=lambda p: -p[0][0])
        snapped = [snap_to_rim(frame, quad) for _, quad in near[:RESCUE_TRIES]]
        scored = [(_edge_score(frame, quad, contrast), quad) for quad in snapped]
        edged = any(_passes(score) for score, _ in scored)
    cards = _cards(frame, scored, aspect)
    if not cards:  # a white card on a pale table: a faint colour change, but clean edges
        cards = _faint_cards(frame, quads, contrast)
    return CardSearch(tuple(cards), edged or bool(cards),
                      _doubtful(frame, scored, cards) if cards else 0)


def _faint_cards(frame: np.ndarray, quads: list[np.ndarray], contrast: float
                 ) -> list[np.ndarray]:
    """The outlines, put on the card's rim, whose colour changes at ``FAINT_SHARE`` of
    their points (any side) and whose sides are each one straight edge end to end that
    runs on past no corner (:func:`is_clean`), one per card, the outermost of nested ones.

    A white card on a white or pale table shows a colour change of under
    ``EDGE_CONTRAST`` along the sides its shadow does not fall on, so its true outline
    fails the colour test on a side while its four edges are as straight and clean as a
    card's can be; the made-up outlines the colour test is there for (along a patterned
    table, inside a card's print) are not (their sides wander, or run on past corners).
    """
    shares = [(_edge_score(frame, q, contrast)[0], k) for k, q in enumerate(quads)]
    near = [quads[k] for share, k in sorted(shares, reverse=True) if share >= FAINT_NEAR]
    found = []
    for quad in (snap_to_rim(frame, q) for q in near[:FAINT_TRIES]):
        if _edge_score(frame, quad, contrast)[0] >= FAINT_SHARE and is_clean(frame, quad):
            found.append(quad)
    cards: list[np.ndarray] = []
    for quad in sorted(found, key=lambda q: -quad_area(q)):
        if not any(_inside(quad.mean(axis=0), c) or _inside(c.mean(axis=0), quad)
                   for c in cards):
            cards.append(quad)
    return cards


def is_clean(frame: np.ndarray, quad: np.ndarray) -> bool:
    """True when every side of ``quad`` is one straight edge along ``CLEAN_STRAIGHT`` of
    it or more, none runs on past its corners beyond ``CLEAN_BEYOND``, at least
    ``OWN_SEEN`` are followed past them in the picture, and the corners are in it."""
    if not _corners_in(frame, quad):
        return False
    own = own_edges(frame, quad)
    return (min(own.straight) >= CLEAN_STRAIGHT and max(own.beyond) <= CLEAN_BEYOND
            and sum(b >= 0 for b in own.beyond) >= OWN_SEEN)


def _doubtful(frame: np.ndarray, scored: list[tuple[tuple[float, float], np.ndarray]],
              cards: list[np.ndarray]) -> int:
    """How many passing outlines, apart from ``cards`` and from one another (the largest
    first), do not run on past their corners (:attr:`CardSearch.doubtful`)."""
    seen = list(cards)
    for score, quad in sorted(scored, key=lambda p: -quad_area(p[1])):
        if not _passes(score) or any(_inside(quad.mean(axis=0), c)
                                     or _inside(c.mean(axis=0), quad) for c in seen):
            continue
        if max(own_edges(frame, quad).beyond) < OWN_BEYOND:
            seen.append(quad)
    return len(seen) - len(cards)


def _cards(frame: np.ndarray, scored: list[tuple[tuple[float, float], np.ndarray]],
           aspect: float) -> list[np.ndarray]:
    """The passing outlines of ``scored`` (edge score, outline) that are cards, one each."""
    passing = [(score[0] >= EDGE_CLEAR, quad_area(quad), quad)
               for score, quad in scored if _passes(score)]
    passing.sort(key=lambda p: (-p[0], -p[1]))
    cards: list[np.ndarray] = []
    for _, _, quad in passing:
        if any(_inside(quad.mean(axis=0), c) or _inside(c.mean(axis=0), quad) for c in cards):
            continue  # an outline inside a card already counted (or around it)
        if is_own(frame, quad):
            cards.append(quad)
    return [_outer_card(frame, c, [q for _, _, q in passing], aspect) for c in cards]


def is_own(frame: np.ndarray, quad: np.ndarray) -> bool:
    """True when ``quad`` runs along a card's own edges: every side a straight edge that
    does not run on past the corners (:func:`vision.cards_own.own_edges`), the corners in
    the picture and some of the sides' lines followed past them in it. A side that
    follows no straight edge is looked for again on the card's rim (the outline search's
    guess may lie a few percent off a faint edge)."""
    if not _corners_in(frame, quad):
        return False  # a corner out of the picture: not the whole card
    h, w = frame.shape[:2]
    own = own_edges(frame, quad)
    if max(own.beyond) >= OWN_BEYOND:
        return False
    if min(own.straight) < OWN_STRAIGHT and quad_area(quad) < OWN_RETRY * h * w:
        own = own_edges(frame, snap_to_rim(frame, quad))
    return (min(own.straight) >= OWN_STRAIGHT and max(own.beyond) < OWN_BEYOND
            and sum(b >= 0 for b in own.beyond) >= OWN_SEEN)


def _corners_in(frame: np.ndarray, quad: np.ndarray) -> bool:
    """True when every corner (x, y) of ``quad`` lies in the picture."""
    h, w = frame.shape[:2]
    return bool((quad >= 0).all() and (quad[:, 0] <= w - 1).all()
                and (quad[:, 1] <= h - 1).all())


def _passes(score: tuple[float, float]) -> bool:
    """True when an edge score (share of all points, of the weakest side) is an edge all round."""
    return score[0] >= EDGE_SHARE and score[1] >= EDGE_SIDE


def _outer_card(frame: np.ndarray, card: np.ndarray, passing: list[np.ndarray],
                aspect: float) -> np.ndarray:
    """``card``, or the passing outline around it whose shape is much nearer the deck's
    (``card`` was then a frame printed inside the card), if that runs along a card's own
    edges."""
    best, best_misfit = card, shape_misfit(card, aspect)
    for quad in passing:
        misfit = shape_misfit(quad, aspect)
        if (1.15 * quad_area(card) < quad_area(quad) < FRAME_SHARE * quad_area(card)
                and _inside(card.mean(axis=0), quad) and misfit < best_misfit - SHAPE_GAIN
                and is_own(frame, quad)):
            best, best_misfit = quad, misfit
    return best


def shape_misfit(quad: np.ndarray, aspect: float) -> float:
    """How far an outline's width / height is from the deck's (0 = the same)."""
    sides = np.hypot(*(np.roll(quad, -1, axis=0) - quad).T)
    a, b = (sides[0] + sides[2]) / 2, (sides[1] + sides[3]) / 2
    return abs(float(min(a, b) / max(a, b, 1e-6)) - aspect)


def view_misfit(quad: np.ndarray, aspect: float, frame_shape: tuple[int, ...]) -> float:
    """:func:`shape_misfit` of the rectangle on the table whose perspective image is
    ``quad`` in a frame of ``frame_shape`` (H, W, ...), at the best fitting focal length.

    A card off the picture's centre, seen obliquely, looks narrower or wider than it is;
    its true aspect (:func:`vision.cards_view.true_aspects`) is read over the ordinary
    cameras' focal lengths, and the plain side lengths (a distant camera) count too.
    """
    found = [min(r, 1 / r) for r in true_aspects(quad, frame_shape) if r > 0]
    plain = shape_misfit(quad, aspect)
    if not found:
        return plain
    beyond = max(min(found) - aspect, aspect - max(found), 0.0)  # aspect between readings: 0
    return min(plain, beyond)


def card_aspect(quad: np.ndarray, frame_shape: tuple[int, ...]) -> float:
    """The width / height (portrait, at most 1) of the card whose perspective image is
    ``quad`` in a frame of ``frame_shape`` (H, W, ...), read at an ordinary camera's focal
    length (``FOCAL_RANGE``'s middle, 0.8 picture long sides: a 62-66 degree view, as the
    Raspberry Pi cameras'); its plain side ratio when the outline is degenerate.

    A card seen obliquely off the picture's centre looks up to 0.08 narrower or wider
    than it is; read in perspective it is within 0.013 of its true shape even with the
    focal length 25% off.
    """
    h, w = frame_shape[:2]
    ratio = true_aspect(quad, FOCAL_RANGE[1] * max(h, w), (w / 2, h / 2))
    if not np.isfinite(ratio) or ratio <= 0:
        sides = np.hypot(*(np.roll(quad, -1, axis=0) - quad).T)
        ratio = float((sides[0] + sides[2]) / max(sides[1] + sides[3], 1e-6))
    return float(min(ratio, 1 / max(ratio, 1e-6)))


def quad_area(quad: np.ndarray) -> float:
    """Area of a quadrilateral in square pixels (shoelace)."""
    x, y = quad[:, 0].astype(np.float64), quad[:, 1].astype(np.float64)
    return float(abs(np.dot(x, np.roll(y, -1)) - np.dot(y, np.roll(x, -1))) / 2)


def _refined(frame: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """The outline fitted again on a crop around the card (as a reference photo), if it
    agrees with ``quad``; else ``quad``."""
    h, w = frame.shape[:2]
    x0, y0 = quad.min(axis=0)
    x1, y1 = quad.max(axis=0)
    pad = 0.12 * max(x1 - x0, y1 - y0)
    left, top = int(max(0, x0 - pad)), int(max(0, y0 - pad))
    right, bottom = int(min(w, x1 + pad + 1)), int(min(h, y1 + pad + 1))
    found = find_face_outline(frame[top:bottom, left:right])
    if found is None:
        return quad
    found = found.astype(np.float32) + np.array([left, top], np.float32)
    corner_gap = np.hypot(*(_upright(found)[:, None] - _upright(quad)[None]).T).min(axis=0)
    return found if corner_gap.max() < 0.08 * max(x1 - x0, y1 - y0) else quad


def _upright(quad: np.ndarray) -> np.ndarray:
    """Corners as top-left, top-right, bottom-right, bottom-left of a portrait card."""
    q = np.asarray(quad, np.float32)
    x, y = q[:, 0], q[:, 1]
    if np.dot(x, np.roll(y, -1)) - np.dot(y, np.roll(x, -1)) < 0:
        q = q[::-1].copy()  # clockwise on screen (y points down)
    q = np.roll(q, -int(np.argmin(q.sum(axis=1))), axis=0)
    sides = np.hypot(*(np.roll(q, -1, axis=0) - q).T)
    if sides[0] + sides[2] > sides[1] + sides[3]:  # lying sideways: the long side goes down
        q = np.roll(q, -1, axis=0)
    return q


def _edge_score(frame: np.ndarray, quad: np.ndarray, contrast: float, n: int = 24
                ) -> tuple[float, float]:
    """(share of all, share on the weakest side) of points along the outline where the
    colour just inside differs from just outside by ``EDGE_CONTRAST`` or more."""
    q = np.asarray(quad, np.float32)
    ends = np.roll(q, -1, axis=0)
    edge = ends - q
    normal = np.stack([-edge[:, 1], edge[:, 0]], axis=1)
    normal /= np.linalg.norm(normal, axis=1, keepdims=True) + 1e-9
    normal *= np.sign(((q.mean(axis=0) - q) * normal).sum(axis=1))[:, None]  # inwards
    span = float(np.sqrt(abs(edge[0, 0] * edge[3, 1] - edge[0, 1] * edge[3, 0])))
    step = max(2.0, 0.04 * span)
    t = (np.arange(n) + 0.5) / n
    points = q[:, None] + edge[:, None] * t[None, :, None]  # (4, n, 2)
    inside = _pixels(frame, points + normal[:, None] * step)
    outside = _pixels(frame, points - normal[:, None] * step)
    strong = np.linalg.norm(inside - outside, axis=2) >= contrast
    return float(strong.mean()), float(strong.mean(axis=1).min())


def _pixels(frame: np.ndarray, points: np.ndarray) -> np.ndarray:
    """Colours at (x, y) points (nearest pixel, clamped to the frame), float32."""
    h, w = frame.shape[:2]
    x = np.clip(np.rint(points[..., 0]), 0, w - 1).astype(np.intp)
    y = np.clip(np.rint(points[..., 1]), 0, h - 1).astype(np.intp)
    return frame[y, x].astype(np.float32)


def _inside(point: np.ndarray, quad: np.ndarray) -> bool:
    """True when ``point`` (x, y) lies inside the convex ``quad``."""
    q = np.asarray(quad, np.float32)
    edge = np.roll(q, -1, axis=0) - q
    rel = point - q
    cross = edge[:, 0] * rel[:, 1] - edge[:, 1] * rel[:, 0]
    return bool((cross >= 0).all() or (cross <= 0).all())
