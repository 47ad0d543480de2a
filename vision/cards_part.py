"""The card outline search on a part of a frame, thresholded as the whole frame is.

The camera loop (``cards_track``) searches for new card outlines only around a change.
A part cut out and searched as a frame of its own is thresholded by its own levels:
Otsu's level of its whiteness, the local threshold's window and the speckle kernel all
follow the part, not the frame, so it finds outlines the whole search would not and
misses some it finds. Here the whole work frame is seen once (:func:`work_view`: its
per-pixel maps, ``cards_find.work_maps``, cheap next to the search itself) and a part is
searched on those maps cut to it (:func:`view_quads`): inside the part, away from its
edges, the outlines are the ones the whole search finds there; the whole frame searched
so is :func:`cards_find.find_card_quads`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

from vision.cards_find import (FindParams, card_masks, completed_quads, contour_shape,
                               dedupe_quads, segment_corners, segment_quads, work_maps)


@dataclass(frozen=True)
class WorkView:
    """A frame as the outline search sees it.

    Attributes
    ----------
    small : ndarray of shape (h, w, 3), uint8, BGR
        The frame downscaled to ``FindParams.work_side``.
    maps : tuple
        ``cards_find.work_maps`` of ``small``.
    scale : float
        Work pixels per frame pixel.
    traced : dict
        What :func:`view_quads` found in a part whatever the card's aspect (the masks'
        contours and the edge segments' corners), by part and ``FindParams``: a second
        search of the same frame at another aspect (``cards_aspect``) traces nothing again.
    """

    small: np.ndarray
    maps: tuple
    scale: float
    traced: dict = field(default_factory=dict, repr=False, compare=False)

    @property
    def level(self) -> float:
        """Otsu's level of the frame's whiteness (0-255): the card-white threshold."""
        return float(self.maps[5])


def work_view(frame: np.ndarray, params: FindParams = FindParams()) -> WorkView:
    """The work frame of ``frame`` (H, W, 3) uint8 BGR and its maps, made as
    :func:`cards_find.find_card_quads` makes them."""
    h, w = frame.shape[:2]
    scale = min(1.0, params.work_side / max(h, w))
    small = cv2.resize(frame, (max(1, round(w * scale)), max(1, round(h * scale))),
                       interpolation=cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR)
    return WorkView(small=small, maps=work_maps(small), scale=scale)


def view_quads(view: WorkView, aspect: float, box: tuple[int, int, int, int] | None = None,
               *, params: FindParams = FindParams()) -> list[np.ndarray]:
    """Card outlines in the part ``box`` (x0, y0, x1, y1), frame pixels, of the frame
    ``view`` sees (None: all of it), as :func:`cards_find.find_card_quads` returns them
    (corners (x, y), frame pixels, float32); cards of the whole frame's sizes."""
    sh, sw = view.small.shape[:2]
    x0, y0, x1, y1 = (0, 0, sw, sh) if box is None else (
        max(0, int(np.floor(box[0] * view.scale))), max(0, int(np.floor(box[1] * view.scale))),
        min(sw, int(np.ceil(box[2] * view.scale))), min(sh, int(np.ceil(box[3] * view.scale))))
    lo, hi = params.min_card_frac * sw * sh, params.max_card_frac * sw * sh
    key = (x0, y0, x1, y1, params)
    if key not in view.traced:
        view.traced[key] = _trace(view, (x0, y0, x1, y1), lo, hi, params)
    shapes, corners = view.traced[key]
    # as find_card_quads: contours of every mask, then corners of edge segments; each
    # judged at its place in the whole frame (its perspective is read about the frame's
    # centre), the frame beyond the part taken as no card
    quads = [q for filled, shape in shapes
             for q in completed_quads(shape, filled, aspect, lo, hi, params)]
    shift = np.array([x0, y0], np.float32)
    quads.extend(q + shift for q in segment_quads(corners, aspect, lo, hi, params))
    return dedupe_quads([q / view.scale for q in quads],
                        tol=0.03 * params.work_side / view.scale)


def _trace(view: WorkView, box: tuple[int, int, int, int], lo: float, hi: float,
           params: FindParams) -> tuple[list, list]:
    """What the outline search finds in the part ``box`` (x0, y0, x1, y1, work pixels) of
    ``view`` whatever the card's aspect: (filled mask, ``cards_find.contour_shape``) of each
    contour of card size, and the edge segments' corners (``cards_find.segment_corners``)."""
    x0, y0, x1, y1 = box
    sh, sw = view.small.shape[:2]
    cut = tuple(m[y0:y1, x0:x1] if isinstance(m, np.ndarray) else m for m in view.maps)
    shapes = []
    for k, (mask, filled) in enumerate(card_masks(view.small[y0:y1, x0:x1], maps=cut)):
        if filled.shape != (sh, sw):
            whole = np.zeros((sh, sw), np.uint8)
            whole[y0:y1, x0:x1] = filled
            filled = whole
        contours, _ = cv2.findContours(mask, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE,
                                       offset=(x0, y0))
        for contour in contours:  # edge outlines are trusted only when closed; corners
            c_area = cv2.contourArea(contour)  # come from card-white blobs (k < 4)
            if lo <= c_area <= hi * 1.5:
                shapes.append((filled, contour_shape(contour, lo, hi, params, corners=k < 4)))
    corners = segment_corners(lo, params, canny=cut[3]) if params.segment_corners else []
    return shapes, corners
