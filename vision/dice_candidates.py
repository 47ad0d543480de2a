"""Face candidates: the runs of each colour class near the blobs, cut at their bright cores.

Coloured pixels count where they differ from the table within half a die of a blob (a
green die on green felt is not merged with the felt), light and grey ones inside the
blob too (a white die on a white table). Each run of one class is cut down to its bright
core (``dice_runs``), and each piece of that core is measured as a face candidate
(``dice_faces.measure``, then ``dice_faces.finish``). Points are (x, y) in the ROI.
"""

from __future__ import annotations

import numpy as np

import cv2

from vision import dice_faces as faces_
from vision import dice_measure as measure_
from vision import dice_runs as runs_
from vision.dice_faces import CLASS_NAMES, HUE, Face
from vision.dice_necks import hull_area, neck_pieces


def face_candidates(cls_roi: np.ndarray, blob_roi: np.ndarray, near_roi: np.ndarray,
                    raw_roi: np.ndarray, hsv_roi: np.ndarray, bgr_roi: np.ndarray,
                    grad: np.ndarray, offset: tuple[int, int], min_area: float, *,
                    side: float, shape: tuple[float, float] = (2.4, 0.5),
                    core: float = 0.8, planes: tuple | None = None,
                    traced: dict | None = None, lit: tuple | None = None) -> list[Face]:
    """Face candidates around one blob; ``offset`` (x, y) places the ROI in the work image.

    Coloured pixels count where they differ from the table (``raw_roi``) within half a die
    of the blob (``near_roi``), so a green die on green felt is not merged with the felt;
    light pixels count inside the blob (a white die on a white table). Each piece of the
    bright core of a run of one class is a candidate (value at least ``core`` times the
    run's 85th percentile): the top face is lit best, while side faces and the dark
    seams between touching dice fall away, splitting faces of the same colour. Coloured
    runs that are table-coloured are tried too, but only keep faces with pips.
    ``shape`` (longest aspect, least fill) bounds what is measured; coloured outlines
    may be up to 2.4 times longer than wide (two touching dice of one colour, for
    ``dice_split``).  ``planes`` are the ROI's three planes (``cv2.split(hsv_roi)``) when
    the caller has them. ``traced``, when given, is filled with ``{code: (mask, outlines)}``
    for each Toss Up colour traced where it lies near a blob, the mask (0/255) and outlines
    ``dice_marks.find_marks`` traces too (a pass on ``unlike`` is that pass when all
    the colour's pixels near a blob differ from the table). ``lit`` (the ROI's brightness
    before an exposure gain, the gain) is where cores are cut and brightness measured.
    ``side`` is a die's edge (ROI pixels): a run no bigger than two and a half dice's
    faces is tried whole too, and one far bigger is no die.
    """
    max_whole = 2.5 * side * side
    parts: list[dict] = []
    wholes: list[bool] = []
    long_ = (max(shape[0], 2.4), shape[1])  # two dice of one colour side by side
    # the V plane, contiguous: it is cut into many crops for OpenCV
    value = planes[2] if planes is not None else np.ascontiguousarray(hsv_roi[..., 2])
    near = cv2.compare(near_roi, 0, cv2.CMP_GT)
    unlike = cv2.bitwise_and(near, cv2.compare(raw_roi, 0, cv2.CMP_GT))
    blob = cv2.compare(blob_roi, 0, cv2.CMP_GT)
    present, differs = faces_.class_histograms(cls_roi, near, unlike)
    runs: list[tuple[int, bool, runs_.Run, float]] = []  # (code, need_pips, run, run area)
    for code in np.flatnonzero(present >= 0.5 * min_area):
        if code in CLASS_NAMES:
            passes = [(unlike, False)]
            if differs[code] < 0.7 * present[code]:  # a table colour: dice of it need pips
                passes.append((near, True))
        else:
            passes = [(unlike, False)] if code == HUE else \
                [(blob, False), (cv2.bitwise_or(blob, unlike), False)]
        is_code = cv2.compare(cls_roi, int(code), cv2.CMP_EQ)
        runs_seen: set[tuple[int, ...]] = set()
        for where, need_pips in passes:
            mask = cv2.bitwise_and(is_code, where)
            outlines = measure_.outer_contours(mask)
            if traced is not None and code in CLASS_NAMES and (
                    need_pips or differs[code] == present[code]):
                traced[int(code)] = (mask, outlines)  # all of the colour near a blob
            runs += [(int(code), need_pips, run, area)
                     for run, area in _runs(mask, min_area, runs_seen, outlines)]
    # the bright cores of all runs at once (``dice_runs``), then each run's pieces in turn
    cores = runs_.bright_cores([r for _, _, r, _ in runs], lit[0] if lit else value, core)
    seen: set[tuple[int, ...]] = set()
    for i, ((code, need_pips, run, run_area), cut) in enumerate(zip(runs, cores)):
        if i and code != runs[i - 1][0]:
            seen = set()  # (outlines repeat only within one colour class)
        # (touching dice of a Toss Up colour are cut by ``dice_split``, others at necks)
        for hull, area, own, whole in _pieces(run, run_area, cut, min_area, max_whole, side,
                                              necks=code not in CLASS_NAMES):
            key = (*cv2.boundingRect(hull), len(hull))
            if key in seen or area > 2.4 * max_whole:
                continue  # the same outline from another pass, or far too big for a die
            seen.add(key)
            part = faces_.measure(code, hull, area, own, (run.x, run.y), cls_roi, hsv_roi, bgr_roi,
                           offset, shape=long_ if code in CLASS_NAMES else shape,
                           need_pips=need_pips, planes=planes, lit=lit, drop_plain=True)
            if part is not None:
                parts.append(part)
                wholes.append(whole)
    return faces_.finish(parts, cls_roi, grad, offset, wholes)


def _runs(mask: np.ndarray, min_area: float, done: set, outlines: tuple | None = None):
    """Yield (run, area) for each run of ``mask`` big enough for a face (its outline's
    area), but those whose outline is in ``done`` (an earlier pass gave the same run);
    the others are added to it. ``outlines`` are ``mask``'s outer outlines, if traced."""
    for run in measure_.outer_contours(mask) if outlines is None else outlines:
        if len(run) < 4:
            continue
        x, y, w, h = cv2.boundingRect(run)
        key = (x, y, w, h, len(run))
        if key in done or w * h < 0.5 * min_area:
            continue
        run_area = cv2.contourArea(run)
        if run_area < 0.4 * min_area:
            continue
        done.add(key)
        yield runs_.Run(run, x, y, w, h, mask), run_area


def _pieces(run: runs_.Run, run_area: float, cut: runs_.Core, min_area: float,
            max_whole: float, side: float, *, necks: bool = False):
    """Yield (hull, area, own-mask crop, whole) for each piece of a run's bright core
    ``cut`` (area: the hull's plus half its perimeter), and for the whole run when its
    core is only slivers and the run is no bigger than ``max_whole`` pixels (``whole``
    True); the crops lie over the run's box. With ``necks``, a piece bigger than a die
    (of edge ``side``) that falls apart when opened with a disc half a die across
    (``dice_necks``: touching dice joined by a neck) also gives each of its parts."""
    pieces = [(c, a, cut.opened, False) for c, a in cut.pieces]  # (outlines in the atlas)
    shift = np.array(cut.shift, np.int32)
    biggest = max((a for _, a, _, _ in pieces), default=0.0)
    if biggest < 0.45 * run_area and run_area < max_whole:
        # no bright core (translucent dice glow at their rims): try the whole run too
        pieces.append((run.outline, run_area, cut.own, True))
    for cnt, cnt_area, own, whole in pieces:
        if cnt_area < 0.4 * min_area:
            continue
        hull = cv2.convexHull(cnt) if whole else cv2.convexHull(cnt) + shift
        area = hull_area(hull)
        if area < min_area:
            continue
        yield hull, area, own, whole
        if necks:  # touching dice joined by a neck
            for piece, piece_area in neck_pieces(hull, area, own, (run.x, run.y), side,
                                                 min_area=min_area, max_area=max_whole):
                yield piece, piece_area, own, whole
