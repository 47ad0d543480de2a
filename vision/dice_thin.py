"""Long thin things told from dice: pencils, a ruler, the rim of a dice tray.

A die's foreground blob is about a die wide in every direction; a few touching dice make
it longer, but their outlines cross it as often as they run along it. A pencil (or
several side by side) is a band of constant width whose edges, the seams between pencils
too, all run along it, and its eraser or ferrule can look like a die's coloured face; so
can a piece of a dice tray's dark rim. So each die found is measured where it lies in
the foreground mask: the direction in which the foreground runs farthest through its
centre is the band's axis, its width is measured across at stations a quarter of a die
apart, and the image's gradient inside the band tells whether its edges run along it.
Thin blobs as a whole (``thin_blobs``) are caught first, by their outline.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

import cv2

from vision.dice_grid import grey_gradients

_TURNS = 16  # directions tried for the band's axis, over half a turn (even)
_REACH = 4.0  # rays run this many dice's edges from the centre
_MIN_LONG = 2.5  # a band is at least this many times longer than wide
_MAX_WIDE = 1.5  # ... and at most this many dice's edges wide
_MIN_EVEN = 0.75  # share of its stations of the band's width (``Band.even``)
_MIN_ALONG = 0.8  # share of its edges' gradient energy across its axis (``along_share``)
_MIN_NEAR = 0.75  # ... and within a die's edge of the die found (``edge_turn``)


@dataclass(frozen=True)
class Band:
    """The foreground band through a point (pixels of the mask).

    Attributes
    ----------
    length : float
        How far the foreground runs through the point along the band's axis (both ways).
    width : float
        Median width of the band across its axis.
    even : float
        Share of the stations along the axis whose width lies within a quarter of the
        median width of it (1 for a pencil's parallel sides).
    cut : bool
        True when the band runs out of the frame along its axis.
    """

    length: float
    width: float
    even: float
    cut: bool
    axis: tuple[float, float] = (1.0, 0.0)
    middle: tuple[float, float] = (0.0, 0.0)


def _runs(mask: np.ndarray, origins: np.ndarray, directions: np.ndarray,
          reach: float, step: float = 2.0) -> np.ndarray:
    """How far the foreground runs from each origin (n, 2) (x, y) along its direction
    (n, 2) (unit vectors), up to ``reach`` pixels; one ray a row, sampled ``step`` pixels
    apart (the mask is grown from half size), the frame's edge ending a run."""
    steps = np.arange(step, reach + step, step, dtype=np.float32)
    xs = origins[:, 0:1] + directions[:, 0:1] * steps
    ys = origins[:, 1:2] + directions[:, 1:2] * steps
    vals = cv2.remap(mask, xs, ys, cv2.INTER_NEAREST, borderValue=0)
    vals[:, -1] = 0  # every run ends at the reach
    return np.argmin(vals, axis=1).astype(np.float32) * step


_ANGLES = np.linspace(0.0, np.pi, _TURNS, endpoint=False)
_DIRS = np.stack([np.cos(_ANGLES), np.sin(_ANGLES)], axis=1).astype(np.float32)
_BOTH = np.concatenate([_DIRS, -_DIRS])  # each direction and its opposite
_STATIONS = 16  # widths measured along the band's axis


def _is_long(mask: np.ndarray, c: np.ndarray, side: float) -> np.ndarray:
    """For each centre (n, 2): whether the foreground's longest run through it (out to
    two dice's edges each way) is at least 1.9 times (2.5 times, allowing a quarter's
    unevenness) its shortest: only such centres can lie on a band."""
    n = len(c)
    runs = _runs(mask, np.repeat(c, 2 * _TURNS, axis=0), np.tile(_BOTH, (n, 1)),
                 2 * side).reshape(n, 2, _TURNS).sum(axis=1)
    return runs.max(axis=1) >= 0.75 * _MIN_LONG * runs.min(axis=1)


def _measure(mask: np.ndarray, c: np.ndarray, u: np.ndarray,
             side: float) -> tuple[np.ndarray, ...]:
    """(run ahead, run behind, axis (n, 2), median width, evenness) of the bands through
    the centres ``c`` (n, 2) along the unit vectors ``u`` (n, 2), as ``Band`` has them."""
    n = len(c)
    ab = _runs(mask, np.concatenate([c, c]), np.concatenate([u, -u]), _REACH * side)
    a, b = ab[:n], ab[n:]
    normal = np.stack([-u[:, 1], u[:, 0]], axis=1)
    # stations from half a die inside each end (or spread over a short run)
    long_ = a + b > 1.5 * side
    lo = np.where(long_, -b + 0.5 * side, -b + 0.2 * (a + b))
    hi = np.where(long_, a - 0.5 * side, a - 0.2 * (a + b))
    ts = lo[:, None] + (hi - lo)[:, None] * np.linspace(0.0, 1.0, _STATIONS, dtype=np.float32)
    origins = (c[:, None] + ts[..., None] * u[:, None]).reshape(-1, 2)
    across = np.repeat(normal, _STATIONS, axis=0)
    runs = _runs(mask, np.concatenate([origins, origins]),
                 np.concatenate([across, -across]), 2 * side)
    widths = (runs[:n * _STATIONS] + runs[n * _STATIONS:]).reshape(n, _STATIONS)
    width = np.median(widths, axis=1)
    even = np.mean(np.abs(widths - width[:, None]) <= 0.25 * np.maximum(width, 1.0)[:, None],
                   axis=1)
    return a, b, u, width, even


def _band(mask: np.ndarray, c: np.ndarray, a: float, b: float, u: np.ndarray,
          width: float, even: float) -> Band:
    """One band from ``_measure``'s figures for the centre ``c`` (x, y)."""
    h, w = mask.shape
    ends = [c + (r + 2.0) * s * u for r, s in ((a, 1), (b, -1))]  # just past each end
    cut = any(not (0 <= x <= w - 1 and 0 <= y <= h - 1) for x, y in ends)
    mid = c + 0.5 * (a - b) * u
    return Band(length=float(a + b), width=float(width), even=float(even), cut=cut,
                axis=(float(u[0]), float(u[1])), middle=(float(mid[0]), float(mid[1])))


def bands_at(mask: np.ndarray, centres: np.ndarray, side: float) -> list[Band]:
    """The foreground band through each centre (n, 2) (x, y) of a 0/255 uint8 ``mask``,
    measured out to four dice's edges ``side`` (pixels) each way (all at once)."""
    c = np.asarray(centres, np.float32).reshape(-1, 2)
    if len(c) == 0:
        return []
    n = len(c)
    runs = _runs(mask, np.repeat(c, 2 * _TURNS, axis=0), np.tile(_BOTH, (n, 1)),
                 _REACH * side).reshape(n, 2, _TURNS).sum(axis=1)
    return [_band(mask, c[i], *figures) for i, figures in
            enumerate(zip(*_measure(mask, c, _DIRS[np.argmax(runs, axis=1)], side)))]


def band_at(mask: np.ndarray, centre: tuple[float, float], side: float) -> Band:
    """The foreground band through ``centre`` (x, y) of a 0/255 uint8 ``mask``, measured
    out to four dice's edges ``side`` (pixels) each way."""
    return bands_at(mask, np.array([centre], np.float32), side)[0]


def along_share(work: np.ndarray, band: Band, side: float) -> float:
    """Share of the grey gradient's energy that crosses the band's axis, inside its
    rectangle (0.15 of a die's edge ``side`` wider on each side): about 1 when its edges
    run along it (a pencil's sides and the seams between pencils), about a half for
    dice (a square outline, pips)."""
    half_len = band.length / 2
    half_wide = 0.5 * band.width + 0.15 * side
    c = np.asarray(band.middle, np.float32)
    axis = np.asarray(band.axis, np.float32)
    normal = np.array([-axis[1], axis[0]], np.float32)
    pts = np.array([c + sx * half_len * axis + sy * half_wide * normal
                    for sx in (-1, 1) for sy in (-1, 1)])
    x0, y0 = np.maximum(np.floor(pts.min(axis=0)).astype(int) - 1, 0)
    x1, y1 = np.ceil(pts.max(axis=0)).astype(int) + 2
    x1, y1 = min(work.shape[1], x1), min(work.shape[0], y1)
    if x1 - x0 < 3 or y1 - y0 < 3:
        return 0.0
    gx, gy = grey_gradients(work[y0:y1, x0:x1])
    yy, xx = np.mgrid[y0:y1, x0:x1].astype(np.float32)
    t = (xx - c[0]) * axis[0] + (yy - c[1]) * axis[1]
    s = (xx - c[0]) * normal[0] + (yy - c[1]) * normal[1]
    inside = (np.abs(t) <= half_len) & (np.abs(s) <= half_wide)
    across = (gx * normal[0] + gy * normal[1]) ** 2
    total = gx ** 2 + gy ** 2
    return float(across[inside].sum() / max(total[inside].sum(), 1e-6))


def edge_turn(work: np.ndarray, centre: tuple[float, float],
              side: float) -> tuple[tuple[float, float], float]:
    """The direction (x, y) along which the edges run within a die's edge ``side`` of
    ``centre`` (x, y) (a square around it) in the BGR ``work`` image, and the share of
    the grey gradient's energy that crosses that direction: about 1 where all edges run
    one way (a pencil's sides and seams, a rim), about a half for a die (a square
    outline, pips)."""
    r = int(np.ceil(side))
    cx, cy = int(round(centre[0])), int(round(centre[1]))
    x0, y0 = max(0, cx - r), max(0, cy - r)
    x1, y1 = min(work.shape[1], cx + r + 1), min(work.shape[0], cy + r + 1)
    if x1 - x0 < 3 or y1 - y0 < 3:
        return (1.0, 0.0), 0.0
    gx, gy = (g[1:-1, 1:-1].ravel() for g in grey_gradients(work[y0:y1, x0:x1]))
    jxx, jyy, jxy = float(np.dot(gx, gx)), float(np.dot(gy, gy)), float(np.dot(gx, gy))
    trace = jxx + jyy
    if trace <= 1e-6:
        return (1.0, 0.0), 0.0
    root = np.hypot(0.5 * (jxx - jyy), jxy)
    theta = 0.5 * np.arctan2(2 * jxy, jxx - jyy)  # the gradients' main direction
    return (float(-np.sin(theta)), float(np.cos(theta))), float((0.5 * trace + root) / trace)


def is_on_band(work: np.ndarray, mask: np.ndarray, centres: list[tuple[float, float]],
               side: float) -> list[bool]:
    """For each centre (x, y): True when it lies on a band of the foreground ``mask``
    (0/255, the size of the BGR ``work`` image) at least 2.5 times longer than wide, at
    most 1.5 dice's edges ``side`` wide, of even width, whose edges run along it, the
    whole band's and those within a die's edge of the centre (a pencil's eraser, a tray's
    rim: no die; a die lying on a ruler shows its own edges across it). The band's axis
    is the way the edges around the centre run (``edge_turn``; the longest run of the
    foreground through a point near the frame's edge or a band's end may cut across
    the band)."""
    c = np.asarray(centres, np.float32).reshape(-1, 2)
    out = [False] * len(c)
    if len(c) == 0:
        return out
    turns = {int(i): edge_turn(work, tuple(c[i]), side)
             for i in np.flatnonzero(_is_long(mask, c, side))}
    long_ = np.array([i for i, (_, near) in turns.items() if near >= _MIN_NEAR], np.intp)
    if len(long_) == 0:
        return out
    u = np.array([turns[i][0] for i in long_], np.float32)
    a, b, u, width, even = _measure(mask, c[long_], u, side)
    shaped = ((a + b >= _MIN_LONG * width) & (width > 0) & (width <= _MAX_WIDE * side)
              & (even >= _MIN_EVEN))
    for j in np.flatnonzero(shaped):
        band = _band(mask, c[long_[j]], a[j], b[j], u[j], width[j], even[j])
        out[long_[j]] = along_share(work, band, side) >= _MIN_ALONG
    return out


def thin_blobs(contours: tuple, side: float) -> list[np.ndarray]:
    """The outlines (of the foreground blobs) about a die wide or less and five times
    longer than wide (a pencil, a ruler's edge): whatever their ends look like, they are
    no dice (five dice do not land edge to edge in a straight row)."""
    out = []
    for cnt in contours:
        if len(cnt) >= 5:
            _, (w, h), _ = cv2.minAreaRect(cnt)
            if min(w, h) < 1.1 * side and max(w, h) > 5 * min(w, h):
                out.append(cnt)
    return out


def is_inside(outlines: list[np.ndarray], point: tuple[float, float]) -> bool:
    """True when the point (x, y) lies inside one of the outlines."""
    return any(cv2.pointPolygonTest(c, point, False) >= 0 for c in outlines)
