"""Where the dice are: separate things on the table from the table itself.

The table is modelled twice, and a pixel is foreground only when both models reject it:
a *local* model (the frame shrunk 16 times and median-filtered, so die-sized things vanish
and slow light changes remain) and a *global* one (the few colours that cover most of the
frame, found by k-means, so a checkered or grained table is still "table"). Colour
distance weighs lightness less than hue, so soft shadows stay table.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

import cv2

from vision.dice_grid import grey_gradients


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
    small = median5(small)
    local = cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)
    weights = _LAB_WEIGHTS.reshape(1, 3)
    d_local = cv2.transform(cv2.absdiff(lab, local), weights)
    far = cv2.compare(d_local, threshold * _A, cv2.CMP_GT)  # 0/255; numpy's is slower
    centres, spreads = model
    for c, spread in zip(centres, spreads):
        centre = tuple(float(v) for v in np.clip(c / _LAB_WEIGHTS, 0, 255).astype(np.uint8))
        d = cv2.transform(cv2.absdiff(lab, (*centre, 0.0)), weights)
        far = cv2.bitwise_and(far, cv2.compare(d, float(threshold * _A + _B * spread), cv2.CMP_GT))
    return far


def model_bgr(model: tuple[np.ndarray, np.ndarray]) -> np.ndarray:
    """The table's dominant colours (``table_model``) as BGR, (K, 3) uint8."""
    ycc = np.clip(model[0] / _LAB_WEIGHTS, 0, 255).astype(np.uint8).reshape(-1, 1, 3)
    return cv2.cvtColor(ycc, cv2.COLOR_YCrCb2BGR).reshape(-1, 3)


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


def median5(image: np.ndarray) -> np.ndarray:
    """``cv2.medianBlur(image, 5)``, quicker on an image under 32 pixels wide.

    OpenCV sorts whole SIMD vectors of pixels at a time and a row narrower than one
    vector pixel by pixel (a 20x15 colour image took 68 us, against 18 us when wider): so
    a narrow image is widened by repeating its edge columns, which is what the filter's
    own border does, and the middle cut back out (the same pixels, bit for bit).
    """
    pad = max(0, (32 - image.shape[1] + 1) // 2)
    if pad == 0:
        return cv2.medianBlur(image, 5)
    wide = cv2.copyMakeBorder(image, 0, 0, pad, pad, cv2.BORDER_REPLICATE)
    return cv2.medianBlur(wide, 5)[:, pad:pad + image.shape[1]].copy()


def clean_mask(mask: np.ndarray, die_px: float) -> np.ndarray:
    """Close gaps inside a die (its top face may look like the table), fill holes, denoise."""
    k = max(3, int(die_px * 0.25) | 1)
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, kernel)
    mask = fill_holes(mask)
    return cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))


def fill_holes(mask: np.ndarray) -> np.ndarray:
    """Fill the holes of every outer contour of a 0/255 mask.

    The same pixels as drawing each outer contour filled, found quicker: what the
    background reaches from outside the frame (4-connected) stays 0, all else is 255.
    """
    h, w = mask.shape
    out = np.zeros((h + 2, w + 2), np.uint8)  # a ring of background around the frame
    out[1:-1, 1:-1] = mask
    cv2.floodFill(out, None, (0, 0), 128, flags=4)
    return cv2.compare(out[1:-1, 1:-1], 128, cv2.CMP_NE)


def normalise_exposure(frame: np.ndarray, *, target: float = 200.0, max_gain: float = 3.5,
                       gain: float | None = None) -> np.ndarray:
    """Brighten a dim frame so its bright parts reach ``target`` (never darkens); ``gain``
    is its ``exposure_gain`` when measured already."""
    if gain is None:
        gain = exposure_gain(frame, target=target, max_gain=max_gain)
    return frame if gain == 1.0 else cv2.convertScaleAbs(frame, alpha=gain)


def exposure_gain(frame: np.ndarray, *, target: float = 200.0, max_gain: float = 3.5
                  ) -> float:
    """The gain ``normalise_exposure`` applies to a frame (1.0: none)."""
    small = frame[::8, ::8]
    # (per-channel maxima: numpy's max over a 3-long last axis is slow)
    top = np.maximum(np.maximum(small[..., 0], small[..., 1]), small[..., 2]).ravel()
    k = int(0.97 * (top.size - 1))
    bright = float(np.partition(top, k)[k])
    gain = min(max_gain, target / max(bright, 1.0))
    return 1.0 if gain <= 1.25 else gain


def unclipped_value(frame: np.ndarray, gains: np.ndarray | None) -> np.ndarray:
    """The brightness (HSV value, uint8) of ``frame`` (the working frame, or a crop of it,
    before ``normalise_exposure``'s gain) colour-balanced by ``gains`` (``white_gains`` of
    that whole frame; None: no cast).

    The gain that lifts a dark table's few light dice clips their lit tops at white and
    lifts the grey gaps between touching dice nearly as high: the tops no longer stand
    out from the gaps, nor a lit top from its shaded side face. Brightness contrasts are
    therefore measured on this brightness times the gain (``exposure_gain``): the gained
    frame's scale, but not clipped (a linear gain keeps the ratios of what it does not
    clip). The colour cast is measured before the gain too: clipping hides it.
    """
    b, g, r = (cv2.extractChannel(frame, i) if gains is None else  # (quicker than split)
               cv2.convertScaleAbs(cv2.extractChannel(frame, i), alpha=float(gains[i]))
               for i in range(3))
    return cv2.max(cv2.max(b, g), r)


@dataclass(frozen=True)
class BeforeGain:
    """The working frame before ``normalise_exposure``'s gain: what the gain clips.

    Kept to measure the brightness contrasts the gain clips (:func:`unclipped_value`).

    Attributes
    ----------
    work : ndarray of shape (h, w, 3), uint8, BGR
        The working frame before the gain (and before ``white_balance``).
    gains : ndarray of shape (3,), float, or None
        Its colour cast, ``white_gains`` of it (None: no cast).
    gain : float
        The exposure gain (``exposure_gain``) that brightened it.
    """

    work: np.ndarray
    gains: np.ndarray | None
    gain: float


def grid_turn(bgr: np.ndarray, *, min_share: float = 0.3, min_edges: float = 0.01
              ) -> float | None:
    """The turn (degrees, 0-90) of a checkered or striped table's grid, or None.

    Edges of a grid cloth all run at one turn (mod 90 degrees); a plain, grained or
    stone table and the dice on it spread their edges over all turns. ``min_share`` of
    the strong-edge weight must lie within 4 degrees of the peak, and at least
    ``min_edges`` of the pixels be on strong edges (twice as many at half the size).
    """
    gx, gy = grey_gradients(bgr)
    mag = cv2.magnitude(gx, gy)  # the angles only when there are edges enough
    if cv2.countNonZero(cv2.compare(mag, 60, cv2.CMP_GT)) < min_edges * mag.size:
        return None  # (counted by OpenCV: most tables end here, quickly)
    ang = cv2.phase(gx, gy, angleInDegrees=True)
    strong = mag > 60
    hist = np.bincount(ang[strong].astype(np.int32) % 90, weights=mag[strong], minlength=90)
    wrapped = np.concatenate([hist[-4:], hist, hist[:4]])
    window = np.convolve(wrapped, np.ones(9), mode="valid")  # 90 sums of 9 bins
    peak = int(window.argmax())
    if window[peak] < min_share * hist.sum():
        return None
    return float(peak)


def white_balance(frame: np.ndarray, *, top: float = 0.02, max_chroma: float = 0.4,
                  max_gain: float = 1.35) -> np.ndarray:
    """Undo a colour cast (a warm or cool lamp) with the brightest near-white pixels as
    the white reference: pips, light die bodies, a light table.

    Only pixels among the brightest ``top`` share whose chroma ((max - min) / max) is
    under ``max_chroma`` count, so saturated yellow or red faces are never taken for
    white; the gains stay within 1/``max_gain``..``max_gain``. A frame without such
    pixels, or without a cast, is returned as it is.
    """
    return apply_gains(frame, white_gains(frame, top=top, max_chroma=max_chroma,
                                          max_gain=max_gain))


def apply_gains(frame: np.ndarray, gains: np.ndarray | None) -> np.ndarray:
    """``frame`` with its channels scaled by (B, G, R) ``gains`` (``white_gains``), clipped
    at 255; ``frame`` itself for None."""
    if gains is None:
        return frame
    lut = np.clip(np.arange(256, dtype=np.float32)[:, None] * gains[None, :], 0, 255)
    return cv2.LUT(frame, lut.astype(np.uint8).reshape(256, 1, 3))


def quarter_sample(frame: np.ndarray) -> np.ndarray:
    """Every fourth pixel of every fourth row of ``frame``: ``cv2.resize`` to a quarter
    of its size (rounded down), nearest pixel. A per-pixel change of the frame (a gain,
    ``apply_gains``) gives the same pixels applied to this sample."""
    h, w = frame.shape[:2]
    return cv2.resize(frame, (max(1, w // 4), max(1, h // 4)), interpolation=cv2.INTER_NEAREST)


def white_gains(frame: np.ndarray, *, top: float = 0.02, max_chroma: float = 0.4,
                max_gain: float = 1.35, small: np.ndarray | None = None) -> np.ndarray | None:
    """The (B, G, R) gains :func:`white_balance` applies to ``frame``; None for none.
    ``small`` is ``quarter_sample(frame)``, if at hand."""
    small = quarter_sample(frame) if small is None else small
    b, g, r = cv2.split(small)
    hi = cv2.max(cv2.max(b, g), r)
    lo = cv2.min(cv2.min(b, g), r)
    k = int((1 - top) * (hi.size - 1))
    counts = cv2.calcHist([hi], [0], None, [256], [0, 256]).ravel().astype(np.int64)
    kth = int(np.searchsorted(np.cumsum(counts), k, side="right"))
    # (the k-th value by counting: quicker than a partition; OpenCV's masks and sums:
    # numpy's on the whole sample cost more than these calls)
    white = cv2.bitwise_and(cv2.compare(hi, max(kth, 60), cv2.CMP_GE), cv2.compare(
        cv2.subtract(hi, lo), cv2.LUT(hi, _chroma_lut(max_chroma)), cv2.CMP_LT))
    n = cv2.countNonZero(white)
    if n < 20:
        return None
    # the exact integer sums of the white pixels, divided once (as numpy's mean does)
    ref = np.array(cv2.sumElems(cv2.bitwise_and(small, small, mask=white))[:3]) / n
    gains = np.clip(ref.mean() / np.maximum(ref, 1.0), 1 / max_gain, max_gain)
    return None if np.abs(gains - 1).max() < 0.06 else gains


_CHROMA_LUTS: dict[float, np.ndarray] = {}


def _chroma_lut(max_chroma: float) -> np.ndarray:
    """``(max_chroma * v).astype(uint8)`` for every value v 0-255 (cached)."""
    if max_chroma not in _CHROMA_LUTS:
        _CHROMA_LUTS[max_chroma] = (max_chroma * np.arange(256)).astype(np.uint8)
    return _CHROMA_LUTS[max_chroma]
