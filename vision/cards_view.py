"""Which way a card lies under a perspective view: its true width over height.

A card seen at a slant is foreshortened along the view: far from the camera, its long
side can look shorter than its short side, so the lengths of an outline's sides do not
tell which way the card lies. The outline's perspective does: a rectangle's image has two
vanishing points, and with the camera's focal length they give the rectangle's true
aspect (Zhang and He, "Whiteboard scanning and image enhancement", 2007; the principal
point taken at the frame's centre, square pixels). The focal length is not known; the
aspect is measured over the range of ordinary cameras' fields of view, and an outline
whose reading depends on it (or on noise in its corners) is taken as unclear.
"""

from __future__ import annotations

import math

import numpy as np

# focal lengths tried, in frame long sides: fields of view of about 100 to 40 degrees
FOCAL_RANGE = (0.5, 0.8, 1.4)


def true_aspect(quad: np.ndarray, focal: float, centre: tuple[float, float]) -> float:
    """Width over height of the rectangle whose perspective image is ``quad``.

    Parameters
    ----------
    quad : ndarray of shape (4, 2)
        Corners (x, y) in frame pixels, in the order top-left, top-right, bottom-right,
        bottom-left of the rectangle (width: the first side).
    focal : float
        The camera's focal length, frame pixels.
    centre : (float, float)
        The principal point (x, y), frame pixels.

    Returns
    -------
    float
        The aspect; the plain ratio of side lengths' affine estimate when the outline
        shows no perspective, nan for a degenerate outline.
    """
    q = np.asarray(quad, np.float64)
    if q.shape != (4, 2):
        raise ValueError(f"quad must be 4 corners (x, y), got shape {q.shape}")
    return _aspect(q.tolist(), focal, centre)


def _aspect(corners: list, focal: float, centre: tuple[float, float]) -> float:
    """:func:`true_aspect` of four (x, y) corners given as plain floats."""
    # rays through the corners (camera frame, unit focal): top-left, top-right, bottom-left,
    # bottom-right; plain floats, as this runs for every outline ranked
    m1, m2, m4, m3 = (((x - centre[0]) / focal, (y - centre[1]) / focal, 1.0)
                      for x, y in corners)
    den2, den3 = _triple(m2, m4, m3), _triple(m3, m4, m2)
    if abs(den2) < 1e-12 or abs(den3) < 1e-12:
        return float("nan")
    # each side's direction on the card's plane, up to a common scale
    k2, k3 = _triple(m1, m4, m3) / den2, _triple(m1, m4, m2) / den3
    n2 = [k2 * b - a for a, b in zip(m1, m2)]
    n3 = [k3 * b - a for a, b in zip(m1, m3)]
    width, height = sum(v * v for v in n2), sum(v * v for v in n3)
    return math.sqrt(width / height) if height > 0 else float("nan")


def _triple(a: tuple, b: tuple, c: tuple) -> float:
    """(a x b) . c of three 3-vectors."""
    return ((a[1] * b[2] - a[2] * b[1]) * c[0] + (a[2] * b[0] - a[0] * b[2]) * c[1]
            + (a[0] * b[1] - a[1] * b[0]) * c[2])


def is_clear_way(quad: np.ndarray, frame_shape: tuple[int, ...], upright: bool,
                 band: float) -> bool:
    """True when the card's true aspect (:func:`true_aspect`) agrees that it lies
    ``upright`` (the first side, top-left to top-right, its short side) by more than
    ``band`` (a ratio, e.g. 1.15) at every focal length of ``FOCAL_RANGE``."""
    h, w = frame_shape[:2]
    centre = (w / 2, h / 2)
    q = np.asarray(quad, np.float64)
    if q.shape != (4, 2):
        raise ValueError(f"quad must be 4 corners (x, y), got shape {q.shape}")
    corners = q.tolist()  # plain floats once for the three focal lengths
    for k in FOCAL_RANGE:
        r = _aspect(corners, k * max(h, w), centre)
        if not math.isfinite(r) or (r * band >= 1 if upright else r <= band):
            return False
    return True


def true_aspects(quad: np.ndarray, frame_shape: tuple[int, ...]) -> list[float]:
    """:func:`true_aspect` of ``quad`` (first side as width) at each focal length of
    ``FOCAL_RANGE``, for a frame of ``frame_shape`` (H, W, ...); degenerate readings left
    out."""
    h, w = frame_shape[:2]
    found = (true_aspect(quad, k * max(h, w), (w / 2, h / 2)) for k in FOCAL_RANGE)
    return [r for r in found if np.isfinite(r)]
