"""A taught face's light evened out from the card's own border (for teaching a deck).

A face taught from the camera carries the light of that moment: a warm or cool lamp,
dim light, a fall-off across the card. The deck's faces are compared with each other
(the look-alike duel) and with every later picture, so each face should look as if
scanned under one white light. Most cards have a plain light border; its colour, fitted
per channel as a plane across the face, measures the light at every point, and dividing
it out leaves the border white and the print its own colour. A border that is not plain
(art to the edge) or clearly coloured is left alone: the face is then returned as it is.
"""

from __future__ import annotations

import numpy as np

from vision.frames import check_frame

BORDER = (0.012, 0.03)  # the border band looked at: from, to, as fractions of the height
BORDER_PLAIN = 0.06  # a plain border's spread about its fitted light, relative to its level
BORDER_NEUTRAL = 1.5  # largest ratio of the border's brightest to dimmest channel
BORDER_DARK = 40.0  # a border darker than this (grey levels) is no light border
WHITE = 240.0  # grey level the border is brought to


def even_light(face: np.ndarray) -> np.ndarray:
    """``face`` with the light measured on its plain border divided out.

    Parameters
    ----------
    face : ndarray of shape (h, w, 3), uint8, BGR
        A card rectified upright (the card's edge at the picture's edge).

    Returns
    -------
    face : ndarray of shape (h, w, 3), uint8, BGR; a new array (``face`` itself is not
        written), or ``face`` when its border is not plain and light.
    """
    check_frame(face, name="face")
    h, w = face.shape[:2]
    a = max(1, round(BORDER[0] * h))
    b = max(a + 2, round(BORDER[1] * h))
    if min(h, w) <= 2 * b + 2:
        return face
    ring = np.zeros((h, w), bool)
    ring[a:h - a, a:w - a] = True
    ring[b:h - b, b:w - b] = False
    ys, xs = np.nonzero(ring)
    colours = face[ys, xs].astype(np.float64)  # (N, 3)
    design = np.stack([np.ones_like(xs, np.float64), xs / w - 0.5, ys / h - 0.5], axis=1)
    keep = np.ones(len(xs), bool)
    for _ in range(2):  # fit, leave out what is not border (a print touching it), fit again
        coef, *_ = np.linalg.lstsq(design[keep], colours[keep], rcond=None)
        spread = np.abs(colours - design @ coef).max(axis=1)
        keep = spread <= max(3.0, 2.5 * float(np.median(spread)))
    level = design[keep] @ coef  # (K, 3) the light on the border
    mean = level.mean(axis=0)
    if (keep.mean() < 0.7 or float(np.median(spread)) > BORDER_PLAIN * float(mean.mean())
            or float(mean.min()) < BORDER_DARK
            or float(mean.max() / max(mean.min(), 1e-6)) > BORDER_NEUTRAL):
        return face
    gy, gx = np.mgrid[0:h, 0:w].astype(np.float64)
    light = coef[0] + (gx / w - 0.5)[..., None] * coef[1] + (gy / h - 0.5)[..., None] * coef[2]
    out = face.astype(np.float64) * (WHITE / np.maximum(light, 1.0))
    return np.clip(np.rint(out), 0, 255).astype(np.uint8)
