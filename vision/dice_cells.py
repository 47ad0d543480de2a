"""Dice of the cloth's own colour: top faces closed all round by sharp edges.

A plain red die on a red cloth (a green one on green felt) differs from the cloth by a
few hue steps at most, so neither the foreground nor the face finder closes its top,
and its outline as a whole (top, side faces and shadow) need not close in the edge mask
either. Its top is still ringed by sharp edges: its dark rim where the camera sees no
side face, the side faces' edges elsewhere. So the regions closed all round by edges
near the foreground blobs are candidate tops (``cell_outlines``). Such a region is a
die when it is a die-sized square of a Toss Up colour the cloth has too, with the die's
side faces and shadow on part of its rim (``dice_blobs.is_plain_die``), and when it is
lit like a top face: brighter than three quarters of what lies around it (its side
faces, its shadow, the cloth of its colour), where a patch of cloth closed in between a
die, its shadow and the wood grain is not (``is_lit_on_cloth``). Points are (x, y)
working pixels.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np

import cv2

from vision import dice_blobs as blobs_
from vision import dice_faces as faces_
from vision.dice_grid import grid_fit
from vision.results import Die

if TYPE_CHECKING:
    from vision.dice import DiceParams

RELATIVE = 0.7  # a dull pip is at least this share of its body's level darker than it


def cloth_dice(mask: np.ndarray, edges: np.ndarray, work: np.ndarray, side: float,
               taken: list[tuple[float, float]], cloth: set[int], *, params: DiceParams,
               grid: float | None = None, half: np.ndarray | None = None
               ) -> list[tuple[np.ndarray, tuple[float, float], np.ndarray, tuple[int, int]]]:
    """Plain dice of one of the cloth's colour classes ``cloth``, closed by edges.

    Parameters
    ----------
    mask : foreground mask (0/255) at the working size
    edges : sharp edges of ``work`` at half size (``dice_blobs.half_edges``)
    work : BGR working image
    side : die edge length in working pixels
    taken : centres (x, y) of the dice already found
    cloth : the Toss Up colour classes (``dice_faces``) of the table's dominant colours
    params : the reader's ``DiceParams`` (colour classes)
    grid : turn (degrees) of a checkered cloth's grid, or None
    half : ``work`` shrunk to half size (INTER_AREA), if at hand

    Returns
    -------
    list of (box, centre, hsv, origin) as ``dice_blobs.square_blobs`` gives them
    """
    if not cloth:
        return []
    near = cv2.resize(mask, (edges.shape[1], edges.shape[0]), interpolation=cv2.INTER_NEAREST)
    near = cv2.dilate(near, np.ones((int(side) | 1, int(side) | 1), np.uint8))
    x, y, w, h = cv2.boundingRect(near)  # (the hue's edges only where cells may be)
    hue = np.zeros_like(edges)
    if w > 2 and h > 2:  # (an exact halving of work: the same pixels as shrinking the crop)
        exact = half is not None and half.shape[0] * 2 == work.shape[0] and (
            half.shape[1] * 2 == work.shape[1])
        crop = (half[y:y + h, x:x + w] if exact
                else work[2 * y:2 * (y + h), 2 * x:2 * (x + w)])
        hue[y:y + h, x:x + w] = hue_edges(crop, (h, w))
    cells = cell_outlines(cv2.bitwise_or(edges, hue), side, near, grid=grid,
                          on_grid=lambda c: not is_off_grid(work, c, grid or 0.0, side))
    return blobs_.square_blobs(  # (the grid's turn asked of the cells above)
        mask, work, side, taken, min_corners=1.17, min_pips=float("inf"),
        plain_die=lambda box, hsv, at: (
            _colour(box, hsv, at, params) in cloth and is_lit_on_cloth(work, box, params)
            and blobs_.is_plain_die(box, hsv, at, mask, params)),
        contours=cells)


def hue_edges(work: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    """Sharp edges (Canny, 0/255) of ``work``'s hue at the size ``shape`` (rows, cols):
    of red less green, which sets red, yellow and green apart (and each from grey). A
    red top beside its green side face is as bright in grey, so only its hue closes it
    off from its side."""
    small = cv2.resize(work, (shape[1], shape[0]), interpolation=cv2.INTER_AREA)
    red_green = cv2.addWeighted(cv2.extractChannel(small, 2), 0.5,
                                cv2.extractChannel(small, 1), -0.5, 128)
    return cv2.Canny(red_green, 50, 100)


def is_lit_on_cloth(work: np.ndarray, box: np.ndarray, params: DiceParams) -> bool:
    """``is_lit_top`` against the cloth of the top's own colour: the middle of ``box``
    (4, 2) brighter (largest channel) than three quarters of the pixels of its colour
    class (``params``) on a ring around it (1.2 to 1.8 times the box), when they are a
    quarter of the ring or more, else of the whole ring. On a two-coloured check the
    light squares around a die of the other colour are brighter than its top; the cloth
    of its colour is not, unless in the shade of a die (a patch of it then is darker)."""
    parts = _box_and_ring(work, box)
    if parts is None:
        return False
    crop, value, inner, ring = parts
    if not cv2.countNonZero(inner) or not cv2.countNonZero(ring):
        return False
    cls = faces_.class_map(cv2.cvtColor(crop, cv2.COLOR_BGR2HSV), params.hue_edges,
                           min_sat=params.min_sat, light_value=params.light_value,
                           min_value=params.min_value)
    same = cv2.bitwise_and(ring, cv2.compare(
        cls, int(np.bincount(cls[inner > 0]).argmax()), cv2.CMP_EQ))
    if cv2.countNonZero(same) >= 0.25 * cv2.countNonZero(ring):
        ring = same
    return float(np.median(value[inner > 0])) > faces_.percentile(value[ring > 0], 75)

def cell_outlines(edges: np.ndarray, side: float, near: np.ndarray, *,
                  grid: float | None = None,
                  on_grid: Callable[[np.ndarray], bool] | None = None) -> tuple:
    """Outlines (working pixels, twice ``edges``'s) of the regions of 0.5 to 1.9 die
    areas (as ``dice_blobs.square_blobs`` asks) closed all round by the sharp ``edges``
    (0/255 at half size; gaps of a pixel closed) inside ``near`` (0/255, the same size:
    the foreground grown by half a die; ``side`` in working pixels). Squares of a checkered cloth are left out:
    those turned like its ``grid`` (degrees), and any four or more alike in turn and
    size (dice land at random turns). With ``on_grid`` (it tells an outline, working
    pixels, that may lie on the grid's lines: not :func:`is_off_grid`) a cell turned
    like the grid is left out only when it does: a die lying square to the grid is
    ringed by its own edges, which end at its corners."""
    edges = cv2.morphologyEx(edges, cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8))
    contours, hierarchy = cv2.findContours(cv2.bitwise_and(edges, near), cv2.RETR_CCOMP,
                                           cv2.CHAIN_APPROX_SIMPLE)
    if hierarchy is None:
        return ()
    die = (side / 2) ** 2
    cells = [c for c, (_, _, _, parent) in zip(contours, hierarchy[0])
             if parent >= 0 and len(c) >= 4 and 0.5 * die <= cv2.contourArea(c) <= 1.9 * die]
    if not cells:
        return ()
    rects = [cv2.minAreaRect(c) for c in cells]
    turn = np.array([r[2] % 90 for r in rects])
    size = np.array([r[1][0] * r[1][1] for r in rects])
    like = ((np.abs((turn[:, None] - turn[None, :] + 45) % 90 - 45) <= 5)
            & (size[:, None] >= 0.7 * size[None, :]) & (size[:, None] <= size[None, :] / 0.7))
    keep = like.sum(axis=1) < 4
    if grid is not None:
        aligned = np.abs((turn - grid + 45) % 90 - 45) <= 5
        keep &= ~aligned
        for i in np.flatnonzero(aligned & (like.sum(axis=1) < 4)) if on_grid else ():
            keep[i] = not on_grid(cells[i] * 2)
    return tuple(c * 2 for c, k in zip(cells, keep) if k)


def is_off_grid(work: np.ndarray, outline: np.ndarray, grid: float, side: float) -> bool:
    """True for an outline (working pixels) turned like the grid that lies among the
    grid's lines (four die edges of them or more around it) but not on them (under half
    of it: ``dice_grid.grid_fit``): a die lying square to the cloth, not a square of it.
    Where no lines are seen the grid's turn may be a grain's, and nothing is told."""
    share, seen = grid_fit(work, outline, grid, side)
    return seen >= 4.0 and share < 0.5


def is_lit_top(work: np.ndarray, box: np.ndarray, *, margin: float = 0.0) -> bool:
    """True when the middle of ``box`` (4, 2) is brighter (largest channel) than three
    quarters of a ring around it (from 1.2 to 1.8 times the box about its centre), by
    more than ``margin`` levels: a top face lit from above, not a patch of the cloth in
    a die's shade."""
    parts = _box_and_ring(work, box)
    if parts is None:
        return False
    _, value, inner, ring = parts
    middle, around = value[inner > 0], value[ring > 0]
    if middle.size == 0 or around.size == 0:
        return False
    return float(np.median(middle)) > faces_.percentile(around, 75) + margin


def _box_and_ring(work: np.ndarray, box: np.ndarray
                  ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray] | None:
    """The crop around ``box`` (4, 2) out to 1.8 times it, its brightness (largest
    channel), and masks of the box's middle (0.8 of it) and of the ring from 1.2 to 1.8
    times it; None when the crop is under 4 pixels a side."""
    c = box.mean(axis=0)
    outer = (box - c) * 1.8 + c
    x0, y0 = (int(v) for v in np.maximum(0, np.floor(outer.min(axis=0))))
    x1, y1 = (int(v) for v in np.ceil(outer.max(axis=0)) + 1)
    crop = work[y0:y1, x0:x1]
    if crop.shape[0] < 4 or crop.shape[1] < 4:
        return None
    value = cv2.max(cv2.max(crop[..., 0], crop[..., 1]), crop[..., 2])
    inner, ring = np.zeros(value.shape, np.uint8), np.zeros(value.shape, np.uint8)
    at = np.array([x0, y0])
    cv2.fillConvexPoly(inner, np.round((box - c) * 0.8 + c - at).astype(np.int32), 255)
    cv2.fillConvexPoly(ring, np.round(outer - at).astype(np.int32), 255)
    cv2.fillConvexPoly(ring, np.round((box - c) * 1.2 + c - at).astype(np.int32), 0)
    return crop, value, inner, ring


def in_cloth_shade(box: np.ndarray, hsv: np.ndarray, origin: tuple[int, int],
                   work: np.ndarray, cloth: set[int], *, params: DiceParams) -> bool:
    """True for a die-sized square of one of the cloth's colour classes ``cloth`` that
    is not lit like a top face (``is_lit_top``): a patch of the cloth in a die's shadow,
    closed in by the shadow's edges and the die's, even when the die next to it puts
    some contrast in its box. ``box`` (4, 2) is in ``work``'s pixels, ``hsv`` the crop
    at ``origin`` (x, y)."""
    return bool(cloth) and _colour(box, hsv, origin, params) in cloth and not is_lit_top(
        work, box)


def _colour(box: np.ndarray, hsv: np.ndarray, origin: tuple[int, int],
            params: DiceParams) -> int:
    """The colour class covering most of the middle of ``box``, ``hsv`` the crop at
    ``origin`` (x, y)."""
    cls = faces_.class_map(hsv, params.hue_edges, min_sat=params.min_sat,
                           light_value=params.light_value, min_value=params.min_value)
    return blobs_.blob_colour(cls, box - np.asarray(origin))[0]


def cloth_pip_dice(work: np.ndarray, side: float, contours: tuple, dice: list[Die],
                   scale: float, *, body_colour: Callable[[np.ndarray], tuple[str, float]],
                   cloth: set[int] | frozenset[int] = frozenset()) -> list[Die]:
    """Dice of the cloth's colour with dark pips: two or more dark pips on a body of a
    Toss Up colour, looked for in brightness (the largest channel) around the
    foreground blobs (``contours``) that hold none of the ``dice`` found yet; a plain
    a plain one of the ``cloth``'s colour classes where such a blob bends around its top
    (``bend_top``) or lies beside it (``beside_top``).

    A red die on a red cloth shows little but its pips and its side faces, and its body
    is dark in grey, so that its pips hardly stand out there. The cloth's checks give
    many dark spots, so only the blobs left over are looked at. There a dull pip is
    80-120 levels darker than the body, and a two's pips lie in opposite corners, 0.74
    of the edge apart, so spots of 40 levels and steps of 0.8 edges are taken.
    ``scale`` takes frame pixels (the dice's) to working pixels; ``body_colour`` gives
    the colour name and its share in a die-sized box (4, 2) of working pixels ("other"
    when none).
    """
    out: list[Die] = []
    centres = [(d.centre[0] * scale, d.centre[1] * scale) for d in dice]
    for cnt in contours:
        x, y, bw, bh = cv2.boundingRect(cnt)
        if bw * bh < 0.3 * side * side or any(
                x <= cx < x + bw and y <= cy < y + bh for cx, cy in centres):
            continue
        found = []
        for grow in (1.0, 1.6):  # the typical die, then one nearer the camera (bigger)
            found = _pip_group_dice(work, (x, y, bw, bh), grow * side, [
                np.array(d.outline, np.float32) * scale for d in dice + out])
            if found:
                break
        if not found:
            found = _plain_top(cnt, work, side, centres + [
                (d.centre[0] * scale, d.centre[1] * scale) for d in out], body_colour, cloth)
        for box, (cx, cy) in found:
            colour, share = body_colour(box)
            if colour != "other":
                out.append(Die(outline=tuple((float(px / scale), float(py / scale))
                                             for px, py in box),
                               centre=(float(cx / scale), float(cy / scale)),
                               colour=colour, confidence=round(0.5 * share, 3)))
    return out


def _pip_group_dice(work: np.ndarray, rect: tuple[int, int, int, int], side: float,
                    taken: list[np.ndarray]) -> list[tuple[np.ndarray, tuple[float, float]]]:
    """(box, centre) in working pixels of each group of two or more dull dark pips of
    a die of edge ``side`` in brightness (``cloth_pip_dice``) around a blob's bounding
    rectangle ``rect`` (x, y, w, h), grown by a die (its top, not foreground, lies
    beside its side faces and shadow); ``taken`` are the dice found's outlines."""
    h, w = work.shape[:2]
    x, y, bw, bh = rect
    pad = int(side) + 2
    x0, y0 = max(0, x - pad), max(0, y - pad)
    crop = work[y0:min(h, y + bh + pad), x0:min(w, x + bw + pad)]
    bright = cv2.max(cv2.max(crop[..., 0], crop[..., 1]), crop[..., 2])
    return [(box + np.array([x0, y0], np.float32), (cx + x0, cy + y0)) for box, (cx, cy)
            in blobs_.pip_groups(bright, side, [t - [x0, y0] for t in taken], min_pips=2,
                                 light_pips=False, min_contrast=40, reach=0.8,
                                 relative=RELATIVE)]


def _plain_top(contour: np.ndarray, work: np.ndarray, side: float,
               centres: list[tuple[float, float]],
               body_colour: Callable[[np.ndarray], tuple[str, float]],
               cloth: set[int] | frozenset[int]) -> list:
    """The top of a plain die beside or in the bend of its blob (``bend_top``,
    ``beside_top``), as a list of (box, centre): one a die's edge from all ``centres``
    (x, y) whose middle one of the ``cloth``'s colour classes covers 0.7 of (its top is
    not foreground: it is of the cloth's colour), or none."""
    top = bend_top(contour, work, side) or beside_top(contour, work, side)
    if top is None or any(np.hypot(top[1][0] - x, top[1][1] - y) < side for x, y in centres):
        return []
    colour, share = body_colour(top[0])
    names = {faces_.CLASS_NAMES[c] for c in cloth if c in faces_.CLASS_NAMES}
    return [top] if colour in names and share >= 0.7 else []


def bend_top(contour: np.ndarray, work: np.ndarray, side: float
             ) -> tuple[np.ndarray, tuple[float, float]] | None:
    """The top of a plain die of the cloth's colour in the bend of its blob, or None.

    Such a die's blob (``contour``, working pixels) is its side faces and its dark rim,
    not its top: an L or a C around the top, whose convex hull closes it. The piece the
    hull adds (the biggest, after a 3x3 opening) is a top when it is a good part of a
    die's face (``side``: a fifth of its area, 0.4 of its edge across, no longer than
    1.5 edges) and lit like one (``is_lit_top``), or most of a die's face whatever its
    light (half its area or more, a square 0.7 to 1.2 edges across: closed on three
    sides); a blob bigger than a die and its sides (several dice, a hand) or a thin bend
    (a shadow's, a pencil's) is not.
    Returns a die-sized square (4, 2) at the piece's turn and the top's centre (x, y).
    """
    area = cv2.contourArea(contour)
    if not 0.4 * side * side <= area <= 2.5 * side * side:
        return None
    hull = cv2.convexHull(contour)
    closed = cv2.contourArea(hull) - area  # what the hull adds (about: pixels are wider)
    if closed < 0.15 * side * side or closed + area > 3 * side * side:
        return None
    x, y, w, h = cv2.boundingRect(hull)
    gap = np.zeros((h, w), np.uint8)
    cv2.drawContours(gap, [hull - [x, y]], -1, 255, -1)
    cv2.drawContours(gap, [contour - [x, y]], -1, 0, -1)
    gap = cv2.morphologyEx(gap, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    n, labels, stats, _ = cv2.connectedComponentsWithStats(gap)
    if n < 2:
        return None
    i = 1 + int(stats[1:, cv2.CC_STAT_AREA].argmax())
    if stats[i, cv2.CC_STAT_AREA] < 0.2 * side * side:
        return None
    (cx, cy), (rw, rh), angle = cv2.minAreaRect(cv2.findNonZero(
        cv2.compare(labels, i, cv2.CMP_EQ)))
    if min(rw, rh) < 0.4 * side or max(rw, rh) > 1.5 * side:
        return None
    piece = cv2.boxPoints(((cx + x, cy + y), (rw, rh), angle))
    most = (stats[i, cv2.CC_STAT_AREA] >= 0.5 * side * side
            and 0.7 * side <= min(rw, rh) <= max(rw, rh) <= 1.2 * side)
    if not (most or is_lit_top(work, piece)):
        return None
    # the top's corner in the bend is the piece's corner nearest the blob's middle; the
    # top reaches a die's edge from it along the piece's sides
    m = cv2.moments(contour)
    k = int(np.argmin(np.hypot(*(piece - [m["m10"] / m["m00"], m["m01"] / m["m00"]]).T)))
    corner, along = piece[k], piece[[(k + 1) % 4, (k + 3) % 4]] - piece[k]
    unit = along / np.maximum(np.linalg.norm(along, axis=1, keepdims=True), 1e-6)
    centre = corner + unit.sum(axis=0) * side / 2
    return cv2.boxPoints(((float(centre[0]), float(centre[1])), (side, side), angle)), (
        float(centre[0]), float(centre[1]))


def beside_top(contour: np.ndarray, work: np.ndarray, side: float, *, lit: float = 6.0
               ) -> tuple[np.ndarray, tuple[float, float]] | None:
    """The top of a plain die of the cloth's colour beside its blob, or None.

    A die seen aslant or blurred may leave only a strip as its blob (``contour``,
    working pixels): a side face and its shadow, 0.8 to 1.6 die edges (``side``) long
    and at most 0.9 across, with the top beside one of its long sides. A die-sized square there
    is the top when it is lit clearly better (``lit`` levels) than what lies around it
    (``is_lit_top``): the cloth on the strip's other side is not.
    Returns the square (4, 2) and its centre (x, y).
    """
    if not 0.3 * side * side <= cv2.contourArea(contour) <= 1.5 * side * side:
        return None
    (cx, cy), (rw, rh), angle = cv2.minAreaRect(contour)
    if not 0.8 * side <= max(rw, rh) <= 1.6 * side or min(rw, rh) > 0.9 * side:
        return None  # a side face runs a die's edge along the top
    t = np.deg2rad(angle)  # across the strip: the side its short edge runs along
    across = np.array([-np.sin(t), np.cos(t)]) if rw >= rh else np.array([np.cos(t), np.sin(t)])
    h, w = work.shape[:2]
    for sign in (1.0, -1.0):
        centre = np.array([cx, cy]) + sign * across * (min(rw, rh) + side) / 2
        box = cv2.boxPoints(((float(centre[0]), float(centre[1])), (side, side), angle))
        if box.min() >= 0 and box[:, 0].max() < w and box[:, 1].max() < h and is_lit_top(
                work, box, margin=lit):
            return box, (float(centre[0]), float(centre[1]))
    return None
