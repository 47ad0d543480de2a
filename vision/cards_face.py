"""The outline of the one card filling a reference photo (a deck's face, a taught capture).

Split from ``cards_find`` (the outline search of a whole frame), whose card-white masks
and side-line fits it shares.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.cards_find import card_masks, refine_quad


def find_face_outline(image: np.ndarray) -> np.ndarray | None:
    """The outline of the one card filling a reference photo, or None for a clean scan.

    The card may be tilted, seen a little askew, and cut by the photo's edge: its sides
    are fitted as lines to the card's outline away from the photo's border.

    Parameters
    ----------
    image : ndarray of shape (H, W, 3), uint8, BGR

    Returns
    -------
    quad : ndarray of shape (4, 2), float32, or None
        Corners (x, y) of the card, when it covers at least 35% of the image and less
        than 97% (a scan or a tight crop is used whole).
    """
    h, w = image.shape[:2]
    scale = min(1.0, 480 / max(h, w))
    small = cv2.resize(image, (max(1, round(w * scale)), max(1, round(h * scale))),
                       interpolation=cv2.INTER_AREA)
    sh, sw = small.shape[:2]
    best, best_area = None, 0.35 * sh * sw
    for mask, _ in card_masks(small)[:2]:
        contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
        for contour in contours:
            a = cv2.contourArea(contour)
            if a > best_area:
                best, best_area = contour, a
    if best is None or best_area > 0.97 * sh * sw:
        return None
    pts = best.reshape(-1, 2).astype(np.float32)
    inner = pts[(pts[:, 0] > 2) & (pts[:, 1] > 2) & (pts[:, 0] < sw - 3) & (pts[:, 1] < sh - 3)]
    box = cv2.boxPoints(cv2.minAreaRect(best)).astype(np.float32)
    quad = refine_quad(box, inner, slack=0.06, keep_unfitted=True)
    if _is_own_margin(small, quad):
        return None  # a scan: the outline found is a frame printed on the card
    return quad / scale


def _is_own_margin(image: np.ndarray, quad: np.ndarray) -> bool:
    """True when the photo's outer band is plain and light: the card's own margin, not a
    table (a scan, whose printed frame or art was taken for the card's edge)."""
    h, w = image.shape[:2]
    b = max(2, round(0.03 * min(h, w)))
    band = np.concatenate([image[:b].reshape(-1, 3), image[-b:].reshape(-1, 3),
                           image[:, :b].reshape(-1, 3), image[:, -b:].reshape(-1, 3)])
    hsv = cv2.cvtColor(band[None], cv2.COLOR_BGR2HSV)[0].astype(np.float32)
    value = hsv[:, 2]
    median = float(np.median(value))
    plain = (np.abs(value - median) < 20) & (hsv[:, 1] < 45)
    return bool(median > 170 and plain.mean() > 0.85)
