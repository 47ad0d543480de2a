"""The die size from the face candidates when too few plain faces vote for it.

``dice_pick.die_side`` lets only faces with no light ring around them vote: a coloured
face ringed by light pixels is most often the mark of a light die, whose size is not a
die's. On a light table, though, every coloured die is ringed by light pixels: the
table's own. Then one or two plain faces (often pieces: a pip, a die's corner) are left
to vote, and a median of one or two votes rejects no piece: the size comes out a third of
a die's, and the dice themselves are then too big to be tops. A ring lying on the table
(outside the foreground blobs) says nothing of a light die body, so when fewer than
three plain faces vote, the faces ringed by the table vote as well.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import numpy as np

from vision.dice_faces import Face
from vision.dice_outline import lone_dice, outline_floor
from vision.dice_pick import die_side, is_top_shaped

_RING_T = np.arange(4) / 4.0  # four points per side of the grown box: 16 in all


def ring_on_blobs(faces: list[Face], mask: np.ndarray) -> list[float]:
    """Share of each face's ring (its box (4, 2) grown by half about its centre, 16
    points, as its ``ring`` is measured) on the foreground ``mask`` (H, W) uint8, 0/255;
    0.0 for a ring all outside the mask."""
    if not faces:
        return []
    h, w = mask.shape
    c = np.asarray([f.centre for f in faces], np.float64)[:, None, :]
    corners = (np.asarray([f.box for f in faces], np.float64) - c) * 1.5 + c
    step = corners[:, [1, 2, 3, 0]] - corners
    pts = corners[:, None] + step[:, None] * _RING_T[None, :, None, None]
    xs = np.round(pts[..., 0]).astype(int).reshape(len(faces), -1)
    ys = np.round(pts[..., 1]).astype(int).reshape(len(faces), -1)
    ok = (xs >= 0) & (xs < w) & (ys >= 0) & (ys < h)
    hit = np.zeros(ok.shape, bool)
    hit[ok] = mask[ys[ok], xs[ok]] > 0
    n_ok, n_hit = ok.sum(axis=1), hit.sum(axis=1)
    return [float(k) / n if n else 0.0 for k, n in zip(n_hit.tolist(), n_ok.tolist())]


def die_side_on_table(found: list[Face], guess: float, mask: np.ndarray, *,
                      max_aspect: float, min_fill: float, min_edge: float,
                      on_blobs: float = 0.25, few: int = 3, checkered: bool = False,
                      cloth: frozenset[int] | set[int] = frozenset(),
                      contours: Sequence[np.ndarray] | None = None,
                      min_side: float = 0.0) -> float:
    """Die edge length (pixels) as ``dice_pick.die_side``; when fewer than ``few`` plain
    faces vote, a light-ringed face whose ring lies mostly on the table (under
    ``on_blobs`` of it on ``mask``'s blobs) votes as a plain one.

    Parameters
    ----------
    found : face candidates in work pixels
    guess : the blob guess of the die's edge (pixels), kept when no face votes
    mask : ndarray of shape (H, W), uint8, 0/255, the foreground blobs at work size
    max_aspect, min_fill, min_edge : the top-face shape and edge limits (``DiceParams``)
    checkered : True on a checkered cloth (``dice_cloth.cloth_grid`` found one), whose
        squares of one colour are ringed by its squares of the other: none votes then,
        nor does a mark of one of the cloth's colour classes ``cloth`` (its body is the
        cloth's light squares around one of its coloured ones)
    contours : the outer outlines of ``mask``'s blobs; when given, the size is at least
        what the dice lying alone allow (``dice_outline.outline_floor``: votes far under
        their tops are pieces of dice), blobs under ``min_side`` (pixels) left out
    """
    shape = {"max_aspect": max_aspect, "min_fill": min_fill}
    plain = sum(1 for f in found if f.ring < 0.5 and f.edge >= min_edge and f.body == 0
                and is_top_shaped(f, None, **shape))
    if checkered and cloth:
        found = [f for f in found if f.body == 0 or f.cls not in cloth]
    table = [] if checkered else _ringed_by_table(found, mask, on_blobs)
    if plain < few and table:  # (a cloth's squares are ringed by the cloth)
        ids = {id(f) for f in table}
        found = [replace(f, ring=0.0) if id(f) in ids else f for f in found]
    side = die_side(found, guess, min_edge=min_edge, **shape)
    if contours is None:
        return side
    voters = [f for f in found if f.body > 0 or (  # (as ``die_side`` counts them)
        f.ring < 0.5 and f.edge >= min_edge and is_top_shaped(f, None, **shape))]
    # a top ringed by the table fills its lone blob, however many plain faces vote
    tops = voters + [f for f in table
                     if f.edge >= min_edge and is_top_shaped(f, None, **shape)]
    floor = outline_floor(lone_dice(contours, mask.shape, tops, min_side=min_side))
    if floor <= side:
        return side
    # the outlines choose among the voted sizes: never above their upper quartile
    return min(floor, float(np.percentile([f.body if f.body > 0 else np.sqrt(f.area)
                                           for f in voters], 75)))


def _ringed_by_table(found: list[Face], mask: np.ndarray, on_blobs: float) -> list[Face]:
    """The faces (no marks) ringed by light whose ring lies mostly on the table: under
    ``on_blobs`` of it on ``mask``'s blobs, their centre on them."""
    ringed = [f for f in found if f.ring >= 0.5 and f.body == 0 and _on(mask, f.centre)]
    return [f for f, s in zip(ringed, ring_on_blobs(ringed, mask)) if s < on_blobs]


def _on(mask: np.ndarray, at: tuple[float, float]) -> bool:
    """True when the point (x, y) lies on ``mask``'s blobs (a cloth's square is table)."""
    x, y = int(round(at[0])), int(round(at[1]))
    return 0 <= y < mask.shape[0] and 0 <= x < mask.shape[1] and bool(mask[y, x])
