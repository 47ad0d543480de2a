"""Squares of a checkered cloth: which face candidates are the cloth, not dice.

A checkered cloth's squares are square, crisp and often die-sized, but they all lie at
the grid's turn (``dice_segment.grid_turn``) and wear the cloth's colours, where dice land
at random turns. Split out of ``vision.dice``; ``params`` is its ``DiceParams``.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

import numpy as np

import cv2

from vision import dice_faces as faces_
from vision import dice_pick as pick
from vision.dice_grid import grid_share
from vision.dice_marks import RAYS
from vision.dice_repeat import is_pattern_tile
from vision.dice_segment import grid_turn, is_table_colour, model_bgr, quarter_sample

if TYPE_CHECKING:
    from vision.dice import DiceParams


def cloth_grid(work: np.ndarray, half: np.ndarray | None = None,
               picked: np.ndarray | None = None) -> float | None:
    """The turn (degrees, 0-90) of a checkered cloth's grid in ``work`` (H, W, 3) uint8
    BGR, or None: measured on the quarter-size frame, picked pixels first, then (when
    they show no grid) averaged ones, as a noisy frame's grain spreads the edges' turns.
    ``half`` is ``work`` averaged to half size, and ``picked`` its picked quarter
    (``dice_segment.quarter_sample``), if at hand (each saves a pass)."""
    quarter = (work.shape[1] // 4, work.shape[0] // 4)
    grid = grid_turn(quarter_sample(work) if picked is None else picked, min_edges=0.02)
    if grid is None:
        grid = grid_turn(cv2.resize(work if half is None else half, quarter,
                                    interpolation=cv2.INTER_AREA), min_edges=0.02)
    return grid


_SQUARE_CORNERS = 1.5  # a square's corners (farthest point / nearest side) are sqrt(2)


def is_cloth_square(face: faces_.Face, grid: float | None, params: DiceParams,
                    model: tuple, side: float, work: np.ndarray | None = None, *,
                    classes: set[int] | None = None) -> bool:
    """True for a piece of a checkered cloth's pattern (``_is_square``), or with the
    working image ``work`` (BGR) at hand, for a face of one of the cloth's colours whose
    outline lies mostly on the grid's lines (``is_grid_piece``), at any turn and shape:
    a check cut off by a die or by the frame (a die's edges end at its corners; the
    grid's lines run on). A mark that the face's body does not ring all round
    (``is_mark_ringed``) is no light die's mark, however near its middle. ``classes`` is
    ``table_classes(model, params)`` when the caller has it. A crisp die-sized square
    (corners near a square's sqrt(2)) turned like the grid none of whose outline lies on
    the grid's lines (``is_off_lines``) is a die: a tray's straight rim gives a frame a
    grid's turn, and a die lying square to it on the plain floor is bounded by its own
    edges only. Last, a face of one of the cloth's colours whose picture recurs all round
    it (``dice_repeat.is_pattern_tile``) is a tile of the pattern, whatever its turn and
    lines (a check in a far corner turned by the perspective; one whose lines a glare
    washed out): the grid's turn is measured once for the frame."""
    if grid is None:
        return False
    classes = table_classes(model, params) if classes is None else classes
    tile = work is not None and (face.cls in classes or face.mark in classes)
    if (work is not None and face.area >= 0.5 * side * side and pick.is_crisp_square(face)
            and face.corners <= _SQUARE_CORNERS
            and abs((pick.turn(face) - grid + 45) % 90 - 45) <= 5
            and is_off_lines(face, work, grid, side)):
        # a crisp die-sized square no line of the grid runs along: a die, unless its
        # picture recurs all round it (a check whose lines a glare washed out)
        return tile and is_pattern_tile(work, face.centre, side)
    # a mark its body does not ring is a colour at its edge (asked only of a mark within
    # 0.15 of the middle: one further out counts as off it below anyway)
    if (work is not None and face.mark != faces_.NONE and face.mark_off <= 0.15
            and not is_mark_ringed(face, work, params)):
        face = replace(face, mark_off=1.0)
    return _is_square(face, grid, params, model, side, classes) or (
        work is not None and is_grid_piece(face, work, grid, params, model, side,
                                           classes=classes)) or (
        tile and is_pattern_tile(work, face.centre, side))


def _is_square(face: faces_.Face, grid: float | None, params: DiceParams, model: tuple,
               side: float, classes: set[int]) -> bool:
    """True for a square of a checkered cloth: turned like the cloth's grid (a die matches
    the grid's turn only by chance) and near one of the table's colours (loosely, for the
    frame's corners are darker); a light square with a coloured corner of the next square
    inside looks like a marked face, but is not square, and its colour is not in its
    middle as a light die's mark is. A crisp square of a die's size (``side``) whose
    colour class none of the cloth's colours has is a die (a shaded yellow is near a
    brown cloth in colour distance, not in hue). Two squares joined at a corner make one
    run whose rectangle lies along their diagonal, 45 degrees from the grid, and is only
    about half their colour (``agree``): cloth too; so is a plain ragged run taken whole
    (``dice_pick.is_doubtful_top``) of one of the cloth's Toss Up colour classes and
    under 0.6 of it in that colour, whatever its turn (squares cut and joined by a die's
    shadow and side faces)."""
    if grid is None:
        return False
    if (pick.is_doubtful_top(face) and face.mark == faces_.NONE and face.agree < 0.6
            and face.cls in faces_.CLASS_NAMES and face.cls in classes):
        return True  # squares of its colour cut and joined by a die's shadow and sides
    diagonal = abs((pick.turn(face) - grid) % 90 - 45) <= 5
    if diagonal and face.agree < 0.6 and (
            face.mark == faces_.NONE and face.body == 0 and is_table_colour(
                face.bgr, threshold=1.6 * params.fg_threshold, model=model)):
        return True  # two squares joined at a corner: their outline lies along the diagonal
    if diagonal and face.mark != faces_.NONE and face.body == 0:
        return _ragged_marked(face, params, model)  # two light squares, a corner between
    if abs((pick.turn(face) - grid + 45) % 90 - 45) > 5:
        return False
    if (face.cls in faces_.CLASS_NAMES and face.area >= 0.5 * side * side
            and pick.is_crisp_square(face) and face.cls not in classes):
        return False  # a crisp, die-sized square of a colour the cloth does not have
    if face.body > 0:  # a coloured square ringed by light ones looks like a die's mark,
        # but it meets the squares of its colour at its corners: a mark the light body
        # rings all round is a light die's (as ``dice_pick.is_table_like``), whatever its
        # turn (a round mark's rectangle lies at any turn, often the grid's), when that
        # body is a die's size (glare whitens the squares around a square far wider)
        return (face.ring < 0.9 or not pick.is_mark(face, side * side)) and is_table_colour(
            face.bgr, threshold=params.fg_threshold, model=model)
    if face.mark != faces_.NONE:
        return _ragged_marked(face, params, model)
    return is_table_colour(face.bgr, threshold=1.6 * params.fg_threshold, model=model)


def is_grid_piece(face: faces_.Face, work: np.ndarray, grid: float, params: DiceParams,
                  model: tuple, side: float, *, min_share: float = 0.5,
                  classes: set[int] | None = None) -> bool:
    """True for a piece of a checkered cloth: a face (or its mark) of one of the cloth's
    colour classes with ``min_share`` of its outline or more on the lines of the grid
    turned ``grid`` degrees in ``work`` (BGR; ``side`` a die's edge, working pixels).
    A die-sized light face with its mark in the middle is a light die's top, whatever
    its outline (its body runs into a light square it lies on). ``classes`` is
    ``table_classes(model, params)`` when the caller has it."""
    classes = table_classes(model, params) if classes is None else classes
    if face.outline is None or face.cls not in classes:
        return False
    if face.mark != faces_.NONE and face.mark_off <= 0.15 and face.area >= 0.5 * side * side:
        return False  # a light die's mark in the middle of its top
    return grid_share(work, face.outline, grid, side) >= min_share


def is_off_lines(face: faces_.Face, work: np.ndarray, grid: float, side: float, *,
                 max_share: float = 0.1) -> bool:
    """True for a face whose outline lies off the grid's lines in ``work`` (BGR): under
    ``max_share`` of it on them (``dice_grid.grid_share``). A check of a cloth is bounded
    by the grid's lines, which run on past its corners; a die is bounded by its own
    edges, which end at its corners. False for a face with no outline."""
    if face.outline is None:
        return False
    return grid_share(work, face.outline, grid, side) < max_share


def is_mark_ringed(face: faces_.Face, work: np.ndarray, params: DiceParams, *,
                   min_rays: float = 0.75) -> bool:
    """True when the light body shows all round ``face``'s mark (its biggest spot of
    the mark's colour, in ``work`` BGR): along ``min_rays`` of 16 rays out of the spot,
    what lies past the mark's colour is the face's own class (``params``' classes: a
    light body, grey in a shadow) within two pixels.
    A light die's mark is a patch inside its light top; a die's side face reaching into
    a light square of a check touches the square's edge, the die's top and its shade lie
    past it on one side. True when the face has no spot to look at."""
    spots = [s for s in face.spots if s[0] == face.mark]
    if not spots:
        return True
    _, x, y, _ = max(spots, key=lambda s: s[3])
    reach = int(np.ceil(np.sqrt(face.area))) + 2  # a die's edge out of the spot
    x0, y0 = max(0, int(x) - reach), max(0, int(y) - reach)
    crop = work[y0:int(y) + reach + 1, x0:int(x) + reach + 1]
    if crop.shape[0] < 4 or crop.shape[1] < 4:
        return True
    cls = faces_.class_map(cv2.cvtColor(crop, cv2.COLOR_BGR2HSV), params.hue_edges,
                           min_sat=params.min_sat, light_value=params.light_value,
                           min_value=params.min_value)
    steps = np.arange(1.0, reach - 1.0)
    pts = np.array([x - x0, y - y0]) + RAYS[:, None, :] * steps[None, :, None]
    xs = np.clip(np.round(pts[..., 0]).astype(int), 0, crop.shape[1] - 1)
    ys = np.clip(np.round(pts[..., 1]).astype(int), 0, crop.shape[0] - 1)
    seen = cls[ys, xs]  # (16 rays, steps)
    past = seen != face.mark
    first = np.where(past.any(axis=1), past.argmax(axis=1), seen.shape[1])
    body = [(seen[i, k:k + 3] == face.cls).any() for i, k in enumerate(first)]
    return float(np.mean(body)) >= min_rays




def _ragged_marked(face: faces_.Face, params: DiceParams, model: tuple) -> bool:
    """True for a face with a mark that is the cloth's: ragged, of a table colour, its
    mark off its middle (a light die's mark sits in the middle of a crisp square)."""
    centred = face.cls == faces_.LIGHT and face.mark_off <= 0.15  # a light die's mark
    return face.corners > 1.8 and not centred and is_table_colour(
        face.bgr, threshold=params.fg_threshold, model=model)


def table_classes(model: tuple, params: DiceParams) -> set[int]:
    """The colour classes (``dice_faces``) of the table's dominant colours."""
    bgr = np.repeat(model_bgr(model)[:, None], 8, axis=1)  # (a tiny array is a scalar)
    hsv = cv2.cvtColor(bgr, cv2.COLOR_BGR2HSV)
    return set(faces_.class_map(hsv, params.hue_edges, min_sat=params.min_sat,
                                light_value=params.light_value,
                                min_value=params.min_value).ravel().tolist())
