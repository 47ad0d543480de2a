"""The bright cores of many colour runs at once, laid side by side in one small image.

``dice_faces`` cuts each run of one colour class down to its bright core (the pixels at
least ``core`` times the run's 85th brightness percentile, opened with a 3x3 cross) and
traces the core's pieces. Done run by run, on the run's own crop, that is a dozen small
OpenCV and numpy calls per run, some 40 runs a frame, and the calls cost more than the
pixels. Here the crops of all runs of a frame are copied into one *atlas* (shelves of
crops, one empty pixel apart) and each step is one call over the atlas. The result is
bit for bit what the crops give: each crop's border is kept as OpenCV treats an image's
border (set for the erosion, empty for the dilation), the percentile is the same nearest
rank, and the pieces come out in the order tracing the crop gives them. Points are (x, y).
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

import cv2

_CROSS = cv2.getStructuringElement(cv2.MORPH_CROSS, (3, 3))


class Run(NamedTuple):
    """One connected run of a mask: its outer outline and bounding box (ROI pixels)."""

    outline: np.ndarray  # (N, 1, 2) int32, as ``cv2.findContours`` gives it
    x: int
    y: int
    w: int
    h: int
    mask: np.ndarray  # the whole mask the run was traced on (0/255)


class Core(NamedTuple):
    """A run's bright core: crops over the run's box and the core's pieces."""

    opened: np.ndarray  # (h, w) 0/255, the opened bright core (a view into the atlas)
    own: np.ndarray  # (h, w) 0/255, the run's own pixels (its outline filled, in the mask)
    pieces: list  # [(outline (N, 1, 2) int32 in the atlas, its area)], tracing order
    shift: tuple[int, int]  # (x, y) to add to an outline to place it in the ROI


def bright_cores(runs: list[Run], value: np.ndarray, core: float = 0.8) -> list[Core]:
    """The bright core of each run, as measuring each run on its own crop gives it.

    Parameters
    ----------
    runs : the runs, each with the mask it was traced on
    value : ndarray (H, W), uint8, the ROI's brightness (HSV value), contiguous
    core : share (0-1) of the run's 85th brightness percentile a core pixel reaches

    Returns
    -------
    list of Core, one per run in the order given
    """
    if not runs:
        return []
    slots, height, width = _layout(runs)
    fill = np.zeros((height, width), np.uint8)
    mask = np.zeros_like(fill)
    val = np.zeros_like(fill)
    label = np.zeros((height, width), np.uint8 if len(runs) < 255 else np.int32)
    for i, (run, (sx, sy)) in enumerate(zip(runs, slots)):
        x, y, w, h = run.x, run.y, run.w, run.h
        mask[sy:sy + h, sx:sx + w] = run.mask[y:y + h, x:x + w]
        val[sy:sy + h, sx:sx + w] = value[y:y + h, x:x + w]
        label[sy:sy + h, sx:sx + w] = i + 1
    # every outline filled in one call: the crops lie apart, so the same pixels as one by one
    shifts = (np.array(slots) - [[r.x, r.y] for r in runs]).astype(np.int32)
    cv2.drawContours(fill, [r.outline + d for r, d in zip(runs, shifts)], -1, 255, cv2.FILLED)
    content = cv2.compare(label, 0, cv2.CMP_GT)
    own = cv2.bitwise_and(fill, mask)
    levels = [math.ceil(core * v) for v in _percentiles(runs, slots, label, val, own, 85)]
    if label.dtype == np.uint8:  # each crop's level by its label, in one look-up
        level = cv2.LUT(label, np.array([0, *levels] + [0] * (255 - len(levels)), np.uint8))
    else:
        level = np.zeros_like(fill)
        for run, (sx, sy), v in zip(runs, slots, levels):
            level[sy:sy + run.h, sx:sx + run.w] = v
    bright = cv2.bitwise_and(own, cv2.compare(val, level, cv2.CMP_GE))
    # outside a crop counts as set for the erosion and as empty for the dilation
    eroded = cv2.bitwise_and(cv2.erode(cv2.bitwise_or(bright, cv2.bitwise_not(content)),
                                       _CROSS), content)
    opened = cv2.bitwise_and(cv2.dilate(eroded, _CROSS), content)
    contours, _ = cv2.findContours(opened, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    pieces: list[list] = [[] for _ in runs]
    if contours:  # (in reverse raster order, as in each crop)
        starts = np.array([c[0, 0] for c in contours])
        for cnt, i in zip(contours, (label[starts[:, 1], starts[:, 0]] - 1).tolist()):
            pieces[i].append((cnt, cv2.contourArea(cnt)))
    return [Core(opened[sy:sy + r.h, sx:sx + r.w], own[sy:sy + r.h, sx:sx + r.w], p,
                 (r.x - sx, r.y - sy)) for r, (sx, sy), p in zip(runs, slots, pieces)]


def _layout(runs: list[Run]) -> tuple[list[tuple[int, int]], int, int]:
    """Top-left corners (x, y) of the runs' crops on shelves (tallest first), one empty
    pixel around each, and the atlas's height and width."""
    width = max(512, max(r.w for r in runs) + 2)
    slots: list[tuple[int, int]] = [(0, 0)] * len(runs)
    x, y, shelf = 1, 1, 0
    for i in sorted(range(len(runs)), key=lambda i: -runs[i].h):
        r = runs[i]
        if x + r.w + 1 > width:
            x, y, shelf = 1, y + shelf + 1, 0
        slots[i] = (x, y)
        x, shelf = x + r.w + 1, max(shelf, r.h)
    return slots, y + shelf + 1, width


def _percentiles(runs: list[Run], slots: list[tuple[int, int]], label: np.ndarray,
                 val: np.ndarray, own: np.ndarray, q: float) -> list[float]:
    """The q-th percentile (nearest rank, as ``dice_faces.percentile``) of the brightness
    of each run's own pixels; ``label`` holds 1 + each run's index over its crop."""
    n = len(runs)
    if label.dtype == np.uint8:  # one histogram of (run, brightness) pairs
        hists = cv2.calcHist([label, val], [0, 1], own, [n + 1, 256],
                             [0, n + 1, 0, 256])[1:].astype(np.int64)
    else:
        hists = np.stack([cv2.calcHist([val[sy:sy + r.h, sx:sx + r.w]], [0],
                                       own[sy:sy + r.h, sx:sx + r.w], [256], [0, 256]).ravel()
                          for r, (sx, sy) in zip(runs, slots)]).astype(np.int64)
    cum = np.cumsum(hists, axis=1)
    n = cum[:, -1]
    k = np.minimum(n - 1, (n * q / 100).astype(np.int64))
    return [float(v) for v in np.argmax(cum > k[:, None], axis=1)]
