"""Dice the face finder missed: whole-die blobs and groups of pips.

The face finder (``dice_faces``) looks for a top face by its colour run and its pips. A
plain black, white, brown or translucent die may give no such face (its pips break the
run, glare splits it, its colour is no colour, or it is the table's colour), yet the die
is plainly there:

- as a compact, sharp-edged, rounded square of about a die's size with pips inside, in
  the foreground mask or in the regions closed by strong edges (``square_blobs``);
- as a tight group of small, round, similar spots on an even body: its pips
  (``pip_groups``), even a white die on a white table.

Coins (round), tokens and cloth squares (no pips, or turned like the cloth's grid) and
dice already found are left out.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np

import cv2

from vision import dice_faces as faces_
from vision.dice_coins import is_coin
from vision.dice_grain import stands_out
from vision.dice_measure import cornerness_many, edge_strength, outer_contours, sparse_blob_stats
from vision.dice_segment import fill_holes

if TYPE_CHECKING:
    from vision.dice import DiceParams


def square_blobs(mask: np.ndarray, work: np.ndarray, side: float,
                 taken: list[tuple[float, float]], *, min_edge: float = 60.0,
                 min_pips: float = 30.0, grid: float | None = None, min_corners: float = 1.17,
                 plain_die: Callable[[np.ndarray, np.ndarray, tuple[int, int]], bool] | None = None,
                 contours: tuple | None = None
                 ) -> list[tuple[np.ndarray, tuple[float, float], np.ndarray, tuple[int, int]]]:
    """Die-sized square blobs of ``mask`` (0/255) holding none of the ``taken`` centres.

    Parameters
    ----------
    mask : foreground mask at the working size
    work : BGR working image
    side : die edge length in working pixels
    taken : centres (x, y) of the top faces already found
    grid : turn (degrees) of a checkered table's grid (``dice_segment.grid_turn``)
    min_corners : least corner-to-side distance ratio about the centre (a square 1.41,
        a rounded die's blob 1.2-1.3, a coin 1.0-1.15)
    plain_die : tells a plain square without pips that is a die all the same, given its
        box (4, 2), HSV crop and the crop's origin (x, y); optional
    contours : ``dice_measure.outer_contours(mask)``, when the caller has them

    Returns
    -------
    list of (box, centre, hsv, origin): the blob's minimum-area rectangle (4, 2), its
    centre (x, y), the HSV crop around it and the crop's top-left corner (x, y)
    """
    contours = outer_contours(mask) if contours is None else contours
    out = []
    h, w = mask.shape
    die_area = side * side
    for cnt in contours:
        area = cv2.contourArea(cnt)
        if not 0.5 * die_area <= area <= 1.9 * die_area:
            continue
        x, y, bw, bh = cv2.boundingRect(cnt)
        if x <= 1 or y <= 1 or x + bw >= w - 1 or y + bh >= h - 1:
            continue  # cut by the frame's edge: its shape says nothing
        (cx, cy), (rw, rh), ang = cv2.minAreaRect(cnt)
        if min(rw, rh) < 4 or max(rw, rh) > 1.3 * min(rw, rh):
            continue
        box = cv2.boxPoints(((cx, cy), (rw, rh), ang))  # (found dice first: most blobs)
        if any(cv2.pointPolygonTest(box.astype(np.float32), (float(x), float(y)), True)
               > -0.25 * side for x, y in taken):
            continue
        hull = cv2.convexHull(cnt)
        if area < 0.75 * rw * rh or area < 0.9 * cv2.contourArea(hull):
            continue
        m = cv2.moments(hull)
        centre = (m["m10"] / m["m00"], m["m01"] / m["m00"])
        if not min_corners <= cornerness_many([hull], [centre])[0] <= 1.7:
            continue  # round (a coin) or ragged (a shadow joined to something)
        _, radius = cv2.minEnclosingCircle(hull)
        if area > 0.85 * np.pi * radius * radius:
            continue  # fills its circle: a coin or a counter
        x, y, bw, bh = cv2.boundingRect(hull)
        x0, y0 = max(0, x - 2), max(0, y - 2)
        hsv = cv2.cvtColor(work[y0:y + bh + 2, x0:x + bw + 2], cv2.COLOR_BGR2HSV)
        edge = edge_strength(faces_.gradient(hsv), hull - [x0, y0])
        if edge < min_edge:
            continue  # a soft blotch: a shadow or a stain, not a die's sharp outline
        if inner_contrast(hsv[..., 2], box - [x0, y0]) < min_pips and not (
                plain_die and plain_die(box, hsv, (x0, y0))):
            continue  # a plain face without pips: a counter, a token, a cloth square
        if grid is not None and abs((ang - grid + 45) % 90 - 45) <= 5:
            continue  # turned like the cloth's grid: most likely squares of the cloth
        if not stands_out(edge, work, centre, side):
            continue  # an outline no stronger than the grain around it: the table's noise
        if is_coin(work, centre, side, mask):
            continue  # its outline in the image is an ellipse (the blob's has its shadow)
        out.append((box, centre, hsv, (x0, y0)))
    return drop_pattern(out)


def inner_contrast(value: np.ndarray, box: np.ndarray) -> float:
    """Spread (98th - 2nd percentile) of brightness inside the inner part of a box: high
    where pips are, even a few small ones."""
    c = box.mean(axis=0)
    sel = np.zeros(value.shape, np.uint8)
    cv2.fillConvexPoly(sel, ((box - c) * 0.7 + c).astype(np.int32), 1)
    v = value[sel > 0]
    if v.size < 4:
        return 0.0
    return faces_.percentile(v, 98) - faces_.percentile(v, 2)


def drop_pattern(blobs: list, *, group: int = 4) -> list:
    """Leave out blobs that repeat: ``group`` or more of the same turn and size are the
    squares of a cloth (dice land at random turns)."""
    if len(blobs) < group:
        return blobs
    turns, sizes = [], []
    for box, *_ in blobs:
        dx, dy = box[1] - box[0]
        turns.append(float(np.degrees(np.arctan2(dy, dx)) % 90))
        sizes.append(float(np.linalg.norm(box[1] - box[0]) * np.linalg.norm(box[2] - box[1])))
    keep = []
    for i, blob in enumerate(blobs):
        like = sum(1 for j in range(len(blobs))
                   if abs((turns[i] - turns[j] + 45) % 90 - 45) <= 5
                   and 0.7 <= sizes[j] / max(sizes[i], 1e-6) <= 1 / 0.7)
        if like < group:
            keep.append(blob)
    return keep


def is_plain_die(box: np.ndarray, hsv: np.ndarray, origin: tuple[int, int],
                 mask: np.ndarray, params: DiceParams) -> bool:
    """True for a plain square closed by sharp edges that is a die of a Toss Up colour
    without pips: one colour class covers its middle, and the foreground (its die's side
    faces and shadow, unlike the table when its top is the table's colour) borders part
    of its rim, not all of it (a patch of table closed in between dice). ``box`` (4, 2)
    and ``mask`` (0/255) are in working-image pixels, ``hsv`` is the crop at ``origin``
    (x, y); ``params`` gives the colour classes."""
    cls = faces_.class_map(hsv, params.hue_edges, min_sat=params.min_sat,
                           light_value=params.light_value, min_value=params.min_value)
    code, share = blob_colour(cls, box - origin)
    if code not in faces_.CLASS_NAMES or share < 0.7:
        return False
    c = box.mean(axis=0)
    ring = np.zeros(mask.shape, np.uint8)
    cv2.fillConvexPoly(ring, np.round((box - c) * _RIM + c).astype(np.int32), 255)
    cv2.fillConvexPoly(ring, np.round(box).astype(np.int32), 0)
    n = cv2.countNonZero(ring)
    rim = cv2.countNonZero(cv2.bitwise_and(ring, mask)) / max(1, n)
    return _RIM_SHARE[0] <= rim <= _RIM_SHARE[1]


_RIM = 1.16  # a plain die's rim: its box grown 8% of its edge out on each side
_RIM_SHARE = (0.15, 0.85)  # ... the share of it its side faces and shadow cover (its sides of
#                             the cloth's colour are no foreground: its shadow alone, a sixth)


def half_edges(work: np.ndarray, half: np.ndarray | None = None) -> np.ndarray:
    """Sharp edges (Canny on grey, 0/255) of ``work`` at half size; ``half`` is ``work``
    already shrunk to half size (INTER_AREA), if at hand."""
    h, w = work.shape[:2]
    if half is None:
        half = cv2.resize(work, (w // 2, h // 2), interpolation=cv2.INTER_AREA)  # quicker
    return cv2.Canny(cv2.cvtColor(half, cv2.COLOR_BGR2GRAY), 50, 120)


def edge_mask(work: np.ndarray, edges: np.ndarray) -> np.ndarray:
    """Regions closed by sharp edges (0/255): a die's outline even where its colour is
    the table's; ``edges`` are ``work``'s :func:`half_edges`."""
    h, w = work.shape[:2]
    filled = cv2.morphologyEx(fill_holes(edges), cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    return cv2.resize(filled, (w, h), interpolation=cv2.INTER_NEAREST)


def blob_colour(cls_map: np.ndarray, box: np.ndarray, value: np.ndarray | None = None
                ) -> tuple[int, float]:
    """The colour class covering most of a blob's inner part, and its share there;
    ``box`` in the class map's pixels. With ``value`` (the brightness, the class map's
    shape) each pixel counts as much as it is bright: a die's top is lit from above, so
    where a box takes in its side faces too (a tilted view, a pile's peak off the top's
    middle) the top still tells its colour (white pips are too few to)."""
    h, w = cls_map.shape
    c = box.mean(axis=0)
    inner = ((box - c) * 0.6 + c).astype(np.int32)
    sel = np.zeros((h, w), np.uint8)
    cv2.fillConvexPoly(sel, inner, 1)
    weights = None if value is None else value[sel > 0].astype(np.float64)
    counts = np.bincount(cls_map[sel > 0], weights, minlength=7)
    total = max(1, int(counts.sum()))
    code = int(counts.argmax())
    return code, float(counts[code]) / total


def pip_groups(work: np.ndarray, side: float, taken: list[np.ndarray], *,
               min_contrast: int = 60, min_pips: int = 1, light_pips: bool = True,
               reach: float = 0.42, relative: float = 0.0
               ) -> list[tuple[np.ndarray, tuple[float, float]]]:
    """Plain dice found by their pips: tight groups of small, round, similar spots.

    A white or ivory die on a light table hardly differs from the table, but its pips
    do: spots much darker than their surroundings (a black-hat filter a little bigger than
    a pip), each about a tenth to a quarter of a die's edge across, ``min_pips`` or more
    of them within one die's face (a lone spot only when big, as the pip of a one is),
    linked by steps of at most ``reach`` die edges; specks in a group much smaller or
    fainter than its other spots (a face's pips are alike) are left out of it.
    Then the same for light pips on a dark body (black dice touching each other), unless
    ``light_pips`` is False.
    Groups inside or next to a ``taken`` outline ((N, 2) float32, x, y) are left out.
    Dark pips need ``2 * min_contrast`` of depth on a body of 110 or more, or, when
    ``relative`` is above 0, a depth of ``relative`` times their body's level (and
    ``min_contrast``, and four times the median black-hat of ``work``, its grain or
    noise): in a shadow a pip 80% darker than its body is only ~50 levels darker.
    ``work`` is the BGR working image or its grey version (H, W), uint8.

    Returns
    -------
    list of (box, centre): a die-sized square (4, 2) around the group and its centre (x, y)
    """
    grey = work if work.ndim == 2 else cv2.cvtColor(work, cv2.COLOR_BGR2GRAY)
    seen = np.zeros_like(grey)
    if taken:  # the pips of the dice already found need no second look
        cv2.fillPoly(seen, _rounded(taken), 255)
        grow = max(3, int(0.6 * side) | 1)
        seen = cv2.dilate(seen, cv2.getStructuringElement(cv2.MORPH_RECT, (grow, grow)))
    out: list[tuple[np.ndarray, tuple[float, float]]] = []
    for dark in (True, False) if light_pips else (True,):
        out += _pip_groups(grey, seen, side, out, dark=dark, min_contrast=min_contrast,
                           min_pips=min_pips, reach=reach, relative=relative)
    return out


def _rounded(outlines: list[np.ndarray]) -> list[np.ndarray]:
    """Each outline rounded to int32 pixels (half to even, as ``np.round``), in one
    array operation when they all have one shape (a die's four corners)."""
    if len({t.shape for t in outlines}) > 1:
        return [np.round(t).astype(np.int32) for t in outlines]
    return list(np.rint(np.array(outlines)).astype(np.int32))


def _pip_groups(grey: np.ndarray, seen: np.ndarray, side: float, found: list, *, dark: bool,
                min_contrast: int, min_pips: int, reach: float = 0.42,
                relative: float = 0.0) -> list[tuple[np.ndarray, tuple[float, float]]]:
    """Pip groups of one kind (dark pips on light, or light on dark) outside ``seen``."""
    k = max(5, int(0.45 * side) | 1)
    hat = cv2.morphologyEx(grey, cv2.MORPH_BLACKHAT if dark else cv2.MORPH_TOPHAT,
                           cv2.getStructuringElement(cv2.MORPH_RECT, (k, k)))  # fast
    spots = cv2.subtract(cv2.compare(hat, min_contrast, cv2.CMP_GT), seen)  # seen is 0/255
    speckle: float | None = None  # 4x the median black-hat (the grain), when first needed
    n, stats, cents = sparse_blob_stats(spots)
    if n <= 1:
        return []
    bw, bh, area = stats[1:, 2], stats[1:, 3], stats[1:, 4]
    ok = ((area >= max(3.0, (0.07 * side) ** 2)) & (area <= (0.3 * side) ** 2)
          & (np.maximum(bw, bh) <= 1.7 * np.minimum(bw, bh)) & (area >= 0.5 * bw * bh))
    pts, sizes = cents[1:][ok], area[ok].astype(np.float64)
    if len(pts) < min_pips or len(pts) > 400:
        return []
    groups = sorted(_single_link(pts, reach * side), key=len, reverse=True)
    out = []
    for members in groups:
        g, s = pts[members], sizes[members]
        depth = hat[np.round(g[:, 1]).astype(int), np.round(g[:, 0]).astype(int)]
        if len(g) > min_pips:  # a face's pips are alike: specks of its rim or sides are not
            alike = (s >= 0.5 * np.median(s)) & (depth >= 0.6 * np.median(depth))
            g, s, depth = g[alike], s[alike], depth[alike]
        if not min_pips <= len(g) <= 6 or s.max() > 2.5 * s.min():
            continue
        if len(g) == 1 and s[0] < (0.14 * side) ** 2:
            continue  # a lone spot must be the big pip of a one
        deep = float(np.median(depth))
        if relative and speckle is None:  # (a pass over all of ``hat``: only if asked)
            speckle = 4.0 * float(np.median(hat))
        rel = relative if relative and deep >= speckle else 0.0  # out of the cloth's noise
        if deep < 2 * min_contrast and not rel:
            continue  # faint specks (noise, grain), not pips (judged on the body else)
        span = np.ptp(g, axis=0)
        if span.max() > 0.8 * side:
            continue
        centre = tuple(float(v) for v in g.mean(axis=0))
        if any(np.hypot(centre[0] - c[0], centre[1] - c[1]) < side for _, c in found + out):
            continue  # another group of the same die: its side faces' pips
        half = side / 2
        box = np.array([[-half, -half], [half, -half], [half, half], [-half, half]],
                       np.float32) + np.array(centre, np.float32)
        if _plain_body(grey, spots, centre, 0.4 * side, min_contrast, dark,
                       depth=deep, relative=rel):
            out.append((box, centre))
    return out


def _plain_body(grey: np.ndarray, spots: np.ndarray, centre: tuple[float, float],
                half: float, min_contrast: int, light: bool, *, depth: float,
                relative: float = 0.0) -> bool:
    """True when the pips (median ``depth``) sit on an even body, light (or dark for
    light pips): the face around them (pips left out) is flat, not the grain of a table
    or a dim frame's noise; light is 110 or more, or ``relative`` (when above 0) of it is
    no more than the pips' depth (dark pips judged against the light falling there)."""
    h, w = grey.shape
    x0, y0 = max(0, int(centre[0] - half)), max(0, int(centre[1] - half))
    x1, y1 = min(w, int(centre[0] + half) + 1), min(h, int(centre[1] + half) + 1)
    body = grey[y0:y1, x0:x1][spots[y0:y1, x0:x1] == 0]
    if body.size < 10:
        return False
    if light:
        lo, mid = faces_.percentile(body, 10), faces_.percentile(body, 50)
        lit = (mid >= 110 and depth >= 2 * min_contrast) or (
            relative > 0 and depth >= max(min_contrast, relative * mid))
        return lit and mid - lo <= 0.8 * min_contrast
    mid, hi = faces_.percentile(body, 50), faces_.percentile(body, 90)
    return mid <= 100 and hi - mid <= 0.8 * min_contrast and depth >= 2 * min_contrast


def _single_link(pts: np.ndarray, reach: float) -> list[list[int]]:
    """Groups of points joined by steps no longer than ``reach`` (single linkage)."""
    d = np.hypot(pts[:, None, 0] - pts[None, :, 0], pts[:, None, 1] - pts[None, :, 1])
    near = d <= reach
    label = -np.ones(len(pts), int)
    groups = []
    for i in range(len(pts)):
        if label[i] >= 0:
            continue
        label[i] = len(groups)
        stack, members = [i], [i]
        while stack:
            j = stack.pop()
            for nb in np.flatnonzero(near[j] & (label < 0)):
                label[nb] = label[i]
                stack.append(nb)
                members.append(nb)
        groups.append(members)
    return groups
