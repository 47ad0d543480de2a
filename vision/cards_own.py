"""Whether an outline runs along a card's own edges (for teaching a deck).

A card's outline is made of its own four edges: each side is one straight colour step
along its whole length, and it ends at the card's corners (beyond a corner lies the
table). Two kinds of made-up outline pass a plain inside-against-outside colour test:

- on a textured table (stone, grain), an outline whose sides run partly over the table:
  the texture differs from point to point across any line, but its steps do not line up
  along a straight one (:func:`own_edges` ``straight``: the share of profiles across the
  side showing an edge point on one straight line near it);
- on a checked cloth, an outline along the cloth's grid lines: those are straight edges,
  but they run on past the outline's corners, as no card's edge does (``beyond``: the
  share of profiles past each end of the side showing an edge point on the same line).

Profiles are sampled as in :mod:`vision.cards_rim`: the colour's rate of change across
the side, an edge point a sharp local peak of it well above the side's median rate.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.cards_rim import frame_and_quad
from vision.cvcompat import remap

OWN_BAND = 0.04  # how far a side's line may lie from the outline, fraction of its long side
OWN_STEP = 0.5  # pixels between the offsets tried across a side, at least
OWN_OFFSETS = 24  # offsets tried either side of the outline, at most
OWN_SAMPLES = 24  # profiles across each side, along its length
OWN_NOISE, OWN_MIN = 3.0, 4.0  # an edge point: this many times the median rate, and this
#: Past each end of a side, profiles from ``BEYOND[0]`` to ``BEYOND[1]`` of its length out.
BEYOND = (0.06, 0.3)
BEYOND_SAMPLES = 8  # profiles past each end


@dataclass(frozen=True)
class OwnEdges:
    """How well an outline follows one card's own edges, side by side.

    Attributes
    ----------
    straight : tuple of 4 float
        Per side, the share (0-1) of its profiles with an edge point on the best straight
        line within ``OWN_BAND`` of it.
    beyond : tuple of 4 float
        Per side, the share of the profiles past its two ends (those in the picture)
        with an edge point on that same line (1 = the line runs on past its corners);
        ``-1.0`` when too few lie in the picture to tell.
    """

    straight: tuple[float, float, float, float]
    beyond: tuple[float, float, float, float]


def own_edges(frame: np.ndarray, quad: np.ndarray) -> OwnEdges:
    """Measure, side by side, how well ``quad`` runs along a card's own edges.

    Parameters
    ----------
    frame : ndarray of shape (H, W, 3), uint8, BGR
    quad : ndarray of shape (4, 2)
        Corners (x, y) in order round the outline.

    Returns
    -------
    OwnEdges
    """
    q, sides = frame_and_quad(frame, quad)
    band = max(3.0, OWN_BAND * float(sides.max()))
    reach = BEYOND[1] * float(sides.max()) + 2 * band + 4
    h, w = frame.shape[:2]
    x0, y0 = np.maximum(np.floor(q.min(axis=0) - reach), 0).astype(int)
    x1, y1 = np.minimum(np.ceil(q.max(axis=0) + reach), [w, h]).astype(int)
    corner = np.array([x0, y0], np.float32)
    smooth = cv2.GaussianBlur(frame[y0:y1, x0:x1], (0, 0), 1.0).astype(np.float32)
    q = q - corner
    straight, beyond = [], []
    for i in range(4):
        s, b = _side(smooth, q[i], q[(i + 1) % 4], band)
        straight.append(s)
        beyond.append(b)
    return OwnEdges(tuple(straight), tuple(beyond))  # type: ignore[arg-type]


def _side(smooth: np.ndarray, p0: np.ndarray, p1: np.ndarray, band: float
          ) -> tuple[float, float]:
    """(straight, beyond) of the side p0-p1 (crop pixels)."""
    d = p1 - p0
    normal = np.array([-d[1], d[0]], np.float32) / max(float(np.hypot(*d)), 1e-6)
    step = max(OWN_STEP, band / OWN_OFFSETS)
    n = int(round(band / step))
    # offsets reach past the band, so a line tilted within it can be followed past the ends
    offsets = step * np.arange(-2 * n, 2 * n + 1, dtype=np.float32)  # (T,)
    on = np.linspace(0.1, 0.9, OWN_SAMPLES, dtype=np.float32)
    out = np.linspace(BEYOND[0], BEYOND[1], BEYOND_SAMPLES, dtype=np.float32)
    s = np.concatenate([on, -out, 1 + out])
    base = p0[None] + s[:, None] * d[None]  # (S, 2)
    pts = base[:, None] + offsets[None, :, None] * normal  # (S, T, 2)
    colour = remap(smooth, pts[..., 0], pts[..., 1], cv2.INTER_LINEAR,
                   borderMode=cv2.BORDER_REPLICATE)  # (S, T, 3)
    rate = np.zeros(colour.shape[:2], np.float32)
    rate[:, 1:-1] = np.linalg.norm(colour[:, 2:] - colour[:, :-2], axis=2) / (2 * step)
    floor = max(OWN_MIN, OWN_NOISE * float(np.median(rate[:len(on)])))
    near = cv2.dilate(rate, np.ones((1, 5), np.uint8))
    edge = ((rate >= near) & (rate >= floor)).astype(np.uint8)
    edge = cv2.dilate(edge, np.ones((1, 3), np.uint8)) > 0  # a step either way
    # every straight line within the band: offset k0 at p0, k1 at p1, so
    # k0 + (k1 - k0) * s at sample s (indices into ``offsets``)
    k0, k1 = np.meshgrid(np.arange(n, 3 * n + 1), np.arange(n, 3 * n + 1), indexing="ij")
    at = np.rint(k0[..., None] * (1 - s) + k1[..., None] * s).astype(np.intp)  # (L, L, S)
    hit = edge[np.arange(len(s)), np.clip(at, 0, len(offsets) - 1)]
    support = hit[..., :len(on)].mean(axis=2)
    best = np.unravel_index(int(np.argmax(support)), support.shape)
    # past the ends: the profiles whose point on the line lies in the picture, 3 px in
    h, w = smooth.shape[:2]
    past = np.arange(len(on), len(s))
    line = pts[past, np.clip(at[best][past], 0, len(offsets) - 1)]  # (P, 2)
    seen = ((line >= 3) & (line <= [w - 4, h - 4])).all(axis=1)
    if seen.sum() < BEYOND_SAMPLES // 2:
        return float(support[best]), -1.0
    return float(support[best]), float(hit[best][past][seen].mean())
