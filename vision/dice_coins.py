"""Coins (and round counters) told from dice by the shape of their outline in the image.

A coin is a flat disc: seen from above its sharp outer edge is a circle, and under a
tilted camera an ellipse. A die's top face is a (rounded) square, and with its side faces
in view a hexagon: its outline strays from the best-fitting ellipse at its corners. The
outline is found in the image itself, not in a mask (the foreground and edge masks are
made at half size and their blobs take in the die's soft shadow, so that a small die's
blob looks as round as a coin's): along rays from the candidate's centre, the middle of
the outermost edge where the brightness or saturation gradient reaches half its peak on
that ray; for a blob of the foreground, only edges on or near the blob count. At
the typical die size (20-40 pixels) a coin's outline lies within 1-2% of its radius from
the fitted ellipse at the median; dice, rounded corners and all, stray 3% or more (median
7% on the rendered suite's and the real photos' dice).
"""

from __future__ import annotations

import numpy as np

import cv2

from vision.cvcompat import remap
from vision.dice_faces import CLASS_NAMES, NONE, YELLOW, Face, gradient

_RAYS = 48
_ANGLES = np.linspace(0.0, 2 * np.pi, _RAYS, endpoint=False)
_REACH = (0.2, 1.0)  # rays run from this share of a die's edge to this one
_MIN_EDGE = 40.0  # least gradient peak on a ray for its edge to count
_MAX_OFF = 0.02  # median stray from the ellipse (share of its radius) of a coin
_MARGIN = 0.1  # how far (share of a die's edge) an outline may lie outside its foreground


def ellipse_stray(work: np.ndarray, centre: tuple[float, float], side: float,
                  mask: np.ndarray | None = None) -> float | None:
    """Median distance of the outline around ``centre`` (x, y) from its best-fitting
    ellipse, as a share of the ellipse's radius there; None when fewer than two thirds
    of the rays meet a clear edge inside a die's edge ``side`` (no closed outline).

    ``work`` is the BGR working image; ``mask`` (0/255, ``work``'s size), when given, is
    the foreground the thing lies in: edges farther than ``_MARGIN`` of a die's edge from
    it are the table's (wood grain, felt) and are left out of the outline search.
    """
    cx, cy = centre
    lo, hi = _REACH[0] * side, _REACH[1] * side
    x0, y0 = int(max(0.0, cx - hi - 2)), int(max(0.0, cy - hi - 2))
    x1, y1 = int(min(work.shape[1], cx + hi + 3)), int(min(work.shape[0], cy + hi + 3))
    if x1 - x0 < 4 or y1 - y0 < 4:
        return None
    grad = gradient(cv2.cvtColor(work[y0:y1, x0:x1], cv2.COLOR_BGR2HSV)).astype(np.float32)
    if mask is not None:
        grad *= _near(mask[y0:y1, x0:x1], max(2, round(_MARGIN * side)))
    radii = np.arange(lo, hi, 0.5, dtype=np.float32)
    cos, sin = np.cos(_ANGLES)[:, None], np.sin(_ANGLES)[:, None]
    map_x = (cx - x0 + cos * radii).astype(np.float32)
    map_y = (cy - y0 + sin * radii).astype(np.float32)
    prof = remap(grad, map_x, map_y, cv2.INTER_LINEAR, borderValue=0)
    peak = prof.max(axis=1)
    half = 0.5 * peak[:, None]
    last = len(radii) - 1 - np.argmax(prof[:, ::-1] >= half, axis=1)
    ok = (peak >= _MIN_EDGE) & (last < len(radii) - 1)  # an edge, inside the reach
    if ok.sum() < 2 * _RAYS / 3:
        return None
    r = _lobe_centres(prof[ok], half[ok], last[ok], radii)
    pts = np.stack([cx + cos[ok, 0] * r, cy + sin[ok, 0] * r], axis=1).astype(np.float32)
    (ex, ey), (a, b), ang = cv2.fitEllipse(pts)
    if min(a, b) < 1.0:
        return None
    t = np.radians(ang)
    d = pts - np.array([ex, ey], np.float32)
    u = d[:, 0] * np.cos(t) + d[:, 1] * np.sin(t)
    v = d[:, 1] * np.cos(t) - d[:, 0] * np.sin(t)
    return float(np.median(np.abs(np.hypot(u / (a / 2), v / (b / 2)) - 1.0)))


def _lobe_centres(prof: np.ndarray, half: np.ndarray, last: np.ndarray,
                  radii: np.ndarray) -> np.ndarray:
    """The middle of each ray's outermost edge: the centroid of the gradient above half
    its peak (``half``, (N, 1)) over the run of ``prof`` (N, R) ending at index ``last``.
    A soft (blurred) edge is wide: its outer shoulder wanders with the table's texture
    and the foreground's cut, its middle does not."""
    idx = np.arange(prof.shape[1])[None, :]
    below = (prof < half) & (idx < last[:, None])
    start = np.where(below.any(axis=1), prof.shape[1] - np.argmax(below[:, ::-1], axis=1), 0)
    weight = np.where((idx >= start[:, None]) & (idx <= last[:, None]), prof - half, 0.0)
    return (weight * radii[None, :]).sum(axis=1) / np.maximum(weight.sum(axis=1), 1e-6)


def _near(mask: np.ndarray, reach: int) -> np.ndarray:
    """1.0 where ``mask`` (0/255) is set or lies within ``reach`` pixels, else 0.0."""
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * reach + 1, 2 * reach + 1))
    return (cv2.dilate(mask, kernel) > 0).astype(np.float32)


def is_coin(work: np.ndarray, centre: tuple[float, float], side: float,
            mask: np.ndarray | None = None) -> bool:
    """True when the outline around ``centre`` (x, y) is an ellipse, not a die's square:
    a coin or a round counter, whatever its colour; ``mask`` as in ``ellipse_stray``."""
    stray = ellipse_stray(work, centre, side, mask)
    return stray is not None and stray < _MAX_OFF


def may_be_disc(face: Face, side: float) -> bool:
    """True for a face candidate that may be a coin (its outline decides: ``is_coin``):
    a round one (corners under 1.3) of no Toss Up colour and without a mark, or of any
    colour when it is at least 0.4 of a die's face (``side`` its edge) and either plain
    (holes under 0.05: no pips, no mark) or mostly its mark (holes 0.4 or more: a disc
    on a light table): a brass or copper coin. A face that is mostly a yellow mark is
    asked whatever its shape: a brass or copper coin's middle read as the mark of a
    light die whose body is the coin's ragged, lit rim (a Toss Up mark covers about a
    quarter of its face). So is a plain round yellow spot measured with a light body,
    whatever its size: a brass coin on a light table, the table taken for the body."""
    if face.mark == YELLOW and face.holes >= 0.4:
        return True
    if face.corners >= 1.3:
        return False
    if face.mark == NONE and face.cls not in CLASS_NAMES:
        return True
    if face.cls == YELLOW and face.body > 0 and face.holes < 0.05:
        return True  # a round yellow spot ringed by light: a mark, or brass on a light table
    return face.area >= 0.4 * side * side and (
        face.holes < 0.05 or (face.mark != NONE and face.holes >= 0.4))
