"""Where the dice are: separate things on the table from the table itself.

The table is modelled twice, and a pixel is foreground only when both models reject it:
a *local* model (the frame shrunk 16 times and median-filtered, so die-sized things vanish
and slow light changes remain) and a *global* one (the few colours that cover most of the
frame, found by k-means, so a checkered or grained table is still "table"). Colour
distance weighs lightness less than hue, so soft shadows stay table.
"""

from __future__ import annotations

import numpy as np

import cv2

# Weights of (Y, Cr, Cb) in the colour distance: brightness counts less than colour.
_A, _B = 1.6, 0.5
_LAB_WEIGHTS = np.array([0.45, 1.6, 1.6], np.float32)


def table_model(lab_small: np.ndarray, *, clusters: int = 4, min_share: float = 0.14,
                rng_seed: int = 7) -> tuple[np.ndarray, np.ndarray]:
    """Dominant table colours of a small Lab image.

    Returns
    -------
    centres : ndarray of shape (K, 3), float32, weighted Lab of the table colours
    spreads : ndarray of shape (K,), float32, typical distance of table pixels to them
    """
    pts = lab_small.reshape(-1, 3).astype(np.float32) * _LAB_WEIGHTS
    if len(pts) > 2400:
        pts = pts[:: len(pts) // 2400]
    cv2.setRNGSeed(rng_seed)
    crit = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 12, 0.5)
    _, labels, centres = cv2.kmeans(pts, clusters, None, crit, 1, cv2.KMEANS_PP_CENTERS)
    labels = labels.ravel()
    keep, spreads = [], []
    for k in range(clusters):
        members = pts[labels == k]
        if len(members) >= min_share * len(pts):
            d = np.linalg.norm(members - centres[k], axis=1)
            keep.append(centres[k])
            spreads.append(float(np.partition(d, int(0.9 * (len(d) - 1)))[int(0.9 * (len(d) - 1))]))
    if not keep:  # no colour dominates: fall back on the biggest cluster
        k = int(np.bincount(labels).argmax())
        keep, spreads = [centres[k]], [float(np.linalg.norm(pts - centres[k], axis=1).mean())]
    return np.array(keep, np.float32), np.array(spreads, np.float32)


def foreground(lab: np.ndarray, *, threshold: float, model: tuple[np.ndarray, np.ndarray]
               ) -> np.ndarray:
    """Mask (uint8 0/255) of pixels unlike the table, for a (H, W, 3) uint8 Lab image.

    Distances are weighted L1 in Lab (cheap with OpenCV); a pixel is foreground when it is
    far from both the local table colour and every dominant table colour.
    """
    h, w = lab.shape[:2]
    small = cv2.resize(lab, (max(4, w // 16), max(4, h // 16)), interpolation=cv2.INTER_AREA)
    small = cv2.medianBlur(small, 5)
    local = cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)
    weights = _LAB_WEIGHTS.reshape(1, 3)
    d_local = cv2.transform(cv2.absdiff(lab, local), weights)
    far = d_local > threshold * _A
    centres, spreads = model
    for c, spread in zip(centres, spreads):
        centre = np.clip(c / _LAB_WEIGHTS, 0, 255).astype(np.uint8).reshape(1, 1, 3)
        d = cv2.transform(cv2.absdiff(lab, np.broadcast_to(centre, lab.shape).copy()), weights)
        far &= d > threshold * _A + _B * spread
    return far.astype(np.uint8) * 255


def is_table_colour(bgr: tuple[float, float, float], *, threshold: float,
                    model: tuple[np.ndarray, np.ndarray]) -> bool:
    """True when a BGR colour is one of the table's dominant colours (as ``foreground`` sees it)."""
    px = np.clip(np.array([[bgr]], np.float32), 0, 255).astype(np.uint8)
    ycc = cv2.cvtColor(px, cv2.COLOR_BGR2YCrCb).reshape(3).astype(np.float32)
    for c, spread in zip(*model):
        d = float(np.abs(ycc * _LAB_WEIGHTS - c).sum())
        if d <= threshold * _A + _B * spread:
            return True
    return False


def clean_mask(mask: np.ndarray, die_px: float) -> np.ndarray:
    """Close gaps inside a die (its top face may look like the table), fill holes, denoise."""
    k = max(3, int(die_px * 0.25) | 1)
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, kernel)
    mask = fill_holes(mask)
    return cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))


def fill_holes(mask: np.ndarray) -> np.ndarray:
    """Fill the holes of every outer contour of a 0/255 mask."""
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    out = np.zeros_like(mask)
    cv2.drawContours(out, contours, -1, 255, cv2.FILLED)
    return out


def normalise_exposure(frame: np.ndarray, *, target: float = 200.0, max_gain: float = 3.5
                       ) -> np.ndarray:
    """Brighten a dim frame so its bright parts reach ``target`` (never darkens)."""
    small = frame[::8, ::8]
    top = small.max(axis=2).ravel()
    k = int(0.97 * (top.size - 1))
    bright = float(np.partition(top, k)[k])
    gain = min(max_gain, target / max(bright, 1.0))
    if gain <= 1.25:
        return frame
    return cv2.convertScaleAbs(frame, alpha=gain)

