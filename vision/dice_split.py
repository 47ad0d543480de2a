"""Touching dice of one colour: split a merged face into the dice it covers.

Two dice of one colour lying side by side show one run of that colour: a clean rectangle
about one die wide and two long; four in a 2x2 block show a square two dice wide. The seam
between them is often too thin to split the run. Dice all have one size, so such a run is
cut into die-sized squares along its rectangle; a run of any other shape is left alone.
Light dice with a coloured mark on each face merge the same way (their light bodies run
on), but each die brings its own mark: a light run holding several marks is cut into as
many cells as its shape and marks say, each cell taking the mark inside it.
Points are (x, y) work-image pixels.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

import cv2

from vision.dice_faces import CLASS_NAMES, LIGHT, NONE, Face


def split_merged(faces: list[Face], side: float, *, min_fill: float = 0.72,
                 min_edge: float = 100.0) -> list[Face]:
    """The die-sized pieces of the faces that look like 1x2 or 2x2 blocks of touching dice.

    Parameters
    ----------
    faces : face candidates (``dice_faces.Face``)
    side : die edge length in pixels
    min_fill : least share of its rectangle a merged run must cover (a clean block)
    min_edge : least mean gradient along its outline (dice are crisp, table blotches soft)

    Returns
    -------
    list of Face
        New candidates, one per die of each block found; the faces given are not included.
    """
    out: list[Face] = []
    for face in faces:
        if face.cls not in CLASS_NAMES or face.mark != NONE or face.body > 0:
            continue
        if face.fill < min_fill or face.whole or face.edge < min_edge or face.agree < 0.8:
            continue  # ragged, soft or blotchy: a patch of the table, not dice
        grid = _block(face.box, side)
        if grid is not None:
            out += _pieces(face, *grid)
    return out


def _block(box: np.ndarray, side: float) -> tuple[int, int] | None:
    """(pieces along the box's first edge, along its second) for a block of 2 or 4 dice."""
    a = float(np.linalg.norm(box[1] - box[0]))
    b = float(np.linalg.norm(box[2] - box[1]))
    short, long_ = min(a, b), max(a, b)
    if 0.75 * side <= short <= 1.3 * side and 1.65 <= long_ / short <= 2.4:
        return (2, 1) if a > b else (1, 2)
    if 1.65 * side <= short and long_ <= 2.5 * side and long_ <= 1.25 * short:
        return 2, 2
    return None


def _pieces(face: Face, na: int, nb: int) -> list[Face]:
    """The face's rectangle cut into ``na`` x ``nb`` equal pieces, each as a Face."""
    o, u, v = face.box[0], face.box[1] - face.box[0], face.box[3] - face.box[0]
    unit = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], np.float64)
    out = []
    for i in range(na):
        for j in range(nb):
            s, t = (i + unit[:, 0]) / na, (j + unit[:, 1]) / nb
            box = (o + s[:, None] * u + t[:, None] * v).astype(np.float32)
            lu, lv = np.linalg.norm(u) / na, np.linalg.norm(v) / nb
            out.append(replace(face, box=box, centre=tuple(float(c) for c in box.mean(axis=0)),
                               area=face.area / (na * nb),
                               aspect=max(lu, lv) / max(min(lu, lv), 1e-6),
                               corners=min(face.corners, 1.45)))
    return out


def split_blocks(faces: list[Face]) -> list[Face]:
    """The faces with every light run holding several marks (a block of touching light
    dice) replaced by one face per mark: 1x2 for a long run with two marks, 2x2 for a
    square one with three or four. Blocks of any other shape are left as they are."""
    out: list[Face] = []
    for face in faces:
        if face.marks < 2 or face.body > 0 or face.cls != LIGHT:
            out.append(face)
            continue
        grid = _block_of_marks(face)
        if grid is None:
            out.append(face)
            continue
        a = float(np.linalg.norm(face.box[1] - face.box[0]))
        b = float(np.linalg.norm(face.box[2] - face.box[1]))
        na, nb = grid if a >= b else grid[::-1]
        out += [p for p in (_with_own_mark(c) for c in _pieces(face, na, nb)) if p is not None]
    return out


def several_marks(face: Face, *, min_edge: float = 100.0) -> bool:
    """True for a crisp light run holding two or more marks alike in size, each at least
    a twentieth of the run: several light dice touching, not one die (a die's coloured
    pips are smaller, and its side's mark is foreshortened)."""
    shares = [s[3] for s in face.spots]
    return (face.cls == LIGHT and face.edge >= min_edge and len(shares) >= 2
            and min(shares) >= 0.05 and max(shares) <= 1.5 * min(shares))


def _block_of_marks(face: Face, *, min_edge: float = 100.0) -> tuple[int, int] | None:
    """(2, 1) for a long light run with two marks, (2, 2) for a square one with three or
    four; else None. The run must be crisp (``min_edge``, as in ``split_merged``) and its
    marks alike in size (one set of dice) and big: a mark covers a sixth to a third of its
    die's face, so at least a twelfth of a 1x2 block and a twentieth of a 2x2 one. Pips
    are smaller, and a die's pips are not all alike in colour and size with its run crisp."""
    if not several_marks(face, min_edge=min_edge):
        return None
    shares = [s[3] for s in face.spots]
    if face.aspect >= 1.6 and len(shares) == 2 and min(shares) >= 0.08:
        return 2, 1
    if face.aspect < 1.35 and len(shares) in (3, 4) and min(shares) >= 0.05:
        return 2, 2
    return None


def _with_own_mark(cell: Face) -> Face | None:
    """A cell of a light block as a face carrying the mark nearest its centre (None if no
    mark lies in it)."""
    cx, cy = cell.centre
    edge = float(np.sqrt(max(cell.area, 1.0)))
    outline = cell.box.astype(np.float32)
    inside = [(np.hypot(x - cx, y - cy), code, x, y, share) for code, x, y, share in cell.spots
              if cv2.pointPolygonTest(outline, (float(x), float(y)), False) >= 0]
    if not inside:
        return None
    dist, code, x, y, share = min(inside)
    return replace(cell, mark=code, spots=((code, x, y, share),), mark_off=float(dist / edge))
