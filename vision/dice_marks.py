"""Dice with a light body and a coloured mark on each face: find the top faces by their marks.

A light die on a light table (white on white laminate, or on the white squares of a
checkered cloth) hardly differs from the table, but its mark does. A mark is a compact
coloured spot whose surroundings are light; walking outwards from it along rays, the light
body ends at the die's edge (a darker rim, a side face or the table) within about one die
width. A coloured spot on a light table (a coin, a sticker) has no such rim nearby, and a
side face's mark has its rim very close on one side. Points are (x, y) in the ROI.
"""

from __future__ import annotations

import numpy as np

import cv2

from vision import dice_faces as faces_
from vision.dice_measure import outer_contours

_ANGLES = np.linspace(0, 2 * np.pi, 16, endpoint=False)
RAYS = np.stack([np.cos(_ANGLES), np.sin(_ANGLES)], 1)  # 16 unit directions (x, y)


def find_marks(cls_roi: np.ndarray, hsv_roi: np.ndarray, bgr_roi: np.ndarray,
               grad: np.ndarray, near_roi: np.ndarray, offset: tuple[int, int],
               min_area: float, max_side: float, min_side: float = 9.0, *,
               traced: dict | None = None, lit: tuple | None = None,
               skip: np.ndarray | None = None) -> list[faces_.Face]:
    """Top-face hypotheses from coloured marks ringed by a light body, as Face objects.

    The returned faces have ``body`` set: the die edge length in pixels estimated from how
    far the light body reaches around the mark, and ``body_value``: the light body's
    brightness next to the mark (a side face's body is in the shade). Their ``ring`` is
    the light share just around the mark or on its box grown by half, the more of the two
    (a big round mark on a die seen aslant: its box's corners reach past the top).
    ``traced`` holds ``{code: (mask, outlines)}`` of the colours ``face_candidates``
    traced already where they lie near a blob (the same masks: not traced again).
    ``lit`` is (the ROI's brightness before an exposure gain, the gain), when one was
    applied: brightness is measured on it (``dice_faces.measure``), not clipped at white.
    ``skip`` is a (H, W) uint8 mask of the ROI, 0/255, where the caller has its marks
    already: an outline whose bounding box lies wholly on it is not measured (its face's
    centre, the outline's hull's centroid, would lie on it: ``dice_beyond.marks_beyond``).
    """
    spots: list[tuple] = []  # (code, outline, mask, its spot) of each outline a mark may be
    sizes = (min_area, max_side, min_side)
    value = hsv_roi[..., 2]
    near = None
    for code in (faces_.GREEN, faces_.YELLOW, faces_.RED):
        if traced and code in traced:
            mask, contours = traced[code]
        else:
            if near is None:
                near = cv2.compare(near_roi, 0, cv2.CMP_GT)
            mask = cv2.bitwise_and(cv2.compare(cls_roi, code, cv2.CMP_EQ), near)
            if not cv2.countNonZero(mask):
                continue
            contours = outer_contours(mask)
        # (and a green mark on a light die lying on green felt: an island in the felt's run)
        for cnt in (*contours, *_islands(mask, contours, 2 * min_side, skip=skip)):
            spot = _spot(cnt, sizes) if len(cnt) > 2 else None  # (a point or a line: no area)
            if spot is not None and not (skip is not None and _lies_on(cnt, skip)):
                spots.append((code, cnt, mask, spot))
    ringed = _ringed(cls_roi, [s[3] for s in spots])  # (most spots are not: all at once)
    spots = [s for s, ok in zip(spots, ringed) if ok]
    # how far each ringed spot's light body reaches, all at once (``body_sides``)
    bodies = body_sides(cls_roi, value, grad, [(s[3][0], s[3][1]) for s in spots])
    parts: list[dict] = []  # measured one by one, finished together
    for (code, cnt, mask, spot), body in zip(spots, bodies):
        parts += _mark_part(code, cnt, mask, spot, body, cls_roi, value, hsv_roi, bgr_roi,
                            offset, sizes, lit)
    return faces_.finish(parts, cls_roi, grad, offset)


def _lies_on(cnt: np.ndarray, mask: np.ndarray) -> bool:
    """True when the bounding box of the outline ``cnt`` lies wholly on ``mask`` (0/255)."""
    x, y, w, h = cv2.boundingRect(cnt)
    return cv2.countNonZero(mask[y:y + h, x:x + w]) == w * h


def _spot(cnt: np.ndarray, sizes: tuple[float, float, float]
          ) -> tuple[np.ndarray, float, float] | None:
    """(centre (x, y), radius, area) of a coloured outline the size and shape of a mark
    (``sizes`` are ``find_marks``'s (min_area, max_side, min_side)), else None."""
    min_area, max_side, _ = sizes
    x, y, w, h = cv2.boundingRect(cnt)
    if w * h < 0.25 * min_area or max(w, h) > 0.8 * max_side or max(w, h) > 2.2 * min(w, h):
        return None  # (an outline covers less than its box: too small, so no moments)
    m = cv2.moments(cnt)
    area = m["m00"]
    if area < 0.25 * min_area:
        return None
    return np.array([m["m10"] / area, m["m01"] / area]), 0.5 * np.sqrt(area * 4 / np.pi), area


def _ringed(cls_roi: np.ndarray, spots: list[tuple]) -> list[bool]:
    """For each spot (centre (x, y), radius, area), whether three samples of 16 rays out
    of it, from two pixels past its radius, are mostly light (``body_sides``' first
    test, for all spots at once): a small mark's edge blends about a pixel wide into the
    body (read grey), and a star's points reach past its equal-area radius."""
    if not spots:
        return []
    h, w = cls_roi.shape
    centres = np.array([c for c, _, _ in spots])
    steps = np.array([r + 1.0 for _, r, _ in spots])[:, None] + _STEPS3  # (as np.arange's)
    near = centres[:, None, None, :] + RAYS[None, :, None, :] * steps[:, None, :, None]
    xs, ys = _pixels(near, w, h)
    light = np.count_nonzero((cls_roi[ys, xs] == faces_.LIGHT).reshape(len(spots), -1), axis=1)
    return (light >= 0.6 * xs[0].size).tolist()


_STEPS3 = np.array([1.0, 2.0, 3.0])  # (from two pixels past the radius)


def _mark_part(code: int, cnt: np.ndarray, mask: np.ndarray,
               spot: tuple[np.ndarray, float, float], body: float | None,
               cls_roi: np.ndarray, value: np.ndarray, hsv_roi: np.ndarray,
               bgr_roi: np.ndarray, offset: tuple[int, int],
               sizes: tuple[float, float, float], lit: tuple | None = None) -> list[dict]:
    """The measures (``dice_faces.measure``, with ``body``, ``body_value`` and
    ``near_ring``) of one coloured outline ``cnt`` of ``mask`` taken for a mark ringed by
    a light body, as a list of one; empty when it is no such mark. ``spot`` is its
    (centre, radius, area) (``_spot``), ``body`` the die edge its light body gives
    (``body_sides``; None: none); ``value`` is the V plane of ``hsv_roi``; ``sizes``
    are ``find_marks``'s (min_area, max_side, min_side), ``lit`` its brightness before
    the exposure gain and the gain."""
    min_side = sizes[2]
    centre, radius, area = spot
    if body is None or body < 0.5 * min_side or area < 0.04 * body * body:
        return []
    x, y, w, h = cv2.boundingRect(cnt)
    hull = cv2.convexHull(cnt)
    part = faces_.measure(code, hull, float(area), mask[y:y + h, x:x + w], (x, y),
                          cls_roi, hsv_roi, bgr_roi, offset, lit=lit)
    if part is None:
        return []
    body_value, ring = _body_value(cls_roi, value if lit is None else lit[0], centre, radius)
    body_value *= 1.0 if lit is None else lit[1]
    return [{**part, "body": float(body), "body_value": body_value, "near_ring": ring}]


def _islands(mask: np.ndarray, contours: tuple, least: float, *,
             skip: np.ndarray | None = None) -> list[np.ndarray]:
    """Outer outlines of the pieces of ``mask`` lying in holes of its pieces whose outer
    outlines (``contours``) are at least ``least`` pixels both ways and whose holes hold
    a quarter of that squared (room for a die's body with the run around it); the outer
    outlines do not reach them. A piece whose box lies wholly on ``skip`` (0/255; see
    ``find_marks``) is not looked into: its islands lie in its box."""
    out: list[np.ndarray] = []
    seen: set[tuple[int, int, int, int]] = set()  # (crops may overlap)
    for cnt in contours:
        x, y, w, h = cv2.boundingRect(cnt)
        if min(w, h) < least or (
                cv2.contourArea(cnt) - cv2.countNonZero(mask[y:y + h, x:x + w]) < least ** 2 / 4):
            continue  # no room for a die's body, or no hole that big in it
        if skip is not None and _lies_on(cnt, skip):
            continue  # (its islands too lie wholly where the caller has the marks)
        inner, tree = cv2.findContours(mask[y:y + h, x:x + w], cv2.RETR_TREE,
                                       cv2.CHAIN_APPROX_SIMPLE, offset=(x, y))
        parents = tree[0][:, 3]
        for c, parent in zip(inner, parents):
            depth = 0
            while parent >= 0:
                depth, parent = depth + 1, parents[parent]
            if depth >= 2 and depth % 2 == 0:  # an outer outline in a piece's hole
                key = cv2.boundingRect(c)
                if key not in seen:
                    seen.add(key)
                    out.append(c)
    return out


def _body_value(cls_roi: np.ndarray, value: np.ndarray, centre: np.ndarray,
                radius: float) -> tuple[float, float]:
    """Median brightness (0-255) of the light body just around a mark: the light pixels
    among the first three samples of 16 rays out of it (0.0 when there are none), and
    the share of those samples that are light."""
    h, w = cls_roi.shape
    pts = centre[None, None, :] + RAYS[:, None, :] * (radius + _FIRST)[None, :, None]
    xs, ys = _pixels(pts, w, h)
    light = cls_roi[ys, xs] == faces_.LIGHT
    lit = value[ys, xs][light]
    return (faces_.percentile(lit, 50) if lit.size else 0.0), float(light.mean())


_FIRST = np.array([1.0, 2.0, 3.0])


def _body_side(cls_roi: np.ndarray, value: np.ndarray, grad: np.ndarray, centre: np.ndarray,
               radius: float, *, edge: float = 70.0) -> float | None:
    """Die edge length around a mark, or None when the light body is missing or unbounded
    (``body_sides`` of one spot)."""
    return body_sides(cls_roi, value, grad, [(centre, radius)], edge=edge)[0]


def body_sides(cls_roi: np.ndarray, value: np.ndarray, grad: np.ndarray,
               spots: list[tuple[np.ndarray, float]], *, edge: float = 70.0
               ) -> list[float | None]:
    """For each spot (centre (x, y), radius), the die edge length its light body gives,
    or None when no light body rings it (``_ringed``'s test, on these rays), it runs on
    (a coloured spot on a light table) or its reach is unlike a die's around a mark.

    Each of 16 rays is sampled a pixel apart from one pixel past the spot's radius out to
    five radii; the body ends where two samples in a row are not bright light without an
    edge; the median reach is 0.56 of the die's edge. The rays of many spots are sampled
    at once, padded to the longest (a few numpy calls per frame instead of per spot).
    """
    runs = [np.arange(r + 1.0, r * 5.0 + 2.0, 1.0) for _, r in spots]
    out: list[float | None] = [None] * len(spots)
    # spots of like ray lengths together, so little is padded (and memory stays small)
    chunk: list[int] = []
    for i in sorted(range(len(spots)), key=lambda i: len(runs[i])):
        if chunk and (len(chunk) + 1) * len(runs[i]) > _SAMPLES:
            _body_chunk(cls_roi, value, grad, spots, runs, chunk, out, edge)
            chunk = []
        chunk.append(i)
    if chunk:
        _body_chunk(cls_roi, value, grad, spots, runs, chunk, out, edge)
    return out


_SAMPLES = 1024  # most samples of one ray times spots in one call of ``_body_chunk``


def _body_chunk(cls_roi: np.ndarray, value: np.ndarray, grad: np.ndarray,
                spots: list[tuple[np.ndarray, float]], steps_of: list[np.ndarray],
                chunk: list[int], out: list[float | None], edge: float) -> None:
    """``body_sides`` of the spots at the indices ``chunk``, each one's rays sampled at
    ``steps_of`` its index, into ``out`` at those indices."""
    spots = [spots[i] for i in chunk]
    runs = [steps_of[i] for i in chunk]
    h, w = cls_roi.shape
    lengths = [len(r) for r in runs]
    padded = lengths[0] != lengths[-1]  # (the chunk is in order of length)
    if padded:
        steps = np.zeros((len(spots), lengths[-1]))
        for row, run in zip(steps, runs):
            row[:len(run)] = run
            row[len(run):] = run[-1]  # (padding: its pairs are left out below)
    else:
        steps = np.array(runs)
    centres = np.array([c for c, _ in spots])
    pts = centres[:, None, None, :] + RAYS[None, :, None, :] * steps[:, None, :, None]
    xs, ys = _pixels(pts, w, h)
    light = cls_roi[ys, xs] == faces_.LIGHT
    # three samples of each ray first (past the mark's blended edge, as ``_ringed``)
    ringed = np.count_nonzero(light[:, :, 1:4].reshape(len(spots), -1), axis=1) >= 0.6 * 48
    v = value[ys, xs].astype(np.float32)
    refs = [faces_.percentile(vs[:, :3][first], 50) if ok else 0.0
            for vs, first, ok in zip(v, light[:, :, :3], ringed)]
    # (each spot's threshold as float32, as comparing with its Python float would)
    least = (0.86 * np.array(refs)).astype(np.float32)[:, None, None]
    inside = light & (v >= least) & (grad[ys, xs] < edge)
    inside[:, :, :2] |= light[:, :, :2]  # the mark's own outline is not the die's edge
    # where each ray leaves the body: the first of two samples in a row outside it
    out_pair = ~inside[..., :-1] & ~inside[..., 1:]
    if padded:
        out_pair &= (np.arange(out_pair.shape[2]) < np.array(lengths)[:, None] - 1)[:, None, :]
    leaves = np.where(out_pair.any(axis=2), out_pair.argmax(axis=2), -1)
    first_ok = ((pts[:, :, 0, 0] >= 0) & (pts[:, :, 0, 0] < w) & (pts[:, :, 0, 1] >= 0)
                & (pts[:, :, 0, 1] < h)).all(axis=1)
    for i, run, (_, radius), leave, ok, rung in zip(chunk, runs, spots, leaves, first_ok,
                                                     ringed):
        bounded = leave >= 0
        if not rung or np.count_nonzero(bounded) < 0.75 * len(bounded) or not ok:
            continue  # not ringed; or the light runs on: a coloured spot on a light table
        reach = run[leave[bounded]]
        med = faces_.percentile(reach, 50)
        if 1.15 * radius <= med <= 4.5 * radius and faces_.percentile(reach, 20) >= 0.5 * med:
            out[i] = 1.8 * med


def _pixels(pts: np.ndarray, w: int, h: int) -> tuple[np.ndarray, np.ndarray]:
    """Rounded x and y pixel indices of points (..., 2) (x, y), clipped into a w x h image
    (both at once, without ``np.clip``'s per-call overhead)."""
    xy = np.minimum(np.maximum(np.round(pts).astype(int), 0), (w - 1, h - 1))
    return xy[..., 0], xy[..., 1]
