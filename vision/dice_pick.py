"""Which candidates are top faces: one per die, of a die's size and shape, not the table.

Candidates come from ``dice_faces`` (faces and marks). A top face is square-ish and
die-sized; a side face seen by a tilted camera lies against a bigger top face of the same
die and loses to it; a repeating pattern of same-sized squares at the same turn is a
checkered cloth, not dice (real dice land at random turns).
"""

from __future__ import annotations

import math

from collections.abc import Callable
from dataclasses import replace

import numpy as np

import cv2

from vision.dice_faces import CLASS_NAMES, GREY, HUE, LIGHT, NONE, YELLOW, Face, has_pips
from vision.dice_aslant import foreshortened_marks
from vision.dice_split import several_marks, split_merged
from vision.dice_tilt import hangs_from


def is_top_shaped(face: Face, top_area: float | None, *, max_aspect: float,
                  min_fill: float) -> bool:
    """True for a square-ish face of a die's size (when the size is known)."""
    if face.aspect > max_aspect or face.fill < min_fill or face.corners < 1.2 and not (
            face.cls == GREY and face.corners >= 1.1 and face.mark == NONE and has_pips(face)):
        return False  # (a dark die's face blurred round keeps its pips; a coin is not dark)
    if face.cls in (LIGHT, GREY) and not has_pips(face):
        return False  # a light face has pips or a mark; a shadow or a card corner has none
    if face.cls == YELLOW and face.mark == NONE and _chroma(face) < 0.45:
        return False  # too washed out for a yellow die: brass, ivory, a lamp-lit card
    if face.mark == NONE and face.max_hole > 0.4:
        return False  # a ring around something (felt around a die), not a face with pips
    if face.cls == GREY and face.mark != NONE and (face.corners > 1.9 or face.aspect > 1.45):
        return False  # a shaded, ragged or foreshortened body around a mark: a side face
    if several_marks(face) and top_area is not None and face.area > 1.6 * top_area:
        return False  # bigger than a die and holding several marks: a block of light dice
    if face.mark != NONE and face.body == 0 and face.mark_off > 0.25:
        return False  # the colour lies at its edge: a side face or a neighbour, not a mark
    if top_area is not None and not 0.22 * top_area <= face.area <= 2.6 * top_area:
        return False
    return True


def is_doubtful_top(face: Face) -> bool:
    """True for a ragged run taken whole (it had no bright core) of a Toss Up colour or
    around a mark of one: a top face in poor light, or a die's side face run into its
    shadow where the top, of the cloth's colour, was missed; a die found there by other
    means (its pips) wins."""
    return face.whole and (face.cls in CLASS_NAMES or face.mark != NONE) and face.corners > 1.7


def unclaimed(faces: list[Face], centres: list[tuple[float, float]],
              side: float) -> list[Face]:
    """The faces with none of the ``centres`` (x, y) of dice found otherwise nearer than
    a die's edge ``side`` (two dice's tops cannot lie closer)."""
    return [f for f in faces if all(
        np.hypot(f.centre[0] - x, f.centre[1] - y) >= side for x, y in centres)]


def die_side(found: list[Face], guess: float, *, max_aspect: float, min_fill: float,
             min_edge: float) -> float:
    """Die edge length (pixels) from the face candidates, else the blob ``guess``.

    Crisp top-shaped faces vote with the root of their area, marks with their body's
    edge, and the median wins; when it is under half the upper quartile, the sizes fall
    apart in two groups: the small ones are pieces (a die of the cloth's colour broken
    up by its pips), and the median of the big ones is taken.
    """
    sides = [float(np.sqrt(f.area)) for f in found
             if is_top_shaped(f, None, max_aspect=max_aspect, min_fill=min_fill)
             and f.ring < 0.5 and f.edge >= min_edge and f.body == 0]
    sides += [f.body for f in found if f.body > 0]
    if not sides:
        return guess
    side, upper = _median(sides), _upper_quartile(sides)
    return side if side >= 0.5 * upper else _median([s for s in sides if s >= 0.5 * upper])


def _median(values: list[float]) -> float:
    """``np.median`` of a short list, bit for bit (the mean of the middle two when even)."""
    ordered, half = sorted(values), len(values) // 2
    return ordered[half] if len(values) % 2 else (ordered[half - 1] + ordered[half]) / 2


def _upper_quartile(values: list[float]) -> float:
    """``np.percentile(values, 75)`` of a short list, bit for bit: numpy's linear
    interpolation, taken from the upper neighbour past halfway as numpy does."""
    ordered = sorted(values)
    at = (len(ordered) - 1) * 0.75
    i = math.floor(at)
    lo, hi, t = ordered[i], ordered[min(i + 1, len(ordered) - 1)], at - i
    return hi - (hi - lo) * (1 - t) if t >= 0.5 else lo + (hi - lo) * t


def _chroma(face: Face) -> float:
    """(max - min) / max of the face's mean BGR colour: 0 grey .. 1 fully saturated."""
    hi = max(face.bgr)
    return (hi - min(face.bgr)) / hi if hi > 0 else 0.0


def is_crisp_square(face: Face) -> bool:
    """True for a clean, sharp-edged square outline.

    An uncoloured face lying against a coloured die is most often that die's side face or
    light body; it counts as a die of its own only when it is this clean. A die's top face
    seen from above is a (rounded) square with crisp edges; a side face merged with a
    light body, a shadow or a cloth square cut by a die is blotchier, longer or softer.
    """
    return (face.corners <= 1.8 and face.fill >= 0.7 and face.aspect <= 1.5
            and face.edge >= 80)


def is_mark(face: Face, top_area: float | None) -> bool:
    """True for the mark of a light die whose body size fits the dice seen elsewhere (a
    top seen aslant is foreshortened: its body may measure 0.6 of the dice's edge)."""
    if face.body <= 0:
        return False
    return top_area is None or 0.35 * top_area <= face.body ** 2 <= 2.2 * top_area


def is_table_like(face: Face, table_bgr: np.ndarray,
                  table_colour: bool | Callable[[], bool] = False) -> bool:
    """True for a shadow or a blotch of the cloth, not a die: a face with no pips or mark,
    no brighter than the table around it, and of the table's colour there or one of the
    table's dominant colours (``table_colour``, e.g. a square of a checkered cloth; a
    callable is asked only when the answer depends on it). A mark ringed all round by
    the light body measured around it is a light die's, even of the cloth's colour (a
    cloth square meets the next squares of its colour at its corners)."""
    if has_pips(face) or (face.body > 0 and face.ring >= 0.9):
        return False
    return is_table_tint(face.bgr, table_bgr, table_colour)


TINT = 0.07  # summed difference of (b, g, r) / (b + g + r): the same tint


def is_table_tint(bgr: tuple[float, float, float], table_bgr: np.ndarray,
                  table_colour: bool | Callable[[], bool] = False) -> bool:
    """True for a BGR colour no brighter than the table around it and of its tint there,
    or of one of the table's dominant colours (``table_colour``, as ``is_table_like``)."""
    f = np.asarray(bgr, np.float32) + 1.0
    t = np.asarray(table_bgr, np.float32) + 1.0
    ratio = float(f.sum() / t.sum())
    if ratio >= 1.15:
        return False
    if float(np.abs(f / f.sum() - t / t.sum()).sum()) < TINT:
        return True
    return table_colour() if callable(table_colour) else table_colour


def colour_of(face: Face) -> tuple[str, float]:
    """The face's colour name and a 0..1 confidence."""
    if face.mark != NONE:  # a light (or pale) body: the mark tells
        return CLASS_NAMES[face.mark], float(np.clip(face.agree * 1.1, 0, 1))
    if face.cls in CLASS_NAMES:
        return CLASS_NAMES[face.cls], float(np.clip(face.agree * 1.25, 0, 1))
    return "other", float(np.clip(0.5 + face.fill / 2, 0, 1))


def score(face: Face) -> float:
    """How much a candidate looks like the top face: big, square, bright, well filled
    (brightness weighs most: a tilted camera sees a die's front face as big as its top,
    or bigger, but in the shade)."""
    base = face.area * face.fill / face.aspect * (0.1 + face.value / 255)
    return 0.3 * base if face.whole else base


def pick_tops(faces: list[Face], side: float, *, max_aspect: float, min_fill: float,
              top_area: float | None, min_edge: float,
              drop: Callable[[Face], bool] | None = None,
              cloth: set[int] | None = None,
              soft_die: Callable[[Face], bool] | None = None) -> list[Face]:
    """Best-scoring top faces (or top marks), at most one per die (centres a die apart).

    ``drop`` tells candidates to leave out after the repeating patterns are found (e.g.
    squares of a checkered cloth by the cloth's grid), asked only of a candidate that no
    better one of the same die came before (the same tops as asking all, for half the
    asking); ``cloth``, when given, holds the colour classes of the table's dominant
    colours, the only ones its pattern can have; ``soft_die``, when given, tells a plain
    face with pips whose soft outline still stands out of the table's grain around it (a
    white die on a white table: little contrast, but no grain either).
    """
    hyps: list[tuple[float, Face]] = []
    for f in faces + split_merged(faces, side):
        if f.edge < min_edge:
            continue  # a soft blotch of the table, not a die's crisp face
        if is_top_shaped(f, top_area, max_aspect=max_aspect, min_fill=min_fill):
            if _uncoloured(f) and f.edge < 60 and not (has_pips(f) and soft_die and soft_die(f)):
                continue  # no colour to go by and a soft outline: wood grain, a stain
            if f.mark == NONE and f.edge < 70 and f.pips < 30:
                continue  # soft and plain: the lit part of a coin, a pencil, a shadow
            if (_uncoloured(f) or f.mark_off > 0.15) and f.corners > 1.75 and (
                    f.area > 1.2 * side * side):
                continue  # ragged and bigger than a die: a light body run into the cloth
                #           (a mark off its middle does not vouch for a die there)
            if _uncoloured(f) and f.corners < 1.3 and f.holes < 0.02:
                continue  # round and plain, not a Toss Up colour: a coin, a counter
            # a mark measured with its light body stands for the whole die (a side
            # face's mark lying against the body is then seen as the same die), so it
            # wins over the same mark taken as a coloured face of its own
            hyps.append((max(score(f), f.body ** 2), f))
        elif is_mark(f, top_area):
            hyps.append((f.body ** 2, f))
    pattern = (_pattern_ids([f for _, f in hyps if cloth is None or f.cls in cloth])
               | _side_marks([f for _, f in hyps], side)
               | _shaded_marks([f for _, f in hyps], faces, side)
               | foreshortened_marks([f for _, f in hyps], side))
    hyps = [h for h in hyps if id(h[1]) not in pattern]
    tops: list[Face] = []
    for _, f in sorted(hyps, key=lambda sf: sf[0], reverse=True):
        if not any(_same_die(t, f, side) for t in tops) and not (drop and drop(f)):
            tops.append(f)  # (``drop`` asked only here: a die's lesser faces never are)
    tops = [_clipped_core(t, faces) for t in tops]
    tops = _uncut(tops + _lone_shaded(faces, tops, side, lambda f: f.edge >= min_edge and (
        is_top_shaped(replace(f, aspect=1.0), top_area, max_aspect=max_aspect,
                      min_fill=min_fill)) and not (drop and drop(f))), side, cloth or set())
    coloured = [t.centre for t in tops if not _uncoloured(t)]
    return [t for t in tops if not _uncoloured(t) or is_crisp_square(t) or all(
        np.hypot(t.centre[0] - x, t.centre[1] - y) >= 1.6 * side for x, y in coloured)]


def _lone_shaded(faces: list[Face], tops: list[Face], side: float,
                 is_top: Callable[[Face], bool], *, reach: float = 1.5) -> list[Face]:
    """Shaded bodies around a mark drawn out like a side face (``is_top_shaped`` leaves
    them out) that lie clear of every top (``reach`` dice): a side face hangs from its
    die's top, so one with none beside it is a top, drawn out by its own side face in
    the same shade (a light die in a deep shadow). ``is_top`` tells a top's size, fill
    and edge, whatever the aspect."""
    out: list[Face] = []
    drawn = [f for f in faces if f.cls == GREY and f.mark != NONE and f.aspect > 1.45
             and f.corners <= 1.9]
    for f in sorted(drawn, key=score, reverse=True):
        if all(_gap(f, t) > reach * side for t in tops + out) and is_top(f):
            out.append(f)
    return out


def _is_ragged_plain(face: Face) -> bool:
    """A face with no mark and no light body, more ragged than a die's rounded square."""
    return face.mark == NONE and face.body == 0 and face.corners > 1.75


def _uncut(tops: list[Face], side: float, cloth: set[int], *,
           reach: float = 1.6) -> list[Face]:
    """The tops but the ragged plain ones of one of the table's colour classes
    (``cloth``) lying within ``reach`` dice of a top that is not ragged and plain: a
    piece of the table that die's outline cuts off (a check, a patch of felt or wood
    beside it), however big; the die's edge makes part of its outline crisp."""
    clean = [t for t in tops if not _is_ragged_plain(t)]
    return [t for t in tops if not (_is_ragged_plain(t) and t.cls in cloth) or all(
        _gap(t, c) > reach * side for c in clean)]


def _clipped_core(top: Face, faces: list[Face], *, lit: float = 0.75) -> Face:
    """The top, or for a plain yellow one (not a light die's mark) lying inside a run of
    another game's colour (orange) at least ``lit`` times as bright as it, that run's
    colour: the camera clipped an orange top's lit middle to yellow, its rim stayed
    orange. A yellow die's own side faces and shadow around it are darker (half to 0.6
    of its top). Brightness as the picture shows it: clipped at white."""
    if top.cls != YELLOW or top.mark != NONE or top.body > 0:
        return top  # (a light die's mark: its body may look orange under a warm lamp)
    for f in faces:
        if f.cls == HUE and min(f.value, 255) >= lit * min(top.value, 255) and (
                cv2.pointPolygonTest(f.box.astype(np.float32), top.centre, False) >= 0):
            return replace(top, cls=HUE)
    return top


def _uncoloured(face: Face) -> bool:
    return face.mark == NONE and face.cls not in CLASS_NAMES


def _pattern_ids(faces: list[Face], *, group: int = 5) -> set[int]:
    """Ids of the faces that belong to a repeating pattern: at least ``group`` of one colour
    class with the same turn (within 6 degrees) and size (within 35%), at as many places,
    like the squares of a checkered cloth. Dice land at random turns, so a real die is
    almost never in such a group."""
    if len(faces) < group:
        return set()
    turns = np.array([turn(f) for f in faces])
    cls = np.array([f.cls for f in faces])
    area = np.array([f.area for f in faces])
    xy = np.array([f.centre for f in faces])
    out = set()
    for i, f in enumerate(faces):
        same = np.flatnonzero((cls == f.cls) & (np.abs((turns[i] - turns + 45) % 90 - 45) <= 6)
                              & (area >= 0.65 * f.area) & (area <= f.area / 0.65))
        if len(same) < group:
            continue
        reach = 0.7 * np.sqrt(f.area)
        spots = np.empty((0, 2))
        for j in same:  # one vote per place: a die may give several candidates
            if not len(spots) or np.hypot(*(spots - xy[j]).T).min() > reach:
                spots = np.vstack([spots, xy[j]])
                if len(spots) >= group:
                    out.update(id(faces[k]) for k in same)
                    break
    return out


def _body_light(face: Face) -> float:
    """Brightness of the light body around a face's mark (0 for a face without one)."""
    if face.body > 0:
        return face.body_value
    return face.value if face.mark != NONE and face.cls in (LIGHT, GREY) else 0.0


def _side_marks(faces: list[Face], side: float, *, reach: float = 1.25,
                shade: float = 0.92) -> set[int]:
    """Ids of the marks of light dice that lie within ``reach`` dice of another mark whose
    light body is clearly brighter (``shade``): a side face of that die, seen by a tilted
    camera. The lamp lights the tops of all dice alike and their sides less, so two dice
    lying side by side show bodies alike in brightness."""
    lit = [(f, _body_light(f)) for f in faces]
    lit = [(f, v) for f, v in lit if v > 0]
    sides = [f for f, v in lit if any(
        v < shade * w and _gap(f, g) <= reach * side for g, w in lit)]
    # the same mark found as a coloured face of its own (no body measured) goes with it
    plain = [f for f in faces if _body_light(f) == 0
             and any(_gap(f, s) <= 0.35 * side for s in sides)]
    return {id(f) for f in sides + plain}


def _shaded_marks(hyps: list[Face], faces: list[Face], side: float) -> set[int]:
    """Ids of the small coloured faces (under half a die) that are the mark of a shaded,
    mid-grey body holding just that one mark: a light die's side face in the shade (the
    lamp lights a top face's body light; a black die's body is darker still, and a die
    with coloured pips shows several)."""
    spots = [f.spots[0] for f in faces if f.cls == GREY and f.value >= 80 and f.marks == 1]
    return {id(f) for f in hyps
            if f.cls in CLASS_NAMES and f.mark == NONE and f.body == 0
            and f.area < 0.5 * side * side and any(
                c == f.cls and np.hypot(f.centre[0] - x, f.centre[1] - y) <= 0.25 * side
                for c, x, y, _ in spots)}


def _gap(a: Face, b: Face) -> float:
    return float(np.hypot(a.centre[0] - b.centre[0], a.centre[1] - b.centre[1]))


def turn(face: Face) -> float:
    """The face outline's turn in degrees, 0-90."""
    dx, dy = face.box[1] - face.box[0]
    return float(np.degrees(np.arctan2(dy, dx)) % 90)


def _extent(face: Face) -> float:
    return face.body ** 2 if face.body > 0 else face.area


def _same_die(top: Face, other: Face, side: float) -> bool:
    """True when ``other`` is too close to ``top`` to be another die's top face: nearer
    than a die's width, or a smaller, darker face lying against it (a side face in a
    tilted view), or a smaller ragged one, however bright (a piece of the cloth the
    die's outline cuts off)."""
    gap = np.hypot(top.centre[0] - other.centre[0], top.centre[1] - other.centre[1])
    if gap <= 0.72 * side:
        return True
    if top.mark != NONE and other.mark != NONE and gap <= 0.85 * side:
        return True  # two marks closer than two dice lying apart: a top and a side mark
    if is_doubtful_top(other) and gap < side and other.value < top.value:
        return True  # a darker ragged run nearer than two dice's tops lie: side and shadow
    if hangs_from(top, other, side):
        return True  # shaded and foreshortened towards the top: its side face, tilted view
    if _extent(other) >= 0.75 * _extent(top) or (
            other.value >= 0.95 * top.value and other.corners <= 1.8):
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
