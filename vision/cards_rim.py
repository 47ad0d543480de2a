"""The outline of one card seen alone, put on the card's outer edge (for teaching a deck).

A taught face is the deck's only picture of that card, so a crop a few pixels off (a side
on the printed frame inside the card, or out on its shadow) costs every later reading of
it. The outline search's quad is close; here each side is moved onto the card's edge.
Across the side, the colour's rate of change is sampled along ``RIM_SAMPLES`` short
profiles; an edge point is a sharp peak of that rate, well above the side's median rate,
and not a step from the table into a shadow on it (the table's colour, darker). Of the
straight lines within ``RIM_BAND`` of the side (its two ends moved independently) that
pass through an edge point on ``RIM_SUPPORT`` of the profiles, the outermost is the card's
edge, since a card's printed frames and art all lie inside it. Corners are where the
sides meet.
"""

from __future__ import annotations

import functools

import cv2
import numpy as np

from vision.cards_snap import meet as line_meet
from vision.cvcompat import remap
from vision.frames import check_frame

RIM_BAND = 0.10  # how far a side may move, as a fraction of the card's long side
RIM_STEP = 0.5  # pixels between the offsets tried
RIM_SAMPLES = 40  # profiles across each side
RIM_SUPPORT = 0.6  # share of a side's profiles that must show an edge point on its line
RIM_NOISE = 3.0  # an edge point's rate is this many times the median rate, or more
RIM_MIN = 4.0  # weakest edge point taken, colour levels per pixel
#: A shadow on the table is the table's own colour darker: each channel inside the step,
#: over the same channel outside it (``SHADOW_GAP`` pixels either side), lies in
#: ``SHADOW_RATIO`` and the channels' ratios differ by at most ``SHADOW_HUE``. A card's
#: black or dark border is darker than that.
SHADOW_GAP, SHADOW_RATIO, SHADOW_HUE = 2.0, (0.45, 0.97), 0.08


def frame_and_quad(frame: np.ndarray, quad: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Check a BGR uint8 ``frame`` and a (4, 2) ``quad``; the quad as float32 and its four
    side lengths (side i runs from corner i to corner i + 1)."""
    check_frame(frame)
    q = np.asarray(quad, np.float32)
    if q.shape != (4, 2):
        raise ValueError(f"quad must be 4 corners (x, y), shape (4, 2), not {q.shape}")
    return q, np.hypot(*(np.roll(q, -1, axis=0) - q).T)


def snap_to_rim(frame: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """``quad`` (4, 2) float32 (x, y) with each side moved onto the card's outer edge.

    Parameters
    ----------
    frame : ndarray of shape (H, W, 3), uint8, BGR
    quad : ndarray of shape (4, 2)
        Corners (x, y) in order round the card.

    Returns
    -------
    quad : ndarray of shape (4, 2), float32, corners in the same order; a side with no
        clear edge near it stays where it was.
    """
    q, sides = frame_and_quad(frame, quad)
    band = max(3.0, RIM_BAND * float(sides.max()))
    h, w = frame.shape[:2]
    x0, y0 = np.maximum(np.floor(q.min(axis=0) - 2 * band - 4), 0).astype(int)
    x1, y1 = np.ceil(q.max(axis=0) + 2 * band + 5).astype(int)
    corner = np.array([x0, y0], np.float32)  # the card's surroundings only are looked at
    smooth = cv2.GaussianBlur(frame[y0:min(y1, h), x0:min(x1, w)], (0, 0), 1.0
                              ).astype(np.float32)
    q = q - corner
    centre = q.mean(axis=0)
    lines = []
    for i in range(4):
        p0, p1 = q[i], q[(i + 1) % 4]
        normal = _outward(p0, p1, centre)
        mid = (p0 + p1) / 2 + corner
        if min(mid[0], mid[1], w - 1 - mid[0], h - 1 - mid[1]) < 3:
            lines.append((p0, p1))  # the card runs out of the picture here: no edge to see
            continue
        d0, d1 = _side_offsets(smooth, p0, p1, normal, band)
        lines.append((p0 + d0 * normal, p1 + d1 * normal))
    out = q.copy()
    for i in range(4):
        meet = line_meet(lines[i - 1], lines[i])
        if meet is not None and np.hypot(*(meet - q[i])) < 3 * band:
            out[i] = meet
    return out + corner


def _outward(p0: np.ndarray, p1: np.ndarray, centre: np.ndarray) -> np.ndarray:
    """Unit normal of side p0-p1 pointing away from ``centre``."""
    d = p1 - p0
    n = np.array([-d[1], d[0]], np.float32) / max(float(np.hypot(*d)), 1e-6)
    return n if float(np.dot((p0 + p1) / 2 - centre, n)) >= 0 else -n


def _side_offsets(smooth: np.ndarray, p0: np.ndarray, p1: np.ndarray, normal: np.ndarray,
                  band: float) -> tuple[float, float]:
    """How far to move the side's two ends along ``normal`` (pixels, outwards positive)."""
    offsets = np.arange(-band, band + RIM_STEP / 2, RIM_STEP, dtype=np.float32)  # (T,)
    s = np.linspace(0.1, 0.9, RIM_SAMPLES, dtype=np.float32)  # along the side
    base = p0[None] + s[:, None] * (p1 - p0)[None]  # (S, 2)
    pts = base[:, None] + offsets[None, :, None] * normal  # (S, T, 2)
    colour = remap(smooth, pts[..., 0], pts[..., 1], cv2.INTER_LINEAR,
                   borderMode=cv2.BORDER_REPLICATE)  # (S, T, 3)
    rate = np.zeros(colour.shape[:2], np.float32)
    rate[:, 1:-1] = np.linalg.norm(colour[:, 2:] - colour[:, :-2], axis=2) / (2 * RIM_STEP)
    # an edge point: a sharp local peak of the rate in its profile, well above the rate
    # the table's texture and the noise give
    floor = max(RIM_MIN, RIM_NOISE * float(np.median(rate)))
    near = cv2.dilate(rate, np.ones((1, 5), np.uint8))  # the highest within 1 pixel
    edge = ((rate >= near) & (rate >= floor) & ~_shadow_edges(colour)).astype(np.uint8)
    edge = cv2.dilate(edge, np.ones((1, 3), np.uint8))  # a line may pass half a pixel off
    # every line: offset d0 at p0 and d1 at p1, so d0 + (d1 - d0) * s at sample s
    at = _line_index(len(offsets))  # (T, T, S)
    rows = np.arange(len(s))
    # one look-up for both: the rate, negative where there is no edge point
    signed = np.where(edge > 0, rate + 1e-3, -rate - 1e-3)[rows, at]  # (T, T, S)
    support = (signed > 0).mean(axis=2)  # share of profiles with an edge point on the line
    strength = np.abs(signed).mean(axis=2)
    i0, i1 = np.nonzero(support >= RIM_SUPPORT)
    if not len(i0):
        return 0.0, 0.0
    outer = offsets[i0] + offsets[i1]
    # the outermost straight edge; of the lines along it, the strongest
    pick = outer >= outer.max() - 2 * RIM_STEP
    k = int(np.argmax(np.where(pick, strength[i0, i1], -1.0)))
    return float(offsets[i0[k]]), float(offsets[i1[k]])


@functools.lru_cache(maxsize=8)
def _line_index(n: int) -> np.ndarray:
    """(n, n, RIM_SAMPLES) offset index, at each profile, of the line from offset k0 at
    one end of the side to k1 at the other (the same for every side of one band)."""
    s = np.linspace(0.1, 0.9, RIM_SAMPLES, dtype=np.float32)
    k0, k1 = np.meshgrid(np.arange(n), np.arange(n), indexing="ij")
    at = np.rint(k0[..., None] * (1 - s) + k1[..., None] * s).astype(np.intp)
    at.flags.writeable = False
    return at


def _shadow_edges(colour: np.ndarray) -> np.ndarray:
    """(S, T) bool: True where the profile steps from the table into a shadow on it:
    going inwards, the same colour but darker (each channel times the same factor)."""
    k = max(1, round(SHADOW_GAP / RIM_STEP))
    inner = np.roll(colour, k, axis=1) + 1.0  # profiles run from inside to outside
    outer = np.roll(colour, -k, axis=1) + 1.0
    ratio = inner / outer
    darker = (ratio.max(axis=2) <= SHADOW_RATIO[1]) & (ratio.min(axis=2) >= SHADOW_RATIO[0])
    return darker & (ratio.max(axis=2) - ratio.min(axis=2) <= SHADOW_HUE)
