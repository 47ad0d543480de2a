"""Face candidates: the colour classes of the pixels near each blob, and their measures.

Near every foreground blob the pixels are sorted into colour classes; the bright core of
each connected run of one class (pips and marks filled in) is a *face candidate*
(``dice_candidates`` finds them), measured here (size, shape, corners, pips, mark, edge)
for ``dice_pick`` to choose the top faces from. A light face takes the colour of the mark
inside it (dice with a light body and a coloured mark on each face).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

import cv2

from vision import dice_measure as measure_

# Colour classes of the class map.
NONE, GREEN, YELLOW, RED, HUE, LIGHT, GREY = range(7)
CLASS_NAMES = {GREEN: "green", YELLOW: "yellow", RED: "red"}


@dataclass(frozen=True)
class Face:
    """A face candidate in work-image pixels."""

    cls: int
    area: float  # with pips and marks filled in
    centre: tuple[float, float]  # (x, y)
    box: np.ndarray  # (4, 2) minimum-area rectangle corners, (x, y)
    aspect: float  # long side / short side of the rectangle
    fill: float  # area / rectangle area
    value: float  # mean HSV value of the face (after an exposure gain, not clipped at white)
    holes: float  # share of the filled area that is pips or mark
    mark: int  # colour class of the biggest coloured mark inside (NONE if none)
    agree: float  # share of the filled area in the face's own class (or the mark's)
    bgr: tuple[float, float, float]  # mean colour of the face's own pixels
    ring: float  # share of a thin ring around the face that is light (a die body)
    edge: float  # mean brightness/saturation gradient along the outline (crisp for dice)
    pips: float  # brightness difference between the holes (pips, mark) and the face
    max_hole: float  # the biggest hole's share of the face (pips are small)
    corners: float  # farthest outline point / nearest outline side, from the centre:
    #                 about 1.3-1.5 for a (rounded) square, 1.0-1.2 for a coin
    body: float = 0.0  # for a mark on a light die: the die's edge length, else 0
    whole: bool = False  # a whole run of one colour, tried because it had no bright core
    mark_off: float = 0.0  # distance of the mark's centre from the face's, over the face's
    #                        edge length (a top face's mark sits in its middle)
    spots: tuple = ()  # the coloured spots (class, x, y, share of the face) inside a light
    #                    face, each 3% of it or more: one per die, more make a block of dice
    body_value: float = 0.0  # for a mark on a light die: the body's brightness (HSV value)
    #                          next to the mark (a side face is in shade), else 0
    outline: np.ndarray | None = None  # (N, 1, 2) int32 convex hull, (x, y) work pixels

    @property
    def marks(self) -> int:
        """How many coloured spots the face holds."""
        return len(self.spots)


def class_map(hsv: np.ndarray, hue_edges: tuple[int, int, int, int, int], *, min_sat: int,
              light_value: int, min_value: int | np.ndarray, planes: tuple | None = None
              ) -> np.ndarray:
    """Colour class per pixel of an HSV (OpenCV ranges) image; uint8 of the class codes.

    ``hue_edges`` = (red|orange, orange|yellow, yellow|green, green|blue, blue|red) in
    OpenCV hue 0-180; orange and blue-to-purple are other games' colours (class HUE).
    ``planes`` is ``cv2.split(hsv)`` when the caller has it already. ``min_value`` may
    be an image (uint8, the shape of ``hsv``'s planes): a threshold per pixel.
    """
    ro, ry, yg, go, orr = hue_edges
    lut = np.full(256, HUE, np.uint8)
    lut[:ro] = RED
    lut[orr:181] = RED
    lut[ry:yg] = YELLOW
    lut[yg:go] = GREEN
    hue, sat, val = planes or cv2.split(hsv)  # OpenCV copies a strided channel on every call
    out = cv2.LUT(hue, lut)
    grey = cv2.compare(sat, min_sat, cv2.CMP_LT) | cv2.compare(val, min_value, cv2.CMP_LT)
    light = grey & cv2.compare(val, light_value, cv2.CMP_GE)
    # cv2.copyTo with a mask: numpy boolean assignment is 20-50 times slower here
    cv2.copyTo(np.full_like(out, GREY), grey, out)
    cv2.copyTo(np.full_like(out, LIGHT), light, out)
    return out


def class_histogram(cls_roi: np.ndarray, where: np.ndarray) -> np.ndarray:
    """Pixel count per class code inside a 0/255 mask."""
    hist = cv2.calcHist([cls_roi], [0], where, [8], [0, 8])
    return hist.ravel()


def class_histograms(cls_roi: np.ndarray, where: np.ndarray, within: np.ndarray
                     ) -> tuple[np.ndarray, np.ndarray]:
    """``class_histogram`` inside ``where`` and inside ``within`` (0/255 masks, ``within``
    set only where ``where`` is), the same counts from one histogram: each pixel's class
    code (0-7) is raised by 8 where ``within`` is set, and ``where``'s 16-bin histogram
    holds both (a masked histogram costs some ten times a comparison of the image)."""
    both = cv2.bitwise_or(cls_roi, cv2.bitwise_and(within, 8))
    hist = cv2.calcHist([both], [0], where, [16], [0, 16]).ravel()
    return hist[:8] + hist[8:], hist[8:]


def components(mask: np.ndarray) -> tuple[int, np.ndarray, np.ndarray, np.ndarray]:
    """8-connected components of a uint8 mask with their stats and centroids (as
    ``cv2.connectedComponentsWithStats``), by the block-based scan that is quickest on
    one core."""
    return cv2.connectedComponentsWithStatsWithAlgorithm(mask, 8, cv2.CV_32S, cv2.CCL_GRANA)


def percentile(values: np.ndarray, q: float) -> float:
    """The q-th percentile of a 1-D array (nearest rank; faster than numpy's for small arrays)."""
    k = min(len(values) - 1, int(len(values) * q / 100))
    return float(np.partition(values, k)[k])


def gradient(hsv_roi: np.ndarray, planes: tuple | None = None) -> np.ndarray:
    """Per-pixel contrast: the larger 3x3 morphological gradient of value and saturation,
    doubled (about what a Sobel filter gives on a clean step), as uint8; ``planes`` is
    ``cv2.split(hsv_roi)`` when the caller has it already."""
    _, sat, val = planes or cv2.split(hsv_roi)
    kernel = np.ones((3, 3), np.uint8)
    g = cv2.max(cv2.morphologyEx(sat, cv2.MORPH_GRADIENT, kernel),
                cv2.morphologyEx(val, cv2.MORPH_GRADIENT, kernel))
    return cv2.add(g, g)  # 2 g, saturated at 255


def unclipped_gradient(grad: np.ndarray, lit: tuple) -> np.ndarray:
    """``grad`` (:func:`gradient`) with the contrast an exposure gain clipped at white
    brought back: ``lit`` is (the brightness before the gain, the gain) over its pixels."""
    g = cv2.morphologyEx(lit[0], cv2.MORPH_GRADIENT, np.ones((3, 3), np.uint8))
    return cv2.max(grad, cv2.convertScaleAbs(g, alpha=2 * lit[1]))


def describe(code: int, cnt: np.ndarray, area: float, own_crop: np.ndarray,
             origin: tuple[int, int], cls_roi: np.ndarray, hsv_roi: np.ndarray,
             bgr_roi: np.ndarray, grad: np.ndarray, offset: tuple[int, int], *,
             shape: tuple[float, float] = (2.4, 0.5)) -> Face | None:
    """Measure one candidate outline ``cnt`` (a convex hull, ROI pixels).

    ``own_crop`` is the mask of the candidate's own pixels over a box at ``origin`` (x, y)
    that contains the outline; the result is placed in the work image by ``offset``.
    Outlines longer than ``shape[0]`` times their width or filling less than ``shape[1]``
    of their rectangle are not measured (None).
    """
    part = measure(code, cnt, area, own_crop, origin, cls_roi, hsv_roi, bgr_roi, offset,
                   shape=shape)
    return None if part is None else finish([part], cls_roi, grad, offset)[0]


def measure(code: int, cnt: np.ndarray, area: float, own_crop: np.ndarray,
            origin: tuple[int, int], cls_roi: np.ndarray, hsv_roi: np.ndarray,
            bgr_roi: np.ndarray, offset: tuple[int, int], *,
            shape: tuple[float, float] = (2.4, 0.5), need_pips: bool = False,
            planes: tuple | None = None, lit: tuple | None = None,
            drop_plain: bool = False) -> dict | None:
    """The measures of one outline taken from its own pixels (as :func:`describe`), as
    the ``Face`` fields but ``corners``, ``ring`` and ``edge`` (see :func:`finish`), with
    the outline under "hull" and its centre in ROI pixels under "at"; None as there, and
    when ``need_pips`` and the face has none (``has_pips``: left as soon as that is
    known). ``planes`` is ``cv2.split(hsv_roi)`` when the caller has it (contiguous
    planes: OpenCV copies a channel of ``hsv_roi`` on every call). With ``drop_plain`` an
    uncoloured (light, grey) face with neither pips nor a mark is None too: none is ever used."""
    (cx, cy), (rw, rh), ang = cv2.minAreaRect(cnt)
    short, long_ = (rw, rh) if rw < rh else (rh, rw)
    if short < 2 or long_ > shape[0] * short:
        return None  # a sliver: a side face or an edge, never a top face or a mark
    m = cv2.moments(cnt)  # (its m00 is the outline's area)
    fill = m["m00"] / ((rw + 1) * (rh + 1) - 1)
    if fill < shape[1]:
        return None
    x, y, w, h = cv2.boundingRect(cnt)
    filled = np.zeros((h, w), np.uint8)
    cv2.drawContours(filled, [cnt], -1, 255, cv2.FILLED, offset=(-x, -y))
    ox, oy = origin
    own = own_crop[y - oy:y - oy + h, x - ox:x - ox + w]  # 0/255 already
    sel = cv2.bitwise_and(own, filled)
    n_sel = cv2.countNonZero(sel)
    if n_sel == 0:
        return None
    k = max(1, int(0.12 * short))  # pips and marks sit inside, not on the rim
    holes = cv2.subtract(cv2.erode(filled, _rect(2 * k + 1)), own)  # inside, not own
    n_in = max(1, cv2.countNonZero(filled))
    n_holes = cv2.countNonZero(holes)
    hole_share = n_holes / n_in
    holed = hole_share > 0.02
    plain = need_pips or drop_plain and (code == LIGHT or code == GREY)
    if plain and not holed:
        return None
    crop = (slice(y, y + h), slice(x, x + w))
    agree = n_sel / n_in
    if lit is None:
        gain, vroi = 1.0, planes[2][crop] if planes else hsv_roi[crop][..., 2]
    else:  # brightness before an exposure gain, on the gained scale but not clipped
        gain, vroi = lit[1], lit[0][crop]
    value = gain * cv2.mean(vroi, sel)[0]
    pips = abs(gain * cv2.mean(vroi, holes)[0] - value) if holed else 0.0
    # a light body looks pale yellow under a warm lamp; pale orange or pale blue under a
    # lamp's stronger cast (then its mark must stand out: a tinted patch of table is plain)
    pale = (code == YELLOW or code == HUE and pips >= 35) and cv2.mean(
        planes[1][crop] if planes else hsv_roi[crop][..., 1], sel)[0] < 110
    mark, mark_off, spots = NONE, 0.0, ()
    if holed and (code == LIGHT or code == GREY or pale):
        # a light body carries a coloured mark
        mark, share, at, spots = _mark(cls_roi[crop], holes, n_in, skip_yellow=pale)
        spots = tuple((c, sx + x + offset[0], sy + y + offset[1], share)
                      for c, sx, sy, share in spots)
        if mark != NONE:
            agree = share / max(1, n_holes)
            mark_off = float(np.hypot(at[0] + x - cx, at[1] + y - cy) / np.sqrt(n_in))
    if plain and mark == NONE and pips < 35:
        return None
    max_hole = _max_hole(holes) / n_in if holed else 0.0
    if need_pips and not _has_pips(hole_share, mark, max_hole, pips):
        return None
    box = cv2.boxPoints(((cx, cy), (rw, rh), ang)) + offset
    b, g, r, _ = cv2.mean(bgr_roi[crop], sel)
    if m["m00"] > 0:
        cx, cy = m["m10"] / m["m00"], m["m01"] / m["m00"]
    return dict(cls=code, area=float(area), centre=(cx + offset[0], cy + offset[1]), box=box,
                aspect=float(long_ / short), fill=float(fill),
                value=value, holes=hole_share, mark=mark, agree=agree, bgr=(b, g, r),
                pips=pips, max_hole=max_hole, mark_off=mark_off,
                spots=spots if mark != NONE else (), hull=cnt, at=(cx, cy))


def finish(parts: list[dict], cls_roi: np.ndarray, grad: np.ndarray,
           offset: tuple[int, int], whole: list[bool] | None = None) -> list[Face]:
    """Faces from the outlines :func:`measure` took, with the measures taken of all of
    them at once (``dice_measure``): corners, the light ring of coloured faces and the
    outline's edge strength; ``whole`` marks those tried as whole runs. A part's
    ``near_ring`` (a mark's light share just around it) stands for its ring when more."""
    hulls = [p["hull"] for p in parts]
    ats = [p["at"] for p in parts]
    corners = measure_.cornerness_many(hulls, ats)
    coloured = [i for i, p in enumerate(parts) if p["cls"] in CLASS_NAMES]
    rings = [0.0] * len(parts)
    for i, r in zip(coloured, measure_.ring_share_many(
            cls_roi, LIGHT, [parts[i]["box"] - offset for i in coloured],
            [ats[i] for i in coloured])):
        rings[i] = r
    whole = whole or [False] * len(parts)
    shift = np.asarray(offset, np.int32)
    return [Face(**_fields(p), corners=c, ring=max(r, p.get("near_ring", 0.0)),
                 edge=measure_.edge_strength(grad, h), whole=wh, outline=h + shift)
            for p, c, r, h, wh in zip(parts, corners, rings, hulls, whole)]


def _fields(part: dict) -> dict:
    """A measured part's ``Face`` fields: a copy without "hull", "at" and "near_ring"."""
    fields = part.copy()  # (quicker than filtering every key)
    del fields["hull"], fields["at"]
    fields.pop("near_ring", None)
    return fields


_RECTS: dict[int, np.ndarray] = {}


def _rect(k: int) -> np.ndarray:
    """A k x k square structuring element (cached)."""
    if k not in _RECTS:
        _RECTS[k] = np.ones((k, k), np.uint8)
    return _RECTS[k]


def _max_hole(holes: np.ndarray) -> float:
    """Pixel count of the biggest 8-connected piece of a 0/255 mask."""
    _, _, stats, _ = components(holes)
    return float(stats[1:, 4].max()) if len(stats) > 1 else 0.0


def _mark(cls_crop: np.ndarray, holes: np.ndarray, n_in: int, *, skip_yellow: bool
          ) -> tuple[int, float, tuple[float, float], tuple]:
    """The coloured mark among a light face's holes: (class, pixel count, centre (x, y)
    in the crop, the separate coloured spots of 3% of the face or more as (class, x, y,
    share)),
    or (NONE, 0, (0, 0), ()) when no colour covers 3% of the face."""
    counts = class_histogram(cls_crop, holes)[GREEN:RED + 1].astype(np.int64)
    if skip_yellow:  # a pale yellow body: yellow holes are the body's own shading
        counts[YELLOW - GREEN] = 0
    if counts.max() <= 0.03 * n_in:
        return NONE, 0.0, (0.0, 0.0), ()
    mark = int(GREEN + counts.argmax())
    in_mark = cv2.bitwise_and(holes, cv2.compare(cls_crop, mark, cv2.CMP_EQ))
    spots, at = [], (0.0, 0.0)
    for code in (GREEN, YELLOW, RED):
        if counts[code - GREEN] > 0.03 * n_in:
            _, _, stats, cents = components(in_mark if code == mark else
                                            cv2.bitwise_and(holes, cv2.compare(cls_crop, code,
                                                                               cv2.CMP_EQ)))
            if code == mark:  # (always: the mark's count is the most, over 3%)
                at = _centroid(stats[1:, 4], cents[1:])
            spots += [(code, float(cx), float(cy), float(st[4] / n_in))
                      for (cx, cy), st in zip(cents[1:], stats[1:]) if st[4] >= 0.03 * n_in]
    return mark, float(counts.max()), at, tuple(spots)


def _centroid(areas: np.ndarray, cents: np.ndarray) -> tuple[float, float]:
    """The centre (x, y) of all the labelled pieces together, bit for bit as
    ``cv2.moments(mask, True)`` gives it (m10 / m00, m01 / m00): each piece's exact pixel
    sums are recovered from its centroid (a sum over its area, in double) and added."""
    area = areas.astype(np.float64)
    sums = np.rint(cents * area[:, None]).sum(axis=0)
    total = float(area.sum())
    return float(sums[0]) / total, float(sums[1]) / total


def has_pips(face: Face) -> bool:
    """True when the face has holes that stand out (pips, a mark), not just noise."""
    return _has_pips(face.holes, face.mark, face.max_hole, face.pips)


def _has_pips(holes: float, mark: int, max_hole: float, pips: float) -> bool:
    if holes < 0.02:
        return False
    if mark != NONE:
        return max_hole <= 0.6
    return pips >= 35 and max_hole <= 0.22

