"""Coarse ranking of many card outlines at once (one frame has dozens of hypotheses).

The same computation as ``cards_match.features`` and ``cards_match.robust_distance``,
vectorised: the rectified cards are tiled into one mosaic, each tile padded by reflection,
so OpenCV filters them in a single call; distances to every reference come from one
batched matrix product.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.cards_match import (BLUR, CELL_ROWS, CHROMA_DEADBAND, CHROMA_SCALE, RIM, Bank,
                                cells_of)
from vision.cards_median import median_u8


def features_many(cards: np.ndarray, blur: float = BLUR) -> np.ndarray:
    """Light-proof features of many rectified cards (see ``cards_match.features``).

    Parameters
    ----------
    cards : ndarray of shape (Q, h, w, 3), uint8, BGR

    Returns
    -------
    feats : ndarray of shape (Q, h, w, 3), float32
    """
    q, h, w, _ = cards.shape
    if q == 0:
        return np.zeros((0, h, w, 3), np.float32)
    lab = cv2.cvtColor(cards.reshape(q * h, w, 3), cv2.COLOR_BGR2LAB).reshape(q, h, w, 3)
    out = np.empty((q, h, w, 3), np.float32)
    out[..., 0] = _normalised_light(lab[..., 0])
    # weak tints ignored: chroma relative to the card's white (its median colour) moved
    # towards 0 by the dead band, and 0 within it; worked out for each of the 256 levels
    # of a channel per card and looked up (the same numbers as on every pixel)
    white = median_u8(lab[:, ::2, ::2, 1:].reshape(q, -1, 2).transpose(0, 2, 1))  # (Q, 2)
    levels = np.arange(256, dtype=np.float32)[None, :, None] - white[:, None, :]
    table = (levels - np.clip(levels, -CHROMA_DEADBAND, CHROMA_DEADBAND)) / CHROMA_SCALE
    card = np.arange(q)[:, None, None]
    out[..., 1] = table[card, lab[..., 1], 0]
    out[..., 2] = table[card, lab[..., 2], 1]
    return _smoothed(out, blur)


def light_many(cards: np.ndarray, blur: float = BLUR) -> np.ndarray:
    """The lightness channel of :func:`features_many` alone, the same numbers (what the
    naming's alignment takes: the colour channels are a third of the work, unused there).

    cards : ndarray of shape (Q, h, w, 3), uint8, BGR -> ndarray of shape (Q, h, w), float32
    """
    q, h, w, _ = cards.shape
    if q == 0:
        return np.zeros((0, h, w), np.float32)
    lab = cv2.cvtColor(cards.reshape(q * h, w, 3), cv2.COLOR_BGR2LAB).reshape(q, h, w, 3)
    return _smoothed(_normalised_light(lab[..., 0])[..., None], blur)[..., 0]


def _normalised_light(light8: np.ndarray) -> np.ndarray:
    """Lightness (Q, h, w) uint8, locally contrast-normalised: float32 (Q, h, w).

    The cards are tiled into one mosaic, each tile padded by reflection, so OpenCV's box
    filter runs once for all of them.
    """
    q, h, w = light8.shape
    sigma = h / 10
    k = int(round(2.5 * sigma)) | 1  # a box of this size stands in for the Gaussian
    pad = k // 2 + 1
    tiles = _padded(light8, pad)
    th, tw = h + 2 * pad, w + 2 * pad
    light = tiles.reshape(q * th, tw).astype(np.float32)
    centred = light - cv2.blur(light, (k, k))
    spread = np.sqrt(np.maximum(cv2.blur(centred * centred, (k, k)), 0))
    inner = (slice(None), slice(pad, pad + h), slice(pad, pad + w))
    centred = centred.reshape(q, th, tw)[inner]
    spread = spread.reshape(q, th, tw)[inner]
    # medians over every other pixel: the same statistic at a quarter of the cost
    floor = np.maximum(6.0, _row_medians(spread[:, ::2, ::2].reshape(q, -1)))
    return centred / (spread + floor[:, None, None])


def _smoothed(feats: np.ndarray, blur: float) -> np.ndarray:
    """Features (Q, h, w, c) blurred a little (``blur`` of the card height, each tile
    padded by reflection), their rim set to 0: a new array."""
    q, h, w, c = feats.shape
    s = h * blur
    out = feats
    if s > 0.3:
        b = int(np.ceil(3 * s))
        padded = _padded(feats, b)
        blurred = cv2.GaussianBlur(padded.reshape(q * (h + 2 * b), w + 2 * b, c), (0, 0), s)
        out = blurred.reshape(q, h + 2 * b, w + 2 * b, c)[:, b:b + h, b:b + w].copy()
    m = max(1, round(h * RIM))
    out[:, :m], out[:, -m:], out[:, :, :m], out[:, :, -m:] = 0, 0, 0, 0
    return out


_REFLECT: dict[tuple[int, int], np.ndarray] = {}


def _padded(images: np.ndarray, pad: int) -> np.ndarray:
    """``np.pad(images, pad, mode="reflect")`` on axes 1 and 2 (OpenCV's BORDER_REFLECT_101,
    the edge pixel not repeated), as two look-ups of precomputed indices (the same pixels,
    a fraction of ``np.pad``'s cost on a stack of small cards)."""
    for axis in (1, 2):
        n = images.shape[axis]
        index = _REFLECT.get((n, pad))
        if index is None:
            period = max(1, 2 * (n - 1))
            i = np.abs(np.arange(-pad, n + pad)) % period
            index = _REFLECT[(n, pad)] = np.where(i >= n, period - i, i)
        images = np.take(images, index, axis=axis)
    return images


def _row_medians(values: np.ndarray) -> np.ndarray:
    """``np.median(values, axis=1)`` of (Q, M) float values without NaN, the same numbers
    (one partition and the mean of the middle two, without ``np.median``'s generality)."""
    m = values.shape[1]
    if m % 2:
        return np.partition(values, m // 2, axis=1)[:, m // 2]
    part = np.partition(values, [m // 2 - 1, m // 2], axis=1)
    return np.mean(part[:, m // 2 - 1:m // 2 + 1], axis=1)


def coarse_many(bank: Bank, cards: np.ndarray, valid: np.ndarray, *, keep: float
                ) -> np.ndarray:
    """Coarse distances of Q rectified cards to every reference and flip.

    Parameters
    ----------
    cards : ndarray of shape (Q, h, w, 3), uint8, BGR, at the bank's coarse size
    valid : ndarray of shape (Q, h, w), bool; False outside the frame

    Returns
    -------
    dist : ndarray of shape (Q, 2 * N), float32; see ``cards_match.robust_distance``.
    """
    feats = features_many(cards)
    q = _cells_many(feats)  # (Q, C, D)
    seen = _seen_cells(valid)  # (Q, C)
    return robust_many(q, seen, bank.coarse, bank.coarse_sq, keep=keep)


def _cells_many(feats: np.ndarray) -> np.ndarray:
    """``cells_of`` of each of Q feature images (Q, h, w, c) at once: (Q, C, D)."""
    q, h, w, c = feats.shape
    rows, cols = CELL_ROWS, max(2, round(CELL_ROWS * w / h))
    ch, cw = h // rows, w // cols
    return feats[:, :ch * rows, :cw * cols].reshape(q, rows, ch, cols, cw, c).transpose(
        0, 1, 3, 2, 4, 5).reshape(q, rows * cols, ch * cw * c)


def _seen_cells(valid: np.ndarray) -> np.ndarray:
    """Per card and cell (as ``cells_of`` cuts them), whether more than 0.6 of it is valid.

    valid : ndarray of shape (Q, h, w), bool -> ndarray of shape (Q, C), bool
    """
    q, h, w = valid.shape
    rows, cols = CELL_ROWS, max(2, round(CELL_ROWS * w / h))
    ch, cw = h // rows, w // cols
    frac = valid[:, :ch * rows, :cw * cols].reshape(q, rows, ch, cols, cw).mean(axis=(2, 4))
    return frac.reshape(q, rows * cols) > 0.6


_BY_CELL: dict[int, tuple[np.ndarray, np.ndarray]] = {}


def _by_cell(ref: np.ndarray) -> np.ndarray:
    """``ref`` (N, C, D) laid out as (C, D, N) for the batched product, made once per bank
    (the same numbers: a bank's 240 references are 8 MB to copy on every call)."""
    hit = _BY_CELL.get(id(ref))
    if hit is not None and hit[0] is ref:
        return hit[1]
    if len(_BY_CELL) > 8:
        _BY_CELL.clear()
    out = np.ascontiguousarray(ref.transpose(1, 2, 0))
    _BY_CELL[id(ref)] = (ref, out)
    return out


def robust_many(q: np.ndarray, seen: np.ndarray, ref: np.ndarray, ref_sq: np.ndarray, *,
                keep: float, top: int = 12) -> np.ndarray:
    """Batched ``robust_distance``: q (Q, C, D), seen (Q, C) -> (Q, N).

    The occlusion-tolerant distance is computed for the ``top`` references that the plain
    correlation ranks first; the others get the plain distance (never smaller), which is
    what keeps a 120-face deck cheap.
    """
    nq, nc, nd = q.shape
    q = q * seen[:, :, None]
    q_sq = (q * q).sum(-1)  # (Q, C)
    dots = np.matmul(q.transpose(1, 0, 2), _by_cell(ref)).transpose(1, 2, 0)
    n_seen = seen.sum(1)  # (Q,)
    eps = (0.005 * nd * np.maximum(n_seen, 1))[:, None]
    ref_energy = ref_sq @ seen.T.astype(np.float32)  # (N, Q)
    plain = dots.sum(-1) / np.sqrt((q_sq.sum(1)[:, None] + eps) * (ref_energy.T + eps))
    out = (1.0 - plain).astype(np.float32)
    k = min(top, ref.shape[0])
    pick = np.argpartition(-plain, k - 1, axis=1)[:, :k]  # (Q, K)
    dk = np.take_along_axis(dots, pick[:, :, None], axis=1)  # (Q, K, C)
    rk = ref_sq[pick]  # (Q, K, C)
    d = rk + q_sq[:, None] - 2 * dk
    drop = n_seen - np.maximum(1, np.round(keep * n_seen)).astype(int)
    ordered = np.sort(np.where(seen[:, None], d, -np.inf), axis=-1)
    idx = np.broadcast_to(np.clip(nc - drop, 0, nc - 1)[:, None, None], (nq, k, 1))
    worst = np.where((drop > 0)[:, None, None], np.take_along_axis(ordered, idx, axis=-1), np.inf)
    bad = d > 0.5 * (rk + q_sq[:, None]) + 0.05 * nd
    kept = seen[:, None] & ~(bad & (d >= worst))
    num = (dk * kept).sum(-1)
    q_energy = (q_sq[:, None] * kept).sum(-1)
    energy_k = np.take_along_axis(ref_energy.T, pick, axis=1)
    sim = num / np.sqrt((q_energy + eps) * (energy_k + eps))
    np.put_along_axis(out, pick, (1.0 - sim).astype(np.float32), axis=1)
    out[n_seen == 0] = np.inf
    return out
