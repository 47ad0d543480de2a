"""Card outline hypotheses: where a card could lie in a frame, under tilt and overlap.

A card is a flat rectangle of known aspect (width / height of its face). This module
proposes quadrilaterals that may be cards; it never names them. Two sources:

- clean outlines: a contour that is nearly a convex quadrilateral (a lone card, with
  perspective kept exactly);
- corners: a convex corner of a contour whose two edges are straight and meet near a right
  angle; knowing the aspect and one full edge completes the card even when the rest is
  hidden under another card or a hand (parallelogram, a fair model for modest tilt).

Candidate regions come from three segmentations (Canny edges, a global and a local
threshold on "whiteness"), so that no single table colour or light defeats them. The
naming step (``cards_match``) decides which hypotheses are real cards.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.cards_view import true_aspects
from vision.cvcompat import approx_poly_dp


@dataclass(frozen=True)
class FindParams:
    """Tunables of the outline search.

    Attributes
    ----------
    work_side : int
        Long side of the downscaled frame the search runs on, pixels.
    min_card_frac, max_card_frac : float
        Smallest and largest card area, as fractions of the frame area.
    max_corner_skew : float
        Largest departure of a corner from 90 degrees, degrees.
    aspect_tolerance : float
        Relative tolerance when two edges are taken as a card's two full sides.
    min_inside : float
        Fraction of a corner hypothesis that must lie on card-coloured pixels.
    segment_corners : bool
        Also propose cards from straight edge segments meeting in an L.
    max_segments, corner_gap, max_segment_quads : int, float, int
        Longest segments kept, largest gap between two segment ends that meet (work
        pixels), and most hypotheses taken from segments (the longest arms first).
    """

    work_side: int = 640
    min_card_frac: float = 0.004
    max_card_frac: float = 0.8
    max_corner_skew: float = 28.0
    aspect_tolerance: float = 0.18
    min_inside: float = 0.55
    segment_corners: bool = True
    max_segments: int = 120
    corner_gap: float = 8.0
    max_segment_quads: int = 60


def find_card_quads(frame: np.ndarray, aspect: float, *,
                    params: FindParams = FindParams()) -> list[np.ndarray]:
    """Propose card outlines in a frame.

    Parameters
    ----------
    frame : ndarray of shape (H, W, 3), uint8, BGR
    aspect : float
        Card width / height (portrait), e.g. 0.716 for a poker card.

    Returns
    -------
    quads : list of ndarray of shape (4, 2), float32
        Corner points (x, y) in frame pixels, clockwise from any corner. Several
        hypotheses may describe the same card; the caller keeps the best named one.
    """
    from vision.cards_part import view_quads, work_view  # (cards_part builds on this module)

    return view_quads(work_view(frame, params), aspect, params=params)


def card_white(frame: np.ndarray, work_side: int = 640, *, halved: np.ndarray | None = None
               ) -> np.ndarray:
    """Where a frame shows card-white (a card's print counts as card: the white around it
    closes): white by both the outline search's global and local thresholds.

    ``halved`` is the frame at half size, used when that is the work size. Returns an
    (H, W) uint8 mask, 255 on card-white, at the frame's size.
    """
    h, w = frame.shape[:2]
    scale = min(1.0, work_side / max(h, w))
    size = (max(1, round(w * scale)), max(1, round(h * scale)))
    # blurred before it is thresholded: a plain linear resize is enough
    small = (halved if halved is not None and halved.shape[1::-1] == size
             else cv2.resize(frame, size, interpolation=cv2.INTER_LINEAR))
    _, global_mask, local_mask = _whiteness(small)
    k = max(3, max(small.shape[:2]) // 80)  # cut speckle as the outline search does
    both = cv2.morphologyEx(_fill_holes(cv2.bitwise_and(global_mask, local_mask)),
                            cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    return cv2.resize(both, (w, h), interpolation=cv2.INTER_NEAREST)


def segment_quads(corners: list[tuple], aspect: float, lo: float, hi: float,
                  params: FindParams) -> list[np.ndarray]:
    """Corner hypotheses from straight edge segments meeting in an L (``corners``, from
    :func:`segment_corners`).

    Works where no mask separates a card: a white card on a white table, on a checked
    cloth, or under another card, as long as two of its sides meet at a visible corner.
    """
    found: list[tuple[float, np.ndarray]] = []
    for la, lb, corner, a, b in corners:
        for sa, sb in _side_guesses(la, lb, aspect, params.aspect_tolerance):
            if lo <= sa * sb <= hi:
                quad = np.array([corner, corner + a / la * sa, corner + a / la * sa + b / lb * sb,
                                 corner + b / lb * sb], np.float32)
                found.append((la + lb, quad))
    found.sort(key=lambda f: -f[0])
    return [q for _, q in found[:params.max_segment_quads]]


def segment_corners(lo: float, params: FindParams, *, canny: np.ndarray) -> list[tuple]:
    """The L-shaped meetings of straight edge segments of the ``canny`` edge map of the work
    image, whatever the card's aspect: (la, lb, corner, a, b), arms' lengths and vectors."""
    min_len = 0.8 * np.sqrt(lo)
    segs = cv2.HoughLinesP(canny, 1, np.pi / 180, threshold=25, minLineLength=min_len,
                           maxLineGap=3)
    if segs is None:
        return []
    segs = segs.reshape(-1, 4).astype(np.float32)
    lengths = np.hypot(segs[:, 2] - segs[:, 0], segs[:, 3] - segs[:, 1])
    segs = segs[np.argsort(-lengths)[:params.max_segments]]
    ends = np.concatenate([segs[:, :2], segs[:, 2:]])  # (2S, 2): each end of each segment
    far = np.concatenate([segs[:, 2:], segs[:, :2]])  # the other end of the same segment
    owner = np.concatenate([np.arange(len(segs))] * 2)
    gap = np.hypot(*(ends[:, None] - ends[None]).transpose(2, 0, 1))
    ii, jj = np.nonzero((gap < params.corner_gap) & (owner[:, None] < owner[None]))
    out = []
    for i, j in zip(ii, jj):
        a, b = far[i] - ends[i], far[j] - ends[j]
        la, lb = float(np.hypot(*a)), float(np.hypot(*b))
        if abs(float(np.dot(a, b))) / (la * lb) <= np.sin(np.radians(params.max_corner_skew)):
            out.append((la, lb, (ends[i] + ends[j]) / 2, a, b))
    return out


def _canny(small: np.ndarray, low: float = 30) -> np.ndarray:
    """Canny edges (uint8 0/255) of the lightly blurred gray frame (hysteresis ``low``
    to three times that, grey levels)."""
    return cv2.Canny(cv2.GaussianBlur(cv2.cvtColor(small, cv2.COLOR_BGR2GRAY), (5, 5), 0),
                     low, 3 * low)


def card_masks(small: np.ndarray, *, maps: tuple = ()) -> list[tuple[np.ndarray, np.ndarray]]:
    """Pairs of binary masks (uint8 0/255): outlines to trace, and card area to test."""
    white, global_mask, local_mask, canny, faint, otsu, k = maps or work_maps(small)
    edges = cv2.dilate(canny, np.ones((3, 3), np.uint8))
    # a white card on white paper: its edges are faint, a more sensitive map closes them
    faint = cv2.dilate(faint, np.ones((3, 3), np.uint8))
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))
    # fill first (a card's thin white margin closes around its art), then cut speckle
    # a card's margin may sit just above or below the one threshold Otsu picks
    levels = [cv2.threshold(white, min(250.0, otsu + step), 255, cv2.THRESH_BINARY)[1]
              for step in (-25, 25)]
    filled = [cv2.morphologyEx(_fill_holes(m), cv2.MORPH_OPEN, kernel)
              for m in [global_mask, local_mask] + levels]
    return [(f, f) for f in filled] + [(e, _fill_holes(e)) for e in (edges, faint)]


def work_maps(small: np.ndarray) -> tuple:
    """What :func:`card_masks` thresholds (``maps``, cut to a part of the frame): whiteness,
    card-white masks, Canny and faint edges, Otsu's level, kernel (wider than speckle)."""
    white, global_mask, local_mask = _whiteness(small)
    return (white, global_mask, local_mask, _canny(small),
            _canny(small, 15), cv2.threshold(white, 0, 255, cv2.THRESH_OTSU)[0],
            max(3, max(small.shape[:2]) // 80))


def _whiteness(small: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The blurred whiteness (value less half the saturation) of a BGR image, and its
    global (Otsu) and local thresholds (uint8 0/255)."""
    hsv = cv2.cvtColor(small, cv2.COLOR_BGR2HSV)
    white = cv2.GaussianBlur(cv2.subtract(hsv[:, :, 2], hsv[:, :, 1] // 2), (5, 5), 0)
    _, global_mask = cv2.threshold(white, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    block = (max(small.shape[:2]) // 4) | 1
    local_mask = cv2.adaptiveThreshold(white, 255, cv2.ADAPTIVE_THRESH_MEAN_C,
                                       cv2.THRESH_BINARY, block, -8)
    return white, global_mask, local_mask


def _fill_holes(mask: np.ndarray) -> np.ndarray:
    """Fill the holes of every blob (card art would otherwise cut a card into pieces)."""
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    out = np.zeros_like(mask)
    cv2.drawContours(out, contours, -1, 255, thickness=cv2.FILLED)
    return out


def contour_shape(contour: np.ndarray, lo: float, hi: float, params: FindParams, *,
                  corners: bool = True) -> tuple:
    """What one contour offers whatever the card's aspect (quads: :func:`completed_quads`):
    (its quad-like outline or None, its points, its corners (corner, a, b, la, lb))."""
    clean = None
    hull = cv2.convexHull(contour)
    peri = cv2.arcLength(hull, True)
    approx = approx_poly_dp(hull, 0.04 * peri, True).reshape(-1, 2).astype(np.float32)
    hull_area = cv2.contourArea(hull)
    if len(approx) == 4 and lo <= hull_area <= hi and cv2.isContourConvex(approx):
        if cv2.contourArea(contour) > 0.88 * cv2.contourArea(approx):
            clean = approx
    pts = contour.reshape(-1, 2).astype(np.float32)
    poly = approx_poly_dp(contour, 0.012 * cv2.arcLength(contour, True), True)
    poly = poly.reshape(-1, 2).astype(np.float32)
    if not corners or len(poly) < 3 or len(poly) > 40:
        return clean, pts, []
    min_edge = np.sqrt(lo) * 0.5
    sign = _orientation(poly)
    skew = np.sin(np.radians(params.max_corner_skew + 5))
    found = []
    for i in range(len(poly)):
        prev, here, nxt = poly[i - 1], poly[i], poly[(i + 1) % len(poly)]
        if not _is_corner(prev - here, nxt - here, min_edge * 0.9, skew, sign):
            continue  # cheap test on the raw polygon first: most vertices are no corner
        corner, a, b = _refine_corner(prev, here, nxt, pts)
        la, lb = float(np.hypot(*a)), float(np.hypot(*b))
        if _is_corner(a, b, min_edge, np.sin(np.radians(params.max_corner_skew)), sign):
            found.append((corner, a, b, la, lb))
    return clean, pts, found


def completed_quads(shape: tuple, mask: np.ndarray, aspect: float, lo: float, hi: float,
                    params: FindParams) -> list[np.ndarray]:
    """The quads of a :func:`contour_shape` at ``aspect``: the outline if its sides fit,
    and each corner completed (on card-coloured pixels of ``mask``)."""
    clean, pts, found = shape
    out = ([refine_quad(clean, pts)] if clean is not None and _sides_ok(clean, aspect, mask.shape)
           else [])
    guessed = [np.array([corner, corner + a / la * sa, corner + a / la * sa + b / lb * sb,
                         corner + b / lb * sb], np.float32)
               for corner, a, b, la, lb in found
               for sa, sb in _side_guesses(la, lb, aspect, params.aspect_tolerance)
               if lo <= sa * sb <= hi]
    inside = _inside_fractions(np.stack(guessed), mask) if guessed else []  # all at once
    return out + [q for q, f in zip(guessed, inside) if f >= params.min_inside]


def _is_corner(a: np.ndarray, b: np.ndarray, min_edge: float, max_cos: float,
               sign: float) -> bool:
    """Two long edges meeting near a right angle, turning outward (not where cards meet)."""
    la, lb = float(np.hypot(*a)), float(np.hypot(*b))
    if la < min_edge or lb < min_edge:
        return False
    if abs(float(np.dot(a, b))) / (la * lb) > max_cos:
        return False
    return float(b[0] * a[1] - b[1] * a[0]) * sign >= 0


def _side_line(p: np.ndarray, q: np.ndarray, pts: np.ndarray, slack: float = 0.03
               ) -> tuple[np.ndarray, np.ndarray] | None:
    """Line (point, unit direction) fitted to the contour points along segment p-q."""
    d = q - p
    length = float(np.hypot(*d))
    if length < 4:
        return None
    u = d / length
    rel = pts - p
    along = rel @ u
    off = np.abs(rel[:, 0] * u[1] - rel[:, 1] * u[0])
    near = pts[(along > 0.15 * length) & (along < 0.85 * length) & (off < max(2.0, slack * length))]
    if len(near) < 4:
        return None
    vx, vy, x0, y0 = cv2.fitLine(near, cv2.DIST_HUBER, 0, 0.01, 0.01).ravel()
    return np.array([x0, y0], np.float32), np.array([vx, vy], np.float32)


def _intersect(l1: tuple[np.ndarray, np.ndarray], l2: tuple[np.ndarray, np.ndarray]
               ) -> np.ndarray | None:
    (p, u), (q, v) = l1, l2
    den = u[0] * v[1] - u[1] * v[0]
    if abs(den) < 0.2:  # nearly parallel
        return None
    t = ((q[0] - p[0]) * v[1] - (q[1] - p[1]) * v[0]) / den
    return p + t * u


def refine_quad(quad: np.ndarray, pts: np.ndarray, slack: float = 0.03, *,
                 keep_unfitted: bool = False) -> np.ndarray:
    """Move a rough quad's corners to the intersections of lines fitted to its sides
    (polygon approximation cuts the rounded corners of a card, and misplaces them); with
    ``keep_unfitted``, a side with no points to fit (cut by a photo's edge) stays as it is
    and its neighbours' lines still move the corners along it."""
    lines = [_side_line(quad[i], quad[(i + 1) % 4], pts, slack) for i in range(4)]
    if keep_unfitted:
        lines = [line if line is not None else _own_line(quad[i], quad[(i + 1) % 4])
                 for i, line in enumerate(lines)]
    out = quad.copy()
    for i in range(4):
        prev, nxt = lines[i - 1], lines[i]
        if prev is not None and nxt is not None:
            x = _intersect(prev, nxt)
            if x is not None and np.hypot(*(x - quad[i])) < 0.15 * np.sqrt(
                    cv2.contourArea(quad)):
                out[i] = x
    return out


def _own_line(p: np.ndarray, q: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """The line (point, unit direction) through p and q; None when they coincide."""
    length = float(np.hypot(*(q - p)))
    return None if length < 1e-6 else (p.astype(np.float32), ((q - p) / length).astype(np.float32))


def _refine_corner(prev: np.ndarray, corner: np.ndarray, nxt: np.ndarray, pts: np.ndarray
                   ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A polygon corner and its two edge vectors, refined by line fits when possible."""
    la, lb = _side_line(corner, prev, pts), _side_line(corner, nxt, pts)
    if la is None or lb is None:
        return corner, prev - corner, nxt - corner
    x = _intersect(la, lb)
    if x is None or np.hypot(*(x - corner)) > 0.1 * np.hypot(*(prev - corner)) + 3:
        return corner, prev - corner, nxt - corner
    # keep the far ends as they were, measured along the fitted directions
    ua = la[1] if np.dot(la[1], prev - corner) > 0 else -la[1]
    ub = lb[1] if np.dot(lb[1], nxt - corner) > 0 else -lb[1]
    return x, ua * float(np.dot(prev - x, ua)), ub * float(np.dot(nxt - x, ub))


def _orientation(poly: np.ndarray) -> float:
    """Sign of the polygon's signed area (+1 or -1), to tell convex from reflex corners."""
    x, y = poly[:, 0], poly[:, 1]
    return float(np.sign(np.dot(x, np.roll(y, -1)) - np.dot(y, np.roll(x, -1))))


def _side_guesses(la: float, lb: float, aspect: float, tol: float) -> list[tuple[float, float]]:
    """Full side lengths (along a, along b) consistent with the visible edges."""
    guesses = []
    for r in (aspect, 1 / aspect):
        if abs(la / lb / r - 1) < tol:
            guesses.append((la, lb))
        if la * r >= lb * 0.9:
            guesses.append((la, la / r))
        if lb * r >= la * 0.9:
            guesses.append((lb * r, lb))
    return guesses


def _sides_ok(quad: np.ndarray, aspect: float, shape: tuple[int, ...]) -> bool:
    """A clean quad whose side ratio, or true aspect under its perspective (``cards_view``:
    a far card at a slant looks square), is within a tolerant band of the aspect."""
    sides = np.hypot(*(np.roll(quad, -1, axis=0) - quad).T)
    short, long_ = (sides[0] + sides[2]) / 2, (sides[1] + sides[3]) / 2
    target = min(aspect, 1 / aspect)
    return any(0.6 * target <= min(r, 1 / r) <= min(0.97, 1.3 * target)
               for r in [short / long_] + true_aspects(quad, shape) if r > 0)


_GRID_U, _GRID_V = (g.reshape(-1, 1) for g in np.meshgrid(
    (np.arange(7, dtype=np.float32) + 0.5) / 7, (np.arange(7, dtype=np.float32) + 0.5) / 7))


def _inside_fractions(quads: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Per quad (K, 4, 2), the fraction of a 7x7 grid of points inside it (within the
    frame) that the mask marks as card. Points outside the frame count as unknown, not as
    missing (cards cut by the frame edge); a quad mostly outside the frame scores 0."""
    a = quads[:, None, 0]
    pts = a + _GRID_U * (quads[:, None, 1] - a) + _GRID_V * (quads[:, None, 3] - a)  # (K, 49, 2)
    h, w = mask.shape
    x, y = np.round(pts[..., 0]).astype(int), np.round(pts[..., 1]).astype(int)
    seen = (x >= 0) & (y >= 0) & (x < w) & (y < h)
    hit, n = np.zeros(seen.shape, bool), seen.sum(axis=1)
    hit[seen] = mask[y[seen], x[seen]] > 0
    return np.where(n >= 0.5 * seen.shape[1], hit.sum(axis=1) / np.maximum(n, 1), 0.0)


def dedupe_quads(quads: list[np.ndarray], tol: float) -> list[np.ndarray]:
    """Drop quads whose corners all lie within ``tol`` pixels of a kept quad's corners."""
    if not quads:
        return []
    canon = _canonical(np.stack(quads).astype(np.float32))
    keep: list[int] = []
    for i in range(len(canon)):
        if keep:
            gap = np.hypot(*(canon[keep] - canon[i]).transpose(2, 0, 1)).max(axis=1)
            if gap.min() < tol:
                continue
        keep.append(i)
    return [quads[i] for i in keep]


def _canonical(q: np.ndarray) -> np.ndarray:
    """Quads (K, 4, 2) with corners clockwise on screen, from the one nearest the top-left."""
    x, y = q[..., 0], q[..., 1]
    area = (x * np.roll(y, -1, axis=1) - y * np.roll(x, -1, axis=1)).sum(1)
    q = np.where((area < 0)[:, None, None], q[:, ::-1], q)
    start = np.argmin(q.sum(axis=2), axis=1)
    idx = (start[:, None] + np.arange(4)[None]) % 4
    return np.take_along_axis(q, idx[:, :, None], axis=1)

