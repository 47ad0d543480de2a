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

from collections.abc import Callable
from dataclasses import replace

import numpy as np

import cv2

from vision.cvcompat import warp_affine
from vision.dice_faces import CLASS_NAMES, LIGHT, NONE, Face, has_pips
from vision.dice_measure import blob_stats


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
        own = face.agree + (face.holes if has_pips(face) else 0.0)  # (pips are the dice's)
        if face.fill < min_fill or face.whole or face.edge < min_edge or own < 0.8:
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


def guess_side(raw: np.ndarray, luma: Callable[[], np.ndarray], *, min_side: float,
               max_side: float, split_above: float = 0.0) -> float:
    """Typical die edge length from the compact foreground blobs (``raw``, 0/255; ``luma``
    gives its brightness when asked): the size at which the dice this size or smaller hold
    35% of the sum. A blob's short side and the root of its area must reach ``min_side``
    (a speck smaller than any die tells nothing of their size) and its long side stay
    within 0.9 ``max_side`` (pixels of ``raw``). When the blobs taken whole put the size above
    ``split_above``, blocks of touching dice count as their dice (``seam_sides``): a
    frame whose dice all touch is guessed at twice their size (the caller shrinks frames
    of big dice; a smaller guess changes little)."""
    _, stats, _ = blob_stats(raw)
    bw, bh, area = stats[1:, 2], stats[1:, 3], stats[1:, 4]
    short, long_ = np.minimum(bw, bh), np.maximum(bw, bh)
    ok = ((short >= min_side) & (long_ <= 0.9 * max_side) & (area >= min_side * min_side)
          & (long_ < 2.2 * short) & (area > 0.4 * bw * bh))
    x, y = stats[1:, 0], stats[1:, 1]
    inside = (x > 0) & (y > 0) & (x + bw < raw.shape[1]) & (y + bh < raw.shape[0])
    if (ok & inside).any():  # a blob cut by the frame's edge (a hand reaching in) says
        ok &= inside         # nothing of its size
    if not ok.any():
        return raw.shape[1] / 30
    # weigh blobs by their size: many specks of a textured table must not outvote a die,
    # nor a card or a hand all the dice
    side = _typical(np.sort(np.sqrt(area[ok].astype(np.float64))))
    if side <= split_above:
        return side
    return _typical(np.sort(seam_sides(stats[1:][ok], raw, luma())))


def _typical(sides: np.ndarray) -> float:
    """The size (sorted ``sides``) at which the smaller ones hold 35% of their sum."""
    cum = np.cumsum(sides)
    i = int(np.searchsorted(cum, 0.35 * cum[-1]))
    if i > 0 and i == len(sides) - 1 and sides[i] > 3 * sides[i - 1]:
        i -= 1  # one blob far bigger than all others (glare, a card; not a pile of dice)
    return float(sides[i])


def seam_sides(stats: np.ndarray, mask: np.ndarray, luma: np.ndarray, *,
               share: float = 0.35) -> np.ndarray:
    """The edge (``sqrt`` of the area) of each blob's dice: a blob that is a 1x2 or 2x2
    block of touching dice (``seam_pieces``) counts as that many dice of a share of its area.

    Parameters
    ----------
    stats : blob stats rows (x, y, w, h, area), as ``blob_stats`` gives them
    mask : the blobs' mask (uint8, 0/255)
    luma : the brightness image of the same size (uint8)
    share : only blobs at least as big as the size at which the smaller blobs hold this
        share of the sum of blob edges are looked at (the die size guess's cut: smaller
        blocks cannot make the guess too big)

    Returns
    -------
    ndarray of float
        One edge per die, a block's pieces in turn.
    """
    plain = np.sqrt(stats[:, 4].astype(np.float64))
    order = np.sort(plain)
    cut = order[int(np.searchsorted(np.cumsum(order), share * order.sum()))] if len(order) else 0
    out: list[float] = []
    for (x, y, w, h, _), edge in zip(stats, plain):
        small = edge < cut or min(w, h) < 10  # (``seam_pieces``' least square)
        n = 1 if small else seam_pieces(mask[y:y + h, x:x + w], luma[y:y + h, x:x + w])
        out += [float(edge / np.sqrt(n))] * n
    return np.array(out, np.float64)


def seam_pieces(blob: np.ndarray, luma: np.ndarray, *, min_drop: float = 25.0,
                min_piece: float = 10.0, min_fill: float = 0.8) -> int:
    """How many die-sized squares (1, 2 or 4) a blob splits into along straight dark seams
    through its middle, each across the blob's whole width.

    The blob is turned square to its least rectangle; a seam is a line in its middle
    (0.3-0.7 of the way) whose brighter pixels (70th percentile along it) are darker by
    ``min_drop`` levels and a tenth than the typical (median) line on each side of it. A
    mark or pips in a die's middle leave the body's light on both sides of them along the
    line, so they make no seam; nor does a side face, which lies on one side only. Each
    square must be ``min_piece`` pixels across or more (a small die's pips are a texture
    as coarse as its seams would be), and the blob must fill ``min_fill`` of its rectangle
    (touching dice make a clean block; a die's shadow or a blob of a die and its
    neighbour's side face is ragged).
    """
    pts = cv2.findNonZero(blob)
    if pts is None or len(pts) < 64:
        return 1
    (cx, cy), (rw, rh), angle = cv2.minAreaRect(pts)
    if min(rw, rh) < min_piece or len(pts) < min_fill * rw * rh:
        return 1
    turn = cv2.getRotationMatrix2D((cx, cy), angle, 1.0)
    turn[:, 2] += (rw / 2 - cx, rh / 2 - cy)
    size = (int(round(rw)), int(round(rh)))
    aspect = max(rw, rh) / min(rw, rh)
    square = aspect < 1.3 and min(rw, rh) >= 2 * min_piece
    if not (square or 1.6 <= aspect <= 2.4):
        return 1
    flat = warp_affine(np.ascontiguousarray(luma), turn, size, flags=cv2.INTER_LINEAR)
    inside = cv2.warpAffine(blob, turn, size, flags=cv2.INTER_NEAREST) > 0
    if square:  # a 2x2 block: a seam each way
        return 4 if _seam(flat, inside, 1, min_drop) and _seam(flat, inside, 0, min_drop) else 1
    return 2 if _seam(flat, inside, 1 if rh > rw else 0, min_drop) else 1  # across the long way


def _seam(flat: np.ndarray, inside: np.ndarray, axis: int, min_drop: float) -> bool:
    """True when a line across ``axis`` (1: a row) in the middle of ``flat`` is a seam."""
    vals = np.where(inside, flat, 0)  # outside the blob: dark (a clean block has little)
    n = flat.shape[1 - axis]
    cut = int(0.1 * flat.shape[axis])
    band = vals[:, cut:flat.shape[1] - cut] if axis == 1 else vals[cut:flat.shape[0] - cut]
    if n < 8 or band.size == 0:
        return False
    line = np.sort(band, axis=axis).take(int(0.7 * (band.shape[axis] - 1)), axis=axis)
    lo, hi = int(0.3 * n), int(0.7 * n) + 1
    k = lo + int(np.argmin(line[lo:hi]))
    before, after = line[int(0.1 * n):max(k - 1, int(0.1 * n) + 1)], line[k + 2:int(0.9 * n)]
    if before.size == 0 or after.size == 0:
        return False
    light = min(float(np.median(before)), float(np.median(after)))
    return light - float(line[k]) >= min_drop and float(line[k]) <= 0.9 * light
