"""The lines of a checkered cloth's grid, and how much of an outline follows them.

Every line of a checkered cloth's grid is an edge along its whole length (the colours
change across it at every square), so it runs straight, at the grid's turn, far past any
one square. A piece of the cloth cut off by a die or by the frame (a check's corner, a
square half hidden) is bounded by those lines for most of its outline; a die, even one
of the cloth's colour and turned like the grid, is bounded by its own edges, which end
at its corners (it hides the cloth's lines under it). So the share of an outline lying
on long straight edges at the grid's turn tells the cloth from a die
(:func:`grid_share`). Points are (x, y) working pixels.
"""

from __future__ import annotations

import numpy as np

import cv2


def grid_share(work: np.ndarray, outline: np.ndarray, grid: float, side: float, *,
               reach: float = 1.5, min_step: float = 20.0, spread: float = 12.0) -> float:
    """Share (0-1) of ``outline``'s length that lies on the lines of the cloth's grid.

    Parameters
    ----------
    work : ndarray of shape (H, W, 3), uint8, BGR
        The working image.
    outline : ndarray of shape (N, 1, 2) or (N, 2), int32
        A closed outline (x, y) in ``work``'s pixels (a face's convex hull).
    grid : float
        The grid's turn in degrees (0-90), as ``dice_segment.grid_turn`` gives it.
    side : float
        A die's edge length in working pixels.
    reach : float
        A grid line runs straight at least this many die edges (a die's own edge is
        one edge long, and ends at its corners).
    min_step : float
        Least grey step (levels) across an edge that counts.
    spread : float
        Degrees an edge may stray from the grid's turn (a camera's perspective).

    Returns
    -------
    float
        The share of the outline's pixels (those off the frame's border) within about
        two pixels of a grid line; 0.0 when the outline has none off the border.
    """
    return grid_fit(work, outline, grid, side, reach=reach, min_step=min_step,
                    spread=spread)[0]


def grid_fit(work: np.ndarray, outline: np.ndarray, grid: float, side: float, *,
             reach: float = 1.5, min_step: float = 20.0, spread: float = 12.0
             ) -> tuple[float, float]:
    """:func:`grid_share` of ``outline``, and how much of the grid's lines lies around
    it (their length in die edges, within ``reach`` die edges of the outline's box):
    an outline may lie among the lines yet off them (a die square to the cloth), or
    where no lines are seen at all (a grain's turn taken for a grid)."""
    pts = outline.reshape(-1, 2).astype(np.int32)
    h, w = work.shape[:2]
    length = int(np.ceil(reach * side))
    pad = length + 2
    x0, y0 = (int(v) for v in np.maximum(0, pts.min(axis=0) - pad))
    x1, y1 = (int(v) for v in np.minimum([w, h], pts.max(axis=0) + pad + 1))
    if x1 - x0 < 4 or y1 - y0 < 4:
        return 0.0, 0.0
    inner = np.zeros((y1 - y0, x1 - x0), np.uint8)  # the frame's border left out
    inner[max(0, 2 - y0):max(0, h - 2 - y0), max(0, 2 - x0):max(0, w - 2 - x0)] = 255
    rim = np.zeros_like(inner)
    cv2.polylines(rim, [pts - [x0, y0]], True, 255, 1)
    total = cv2.countNonZero(cv2.bitwise_and(rim, inner))
    if total == 0:
        return 0.0, 0.0
    lines = grid_lines(work[y0:y1, x0:x1], grid, length, min_step=min_step, spread=spread)
    seen = cv2.countNonZero(lines) / (_WIDTH * side)
    lines = cv2.dilate(lines, np.ones((3, 3), np.uint8))
    return cv2.countNonZero(cv2.bitwise_and(cv2.bitwise_and(rim, inner), lines)) / total, seen


def grid_lines(bgr: np.ndarray, grid: float, length: int, *, min_step: float = 20.0,
               spread: float = 12.0) -> np.ndarray:
    """Mask (0/255) of the pixels of ``bgr`` (H, W, 3 uint8) on straight edges at the
    grid's turn ``grid`` (degrees, either of its two directions, within ``spread``)
    that run on for ``length`` pixels or more: a grey step of ``min_step`` levels or
    more across them, little along them."""
    grads = grey_gradients(bgr)
    return cv2.bitwise_or(_axis_lines(grads, grid, length, min_step, spread),
                          _axis_lines(grads, grid + 90.0, length, min_step, spread))


def grey_gradients(bgr: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The grey level's Sobel gradients (x, y) of a BGR image, float32."""
    grey = cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY)
    return (cv2.Sobel(grey, cv2.CV_32F, 1, 0, ksize=3),
            cv2.Sobel(grey, cv2.CV_32F, 0, 1, ksize=3))


def _axis_lines(grads: tuple[np.ndarray, np.ndarray], turn: float, length: int,
                min_step: float, spread: float) -> np.ndarray:
    """As :func:`grid_lines`, the lines at ``turn`` degrees only, from the gradients
    ``grads`` (x, y) of :func:`grey_gradients`."""
    gx, gy = grads
    t = np.radians(turn)
    ux, uy = np.cos(t), np.sin(t)  # along the line
    along = cv2.absdiff(gx * ux + gy * uy, 0)
    across = cv2.absdiff(gy * ux - gx * uy, 0)
    edge = ((across > 4 * min_step) & (along < np.tan(np.radians(spread)) * across))
    edge = cv2.dilate(edge.astype(np.uint8) * 255, np.ones((3, 3), np.uint8))  # it bends
    return cv2.morphologyEx(edge, cv2.MORPH_OPEN, _line_kernel(turn, length))


_WIDTH = 4.0  # pixels across a line of the mask (a Sobel edge, grown by one pixel)
_KERNELS: dict[tuple[int, int], np.ndarray] = {}


def _line_kernel(turn: float, length: int) -> np.ndarray:
    """A straight line ``length`` pixels long at ``turn`` degrees, as a structuring
    element (cached by whole degree)."""
    key = (int(round(turn)) % 180, length)
    if key not in _KERNELS:
        t = np.radians(key[0])
        k = np.zeros((length | 1, length | 1), np.uint8)
        c = (length | 1) // 2
        dx, dy = (length - 1) / 2 * np.cos(t), (length - 1) / 2 * np.sin(t)
        cv2.line(k, (int(round(c - dx)), int(round(c - dy))),
                 (int(round(c + dx)), int(round(c + dy))), 1, 1)
        _KERNELS[key] = k
    return _KERNELS[key]
