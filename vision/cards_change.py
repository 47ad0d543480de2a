"""The outline of what changed: a card that lands is the change itself.

On a still table a card that lands changes exactly its own area (and its shadow's), so the
grey difference from the last frame read traces the card's outline however the table
looks around it: on a cloth whose pattern the card-white masks and the edge segments get
lost in, or where the card lies on another card. The landing read (``cards_landing``)
adds :func:`change_quads` to the outlines it searches around the change; one that is a
card ranks and names like any other (snapped onto the card's edges), and the change
test then finds the change explained by a card whose outline is the change's own.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.cards_find import FindParams, contour_shape, refine_quad


def change_quads(diff: np.ndarray, changed: np.ndarray, scale: float, *, still: float,
                 tile: int, params: FindParams = FindParams()) -> list[np.ndarray]:
    """Card-like outlines of the changed blobs.

    Parameters
    ----------
    diff : ndarray of shape (h, w), float32
        Absolute grey difference from the last frame read, on the work frame (``scale``
        work pixels per frame pixel), blurred against sensor noise.
    changed : ndarray of shape (ceil(h / tile), ceil(w / tile)), bool
        The tiles that changed.
    still : float
        A pixel whose difference is below ``still`` grey levels has not changed.

    Returns
    -------
    list of ndarray of shape (4, 2), float32
        Corners (x, y), frame pixels, of each changed blob of a card's size whose hull is
        a quadrilateral it fills, its sides fitted to the blob's boundary.
    """
    h, w = diff.shape
    near = cv2.dilate(changed.astype(np.uint8), np.ones((3, 3), np.uint8))
    near = np.repeat(np.repeat(near, tile, axis=0), tile, axis=1)[:h, :w]
    mask = ((diff >= still) & (near > 0)).astype(np.uint8)
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8))
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    lo, hi = params.min_card_frac * h * w, params.max_card_frac * h * w  # shares of the frame
    quads = []
    for contour in contours:
        if not lo <= cv2.contourArea(contour) <= hi:
            continue
        quad, pts, _ = contour_shape(contour, lo, hi, params, corners=False)
        if quad is not None:
            quads.append((refine_quad(quad, pts) / scale).astype(np.float32))
    return quads
