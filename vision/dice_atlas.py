"""Face candidates measured all at once, their crops laid side by side in one image.

``dice_faces.measure`` takes the measures of one face candidate (an outline and its own
pixels) in some twenty small OpenCV calls on a crop of ten to forty pixels a side, and
a frame has some fifty candidates: the calls cost more than the pixels. Here the crops
of all candidates of a frame that pass the shape test are laid on shelves in one image
(the *atlas*) and each step is one call over it: every outline filled in one call, one
erosion per pip margin (each crop's margin to its neighbours as wide as its own pip
margin, so that the erosion sees outside a crop as set, as it sees outside an image),
the biggest hole of each crop from one labelling, and every count and pixel sum read
off integral images at the crops' corners. Only the shape test, the moments and the
coloured mark of a light face (a few a frame) stay per candidate.

The result is ``dice_faces.measure``'s, bit for bit: ``cv2.mean`` is the exact pixel sum
times the reciprocal of the count, and so is the mean here.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

import cv2

from vision import dice_faces as faces_
from vision.dice_faces import GREY, HUE, LIGHT, NONE, YELLOW


class Candidate(NamedTuple):
    """One outline to measure, with ``dice_faces.measure``'s arguments of that name."""

    code: int  # colour class
    hull: np.ndarray  # (N, 1, 2) int32 convex outline, ROI pixels (x, y)
    area: float
    own: np.ndarray  # 0/255 mask of the candidate's own pixels over a box at ``origin``
    origin: tuple[int, int]  # (x, y) of ``own`` in the ROI
    shape: tuple[float, float] = (2.4, 0.5)
    need_pips: bool = False
    drop_plain: bool = False


class _Shape(NamedTuple):
    """A candidate that passed the shape test: its rectangle, moments and box."""

    index: int
    rect: tuple  # cv2.minAreaRect's ((cx, cy), (w, h), angle)
    short: float
    long_: float
    moments: dict
    fill: float
    box: tuple[int, int, int, int]  # (x, y, w, h), ROI pixels
    margin: int  # the pip margin k: holes are the filled outline eroded by 2k + 1


def measure_all(cands: list[Candidate], cls_roi: np.ndarray, hsv_roi: np.ndarray,
                bgr_roi: np.ndarray, offset: tuple[int, int], *,
                planes: tuple | None = None, lit: tuple | None = None) -> list[dict | None]:
    """``dice_faces.measure`` of each candidate (None where it gives None), in order.

    Parameters
    ----------
    cands : the candidates, each with its own mask
    cls_roi : ndarray (H, W), uint8, the class map of the ROI
    hsv_roi, bgr_roi : ndarray (H, W, 3), uint8, the ROI in HSV (OpenCV ranges) and BGR
    offset : (x, y) of the ROI in the work image
    planes : ``cv2.split(hsv_roi)`` when the caller has it
    lit : (the ROI's brightness before an exposure gain, the gain), as for ``measure``
    """
    out: list[dict | None] = [None] * len(cands)
    shapes = [s for s in (_shape(i, c) for i, c in enumerate(cands)) if s is not None]
    if not shapes:
        return out
    value = lit[0] if lit is not None else planes[2] if planes else hsv_roi[..., 2]
    atlas = _Atlas(shapes, cands, value)
    rois = (cls_roi, planes[1] if planes else hsv_roi[..., 1], bgr_roi)
    gain = 1.0 if lit is None else lit[1]
    for j, s in enumerate(shapes):
        out[s.index] = _part(cands[s.index], s, atlas, j, rois, offset, gain)
    return out


def _shape(i: int, c: Candidate) -> _Shape | None:
    """The candidate's rectangle and moments if it is neither a sliver nor too hollow
    for its ``shape`` (``measure``'s first tests), else None."""
    rect = cv2.minAreaRect(c.hull)
    _, (rw, rh), _ = rect
    short, long_ = (rw, rh) if rw < rh else (rh, rw)
    if short < 2 or long_ > c.shape[0] * short:
        return None
    m = cv2.moments(c.hull)
    fill = m["m00"] / ((rw + 1) * (rh + 1) - 1)
    if fill < c.shape[1]:
        return None
    return _Shape(i, rect, short, long_, m, fill, cv2.boundingRect(c.hull),
                  max(1, int(0.12 * short)))


def _part(c: Candidate, s: _Shape, a: _Atlas, j: int, rois: tuple,
          offset: tuple[int, int], gain: float) -> dict | None:
    """``measure``'s dict of candidate ``c`` (the ``j``-th crop of atlas ``a``), or None
    by ``measure``'s tests, in its order; ``rois`` are the ROI's class map, saturation
    and BGR image."""
    n_sel = a.n_sel[j]
    if n_sel == 0:
        return None
    n_in = max(1, a.n_in[j])
    n_holes = a.n_holes[j]
    hole_share = n_holes / n_in
    holed = hole_share > 0.02
    code = c.code
    plain = c.need_pips or c.drop_plain and (code == LIGHT or code == GREY)
    if plain and not holed:
        return None
    agree = n_sel / n_in
    scale = 1.0 / n_sel  # (cv2.mean: the sum times the reciprocal of the count)
    value = gain * (a.v_sel[j] * scale)
    pips = abs(gain * (a.v_holes[j] * (1.0 / n_holes)) - value) if holed else 0.0
    x, y, w, h = s.box
    crop = (slice(y, y + h), slice(x, x + w))
    pale = (code == YELLOW or code == HUE and pips >= 35) and cv2.mean(
        rois[1][crop], a.crop(a.sel, j))[0] < 110
    (cx, cy), _, _ = s.rect
    mark, mark_off, spots = NONE, 0.0, ()
    if holed and (code == LIGHT or code == GREY or pale):
        mark, share, at, spots = faces_._mark(rois[0][crop], a.crop(a.holes, j), n_in,
                                              skip_yellow=pale)
        spots = tuple((cl, sx + x + offset[0], sy + y + offset[1], sh)
                      for cl, sx, sy, sh in spots)
        if mark != NONE:
            agree = share / max(1, n_holes)
            mark_off = float(np.hypot(at[0] + x - cx, at[1] + y - cy) / np.sqrt(n_in))
    if plain and mark == NONE and pips < 35:
        return None
    max_hole = faces_._max_hole(a.crop(a.holes, j)) / n_in if holed else 0.0
    if c.need_pips and not faces_._has_pips(hole_share, mark, max_hole, pips):
        return None
    box = cv2.boxPoints(s.rect) + offset
    b, g, r, _ = cv2.mean(rois[2][crop], a.crop(a.sel, j))
    m = s.moments
    if m["m00"] > 0:
        cx, cy = m["m10"] / m["m00"], m["m01"] / m["m00"]
    return dict(cls=code, area=float(c.area), centre=(cx + offset[0], cy + offset[1]),
                box=box, aspect=float(s.long_ / s.short), fill=float(s.fill),
                value=value, holes=hole_share, mark=mark, agree=agree, bgr=(b, g, r),
                pips=pips, max_hole=max_hole, mark_off=mark_off,
                spots=spots if mark != NONE else (), hull=c.hull, at=(cx, cy))


# planes of the atlas's stack (rows, planes, columns): what is summed over each crop
_V_SEL, _V_HOLES, _FILLED, _SEL, _HOLES = range(5)


class _Atlas:
    """The crops of the candidates that passed the shape test, on shelves in one image:
    their filled outlines, own pixels in them (``sel``) and holes (``holes``, 0/255),
    and what ``measure`` counts and sums over each: ``n_in`` (the filled outline),
    ``n_sel``, ``n_holes``, the brightness over the own pixels (``v_sel``) and over the
    holes (``v_holes``), as lists of Python ints, one per crop in the order given."""

    def __init__(self, shapes: list[_Shape], cands: list[Candidate], value: np.ndarray
                 ) -> None:
        lay = _layout(shapes)
        self.slots, self.sizes = lay.slots, [s.box[2:] for s in shapes]
        height, width = lay.size
        # every plane summed over a crop in one (rows, planes, columns) stack: a shelf's
        # rows are one 2-D block, its columns summed in one call
        stack = np.zeros((height, 5, width), np.uint8)
        plane = [stack[:, i, :] for i in range(5)]
        own = np.zeros((height, width), np.uint8)
        margin = np.zeros_like(own)  # each crop's pip margin k, 0 outside the crops
        val = plane[_V_SEL]  # (the brightness, masked in the end)
        hulls = []
        for s, (sx, sy) in zip(shapes, self.slots):
            c = cands[s.index]
            x, y, w, h = s.box
            ox, oy = c.origin
            rows, cols = slice(sy, sy + h), slice(sx, sx + w)
            val[rows, cols] = value[y:y + h, x:x + w]
            own[rows, cols] = c.own[y - oy:y - oy + h, x - ox:x - ox + w]
            margin[rows, cols] = s.margin
            hulls.append(c.hull + np.array([sx - x, sy - y], np.int32))
        filled, sel, holes = plane[_FILLED], plane[_SEL], plane[_HOLES]
        cv2.drawContours(filled, hulls, -1, 255, cv2.FILLED)  # (the crops lie apart)
        cv2.bitwise_and(own, filled, dst=sel)
        # holes: the filled outline eroded by its pip margin, not own; outside a crop is
        # set for the erosion (as outside an image), crops at least their margin apart
        outside = cv2.bitwise_or(filled, cv2.compare(margin, 0, cv2.CMP_EQ))
        eroded = np.zeros_like(own)
        for k, y0, y1 in lay.bands:
            top, bottom = max(0, y0 - k), min(height, y1 + k)
            band = cv2.erode(outside[top:bottom], faces_._rect(2 * k + 1))[y0 - top:y1 - top]
            cv2.copyTo(band, cv2.compare(margin[y0:y1], k, cv2.CMP_EQ), eroded[y0:y1])
        cv2.subtract(eroded, own, dst=holes)
        cv2.bitwise_and(val, holes, dst=plane[_V_HOLES])
        cv2.bitwise_and(val, sel, dst=val)
        sums = _crop_sums(stack, lay, [w for w, _ in self.sizes])
        self.v_sel, self.v_holes = sums[:, _V_SEL].tolist(), sums[:, _V_HOLES].tolist()
        # (the masks count 255 a pixel)
        self.n_in, self.n_sel, self.n_holes = (sums[:, _FILLED:_HOLES + 1] // 255).T.tolist()
        self.sel, self.holes = sel, holes

    def crop(self, plane: np.ndarray, j: int) -> np.ndarray:
        """The ``j``-th crop of one of the atlas's planes (a view)."""
        (sx, sy), (w, h) = self.slots[j], self.sizes[j]
        return plane[sy:sy + h, sx:sx + w]


class _Layout(NamedTuple):
    """Where the crops lie in the atlas."""

    slots: list[tuple[int, int]]  # top-left corner (x, y) of each crop
    shelf: list[int]  # the shelf each crop lies on
    shelves: list[tuple[int, int]]  # (first row, row past the last) of each shelf
    bands: list[tuple[int, int, int]]  # (k, first row, row past the last) of each margin k
    size: tuple[int, int]  # (height, width)


def _layout(shapes: list[_Shape]) -> _Layout:
    """The crops on shelves, the widest pip margin k first and then the tallest, each
    crop its margin from the next and each shelf the larger of the two shelves' margins
    from the next: a crop's margin is empty of other crops."""
    order = sorted(range(len(shapes)), key=lambda i: (-shapes[i].margin, -shapes[i].box[3]))
    area = sum((s.box[2] + s.margin) * (s.box[3] + s.margin) for s in shapes)
    width = max(max(s.box[2] for s in shapes), int(1.2 * np.sqrt(area)))
    slots: list[tuple[int, int]] = [(0, 0)] * len(shapes)
    shelf_of = [0] * len(shapes)
    shelves: list[tuple[int, int]] = []
    spans: dict[int, list[int]] = {}  # k: [first row, row past the last]
    x = y = tall = 0
    k_shelf = shapes[order[0]].margin  # (the shelf's widest margin: its first crop's)
    for i in order:
        s = shapes[i]
        w, h = s.box[2:]
        if x and x + w > width:  # a new shelf, the previous one's margin below it
            shelves.append((y, y + tall))
            x, y, tall, k_shelf = 0, y + tall + k_shelf, 0, s.margin
        slots[i], shelf_of[i] = (x, y), len(shelves)
        span = spans.setdefault(s.margin, [y, y + h])
        span[1] = max(span[1], y + h)
        x, tall = x + w + s.margin, max(tall, h)
    shelves.append((y, y + tall))
    bands = [(k, y0, y1) for k, (y0, y1) in spans.items()]
    return _Layout(slots, shelf_of, shelves, bands, (y + tall, width))


def _crop_sums(stack: np.ndarray, lay: _Layout, widths: list[int]) -> np.ndarray:
    """(N, planes) int64 sums of each plane of ``stack`` (rows, planes, columns) over
    each crop (of these ``widths``): the column sums of each shelf (no two crops of a
    shelf share a column, and outside the crops every plane is empty), then their
    running sums across each crop."""
    _, n_planes, width = stack.shape
    cols = np.empty((len(lay.shelves), n_planes * width), np.int32)
    for i, (y0, y1) in enumerate(lay.shelves):
        cv2.reduce(stack[y0:y1].reshape(y1 - y0, -1), 0, cv2.REDUCE_SUM,
                   dst=cols[i:i + 1], dtype=cv2.CV_32S)
    runs = np.zeros((len(lay.shelves), n_planes, width + 1), np.int64)
    np.cumsum(cols.reshape(-1, n_planes, width), axis=2, out=runs[:, :, 1:])
    shelf = np.array(lay.shelf)
    x0 = np.array([x for x, _ in lay.slots])
    return runs[shelf, :, x0 + np.array(widths)] - runs[shelf, :, x0]
