"""A cheap first look before the keypoint search: where a deck face's keypoints may lie.

The keypoint search (``cards_keys``) costs SIFT's pyramid over the whole work frame, whose
first octave is that frame upsampled twice: its cost is per pixel, whatever the table
holds. Here the frame is first looked at ``side`` pixels long (320: half the work side, a
quarter of the pixels, the search's coarser octaves only), and its keypoints are matched
to the deck's.
Where ``pair`` matches of one face lie within a card's reach of each other a card of that
face may lie; only boxes around those places are searched at the full work side, so a
table with no card a keypoint could place costs the first look alone. What comes out are
the usual :class:`cards_keys.FrameKeys` (on the work frame), to be fitted by
:func:`cards_keys.find_keypoint_quads` as before.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.cards_keys import (FrameKeys, KeyParams, find_keypoint_quads, frame_keys,
                               reference_keys, with_nearest, work_gray)
from vision.cards_match import Bank

#: Two overlapping boxes are searched as one when their bounding box is at most this much
#: larger than the two together.
SLACK = 1.25


@dataclass(frozen=True)
class GlanceParams:
    """Tunables of the first look.

    Attributes
    ----------
    side : int
        Long side of the frame looked at first, pixels (the search's ``work_side`` is 640).
    pair : int
        Matches of one face (the match itself included) that must lie within a card's
        reach of each other (the reference's long side, work pixels) to mark a place.
    reach : float
        Half side of the box searched around a marked match, as a fraction of the
        reference's long side (work pixels).
    """

    side: int = 320
    pair: int = 2
    reach: float = 0.6


def keypoint_quads(frame: np.ndarray, faces: np.ndarray, bank: Bank, *,
                   params: KeyParams = KeyParams()) -> list[tuple[np.ndarray, str]]:
    """:func:`cards_keys.find_keypoint_quads` on the whole work frame, or only where a
    first look marks when ``params.first_look`` is set."""
    keys = (None if params.first_look <= 0 else
            glance_keys(frame, faces, bank, params=params,
                        glance=GlanceParams(side=params.first_look)))
    return find_keypoint_quads(frame, faces, bank, params=params, keys=keys)


def glance_keys(frame: np.ndarray, faces: np.ndarray, bank: Bank, *,
                params: KeyParams = KeyParams(), glance: GlanceParams = GlanceParams()
                ) -> FrameKeys:
    """The frame's keypoints at the work side, searched only where a first look marks.

    Parameters
    ----------
    frame : ndarray of shape (H, W, 3), uint8, BGR
    faces : ndarray of shape (N, Hf, Wf, 3), uint8, BGR
        The deck's rectified reference faces (``Deck.faces``).
    bank : Bank
        The deck's bank (the key of the per-deck keypoint cache).

    Returns
    -------
    FrameKeys
        As :func:`cards_keys.frame_keys` gives them (positions in work pixels), found in
        the marked boxes only; none when nothing is marked. A work frame less than twice
        the first look's side is searched whole (the first look would save nothing).
    """
    gray, scale = work_gray(frame, params)
    if 2 * glance.side > max(gray.shape):  # a first look would save little
        return frame_keys(gray, scale, params)
    boxes = marked_boxes(frame, faces, bank, gray.shape, scale, params=params, glance=glance)
    sift = cv2.SIFT_create(nfeatures=params.max_keys)
    pts, desc, strength = [np.zeros((0, 2), np.float32)], [np.zeros((0, 128), np.float32)], []
    for i, (x0, y0, x1, y1) in enumerate(boxes):
        kps, d = sift.detectAndCompute(gray[y0:y1, x0:x1], None)
        if d is None:
            continue
        at = np.array([k.pt for k in kps], np.float32).reshape(-1, 2) + (x0, y0)
        # a place an earlier box searched is kept from that box only (no double matches)
        new = ~np.any([(at[:, 0] >= a) & (at[:, 1] >= b) & (at[:, 0] < c) & (at[:, 1] < e)
                       for a, b, c, e in boxes[:i]], axis=0) if i else np.ones(len(at), bool)
        pts.append(at[new])
        desc.append(d[new])
        strength.append(np.array([k.response for k in kps], np.float32)[new])
    keys = FrameKeys(np.concatenate(pts), np.concatenate(desc),
                     np.concatenate(strength) if strength else np.zeros(0, np.float32), scale)
    if len(keys.pts) > params.max_keys:
        best = np.sort(np.argsort(-keys.strength, kind="stable")[:params.max_keys])
        keys = FrameKeys(keys.pts[best], keys.desc[best], keys.strength[best], scale)
    return keys


def marked_boxes(frame: np.ndarray, faces: np.ndarray, bank: Bank, shape: tuple[int, ...],
                 scale: float, *, params: KeyParams = KeyParams(),
                 glance: GlanceParams = GlanceParams()) -> list[tuple[int, int, int, int]]:
    """Boxes (x0, y0, x1, y1) of the work frame (``shape``, ``scale`` work pixels per frame
    pixel) where the first look marks a place a face's keypoints may lie; boxes that
    overlap are merged into one."""
    small = KeyParams(work_side=min(glance.side, params.work_side), checks=params.checks)
    look = with_nearest(frame_keys(*work_gray(frame, small), small), faces, bank, small)
    near = look.nearest
    good = np.flatnonzero(near[:, 1] < params.ratio * near[:, 2])
    if not len(good):
        return []
    owner = reference_keys(bank, faces, params.checks)[1][near[good, 0].astype(int)]
    pts = look.pts[good] * (scale / look.scale)
    card = float(max(faces.shape[1:3]))  # a card's reach: the reference's long side
    close = np.hypot(*(pts[:, None] - pts[None]).transpose(2, 0, 1)) < card
    marked = pts[((owner[:, None] == owner[None]) & close).sum(1) >= glance.pair]
    h, w = shape[:2]
    r = glance.reach * card
    boxes = [[max(0, int(x - r)), max(0, int(y - r)), min(w, int(x + r) + 1),
              min(h, int(y + r) + 1)] for x, y in marked]
    return _merged(boxes)


def _merged(boxes: list[list[int]]) -> list[tuple[int, int, int, int]]:
    """The boxes with every overlapping pair whose bounding box adds little (``SLACK``)
    replaced by that bounding box, until no such pair is left."""
    out: list[list[int]] = []
    for box in boxes:
        while True:
            hit = next((o for o in out if _area(_join(box, o)) <= SLACK * (
                _area(box) + _area(o) - _area(_meet(box, o)))), None)
            if hit is None:
                break
            out.remove(hit)
            box = _join(box, hit)
        out.append(box)
    return [tuple(b) for b in out]


def _join(a: list[int], b: list[int]) -> list[int]:
    return [min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3])]


def _meet(a: list[int], b: list[int]) -> list[int]:
    return [max(a[0], b[0]), max(a[1], b[1]), min(a[2], b[2]), min(a[3], b[3])]


def _area(box: list[int]) -> int:
    return max(0, box[2] - box[0]) * max(0, box[3] - box[1])
