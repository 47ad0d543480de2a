"""Squares of a checkered cloth: which face candidates are the cloth, not dice.

A checkered cloth's squares are square, crisp and often die-sized, but they all lie at
the grid's turn (``dice_segment.grid_turn``) and wear the cloth's colours, where dice land
at random turns. Split out of ``vision.dice``; ``params`` is its ``DiceParams``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

import cv2

from vision import dice_faces as faces_
from vision import dice_pick as pick
from vision.dice_grid import grid_share
from vision.dice_segment import grid_turn, is_table_colour, model_bgr

if TYPE_CHECKING:
    from vision.dice import DiceParams


def cloth_grid(work: np.ndarray, half: np.ndarray | None = None) -> float | None:
    """The turn (degrees, 0-90) of a checkered cloth's grid in ``work`` (H, W, 3) uint8
    BGR, or None: measured on the quarter-size frame, picked pixels first, then (when
    they show no grid) averaged ones, as a noisy frame's grain spreads the edges' turns.
    ``half`` is ``work`` averaged to half size, if at hand (it saves a pass)."""
    quarter = (work.shape[1] // 4, work.shape[0] // 4)
    grid = grid_turn(cv2.resize(work, quarter, interpolation=cv2.INTER_NEAREST),
                     min_edges=0.02)
    if grid is None:
        grid = grid_turn(cv2.resize(work if half is None else half, quarter,
                                    interpolation=cv2.INTER_AREA), min_edges=0.02)
    return grid


def is_cloth_square(face: faces_.Face, grid: float | None, params: DiceParams,
                    model: tuple, side: float, work: np.ndarray | None = None) -> bool:
    """True for a piece of a checkered cloth's pattern (``_is_square``), or with the
    working image ``work`` (BGR) at hand, for a face of one of the cloth's colours whose
    outline lies mostly on the grid's lines (``is_grid_piece``), at any turn and shape:
    a check cut off by a die or by the frame (a die's edges end at its corners; the
    grid's lines run on)."""
    return _is_square(face, grid, params, model, side) or (
        grid is not None and work is not None
        and is_grid_piece(face, work, grid, params, model, side))


def _is_square(face: faces_.Face, grid: float | None, params: DiceParams, model: tuple,
               side: float) -> bool:
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
            and face.cls in faces_.CLASS_NAMES and face.cls in table_classes(model, params)):
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
            and pick.is_crisp_square(face) and face.cls not in table_classes(model, params)):
        return False  # a crisp, die-sized square of a colour the cloth does not have
    if face.body > 0:  # a coloured square ringed by light ones looks like a die's mark
        return is_table_colour(face.bgr, threshold=params.fg_threshold, model=model)
    if face.mark != faces_.NONE:
        return _ragged_marked(face, params, model)
    return is_table_colour(face.bgr, threshold=1.6 * params.fg_threshold, model=model)


def is_grid_piece(face: faces_.Face, work: np.ndarray, grid: float, params: DiceParams,
                  model: tuple, side: float, *, min_share: float = 0.5) -> bool:
    """True for a piece of a checkered cloth: a face (or its mark) of one of the cloth's
    colour classes with ``min_share`` of its outline or more on the lines of the grid
    turned ``grid`` degrees in ``work`` (BGR; ``side`` a die's edge, working pixels).
    A die-sized light face with its mark in the middle is a light die's top, whatever
    its outline (its body runs into a light square it lies on)."""
    if face.outline is None or face.cls not in table_classes(model, params):
        return False
    if face.mark != faces_.NONE and face.mark_off <= 0.15 and face.area >= 0.5 * side * side:
        return False  # a light die's mark in the middle of its top
    return grid_share(work, face.outline, grid, side) >= min_share


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
