"""Which candidates are top faces: one per die, of a die's size and shape, not the table.

Candidates come from ``dice_faces`` (faces and marks). A top face is square-ish and
die-sized; a side face seen by a tilted camera lies against a bigger top face of the same
die and loses to it; a repeating pattern of same-sized squares at the same turn is a
checkered cloth, not dice (real dice land at random turns).
"""

from __future__ import annotations

import numpy as np

import cv2

from vision.dice_faces import CLASS_NAMES, GREY, LIGHT, NONE, Face, has_pips


def is_top_shaped(face: Face, top_area: float | None, *, max_aspect: float,
                  min_fill: float) -> bool:
    """True for a square-ish face of a die's size (when the size is known)."""
    if face.aspect > max_aspect or face.fill < min_fill or face.corners < 1.2:
        return False
    if face.cls in (LIGHT, GREY) and not has_pips(face):
        return False  # a light face has pips or a mark; a shadow or a card corner has none
    if top_area is not None and not 0.3 * top_area <= face.area <= 2.6 * top_area:
        return False
    return True


def is_mark(face: Face, top_area: float | None) -> bool:
    """True for the mark of a light die whose body size fits the dice seen elsewhere."""
    if face.body <= 0:
        return False
    return top_area is None or 0.45 * top_area <= face.body ** 2 <= 2.2 * top_area


def is_table_like(face: Face, table_bgr: np.ndarray, table_colour: bool = False) -> bool:
    """True for a shadow or a blotch of the cloth, not a die: a face with no pips or mark,
    no brighter than the table around it, and of the table's colour there or one of the
    table's dominant colours (``table_colour``, e.g. a square of a checkered cloth)."""
    if has_pips(face):
        return False
    f = np.asarray(face.bgr, np.float32) + 1.0
    t = np.asarray(table_bgr, np.float32) + 1.0
    ratio = float(f.sum() / t.sum())
    chroma = float(np.abs(f / f.sum() - t / t.sum()).sum())
    return ratio < 1.15 and (table_colour or chroma < 0.07)


def colour_of(face: Face) -> tuple[str, float]:
    """The face's colour name and a 0..1 confidence."""
    if face.mark != NONE:  # a light (or pale) body: the mark tells
        return CLASS_NAMES[face.mark], float(np.clip(face.agree * 1.1, 0, 1))
    if face.cls in CLASS_NAMES:
        return CLASS_NAMES[face.cls], float(np.clip(face.agree * 1.25, 0, 1))
    return "other", float(np.clip(0.5 + face.fill / 2, 0, 1))


def score(face: Face) -> float:
    """How much a candidate looks like the top face: big, square, bright, well filled."""
    base = face.area * face.fill / face.aspect * (0.4 + face.value / 255)
    return 0.3 * base if face.whole else base


def pick_tops(faces: list[Face], side: float, *, max_aspect: float, min_fill: float,
              top_area: float | None, min_edge: float) -> list[Face]:
    """Best-scoring top faces (or top marks), at most one per die (centres a die apart)."""
    hyps: list[tuple[float, Face]] = []
    for f in faces:
        if f.edge < min_edge:
            continue  # a soft blotch of the table, not a die's crisp face
        if is_top_shaped(f, top_area, max_aspect=max_aspect, min_fill=min_fill):
            hyps.append((score(f), f))
        elif is_mark(f, top_area):
            hyps.append((f.body ** 2, f))
    pattern = _pattern_ids([f for _, f in hyps])
    hyps = [h for h in hyps if id(h[1]) not in pattern]
    tops: list[Face] = []
    for _, f in sorted(hyps, key=lambda sf: sf[0], reverse=True):
        if not any(_same_die(t, f, side) for t in tops):
            tops.append(f)
    return tops


def _pattern_ids(faces: list[Face], *, group: int = 5) -> set[int]:
    """Ids of the faces that belong to a repeating pattern: at least ``group`` of one colour class with
    the same turn (within 6 degrees) and size (within 35%), like the squares of a checkered
    cloth. Dice land at random turns, so a real die is almost never in such a group."""
    if len(faces) < group:
        return set()
    turn = [_turn(f) for f in faces]
    out = set()
    for i, f in enumerate(faces):
        same = [g for j, g in enumerate(faces)
                if g.cls == f.cls and abs((turn[i] - turn[j] + 45) % 90 - 45) <= 6
                and 0.65 <= g.area / f.area <= 1.0 / 0.65]
        spots: list[tuple[float, float]] = []
        for g in same:  # one vote per place: a die may give several candidates
            if all(np.hypot(g.centre[0] - x, g.centre[1] - y) > 0.7 * np.sqrt(f.area) for x, y in spots):
                spots.append(g.centre)
        if len(spots) >= group:
            out.update(id(g) for g in same)
    return out


def _turn(face: Face) -> float:
    """The face outline's turn in degrees, 0-90."""
    dx, dy = face.box[1] - face.box[0]
    return float(np.degrees(np.arctan2(dy, dx)) % 90)


def _extent(face: Face) -> float:
    return face.body ** 2 if face.body > 0 else face.area


def _same_die(top: Face, other: Face, side: float) -> bool:
    """True when ``other`` is too close to ``top`` to be another die's top face: nearer
    than a die's width, or a smaller, darker face lying against it (a side face in a
    tilted view)."""
    gap = np.hypot(top.centre[0] - other.centre[0], top.centre[1] - other.centre[1])
    if gap <= 0.72 * side:
        return True
    if _extent(other) >= 0.75 * _extent(top) or other.value >= 0.95 * top.value:
        return False
    other_box = die_box(other)
    short = min(np.linalg.norm(other_box[1] - other_box[0]), np.linalg.norm(other_box[2] - other_box[1]))
    dist = -cv2.pointPolygonTest(die_box(top).astype(np.float32), other.centre, True)
    return dist <= short / 2 + 0.2 * side


def die_box(face: Face) -> np.ndarray:
    """The top face's outline (4, 2) as (x, y); for a mark, a die-sized square around it."""
    if face.body <= 0:
        return face.box
    c = np.asarray(face.centre)
    vec = face.box - c
    norm = np.linalg.norm(vec, axis=1, keepdims=True)
    return c + vec / np.maximum(norm, 1e-6) * (face.body / np.sqrt(2))
