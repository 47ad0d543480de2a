"""Comparing a rectified card with the deck's reference faces.

Every face is compared after the same light-proof normalisation (:func:`features`):
brightness is divided out by local contrast normalisation (dim light, shading and most
glare vanish) and colour is taken relative to the card's own white, with weak tints
ignored (tinted light and a camera's colour cast vanish). Then:

- :func:`robust_distance`, by cells: the query's worst disagreeing cells are left out, so an
  overlap or a glare spot does not sink the true face, but the reference keeps all its
  energy, so a blank or foreign card cannot match a sparse face. Used coarsely (64 pixels
  high, every reference, ``cards_batch``) and finely (160 pixels, after :func:`align`).
- :func:`fine_duel` for look-alikes (faces with one layout that differ by a title word, a
  numeral or an icon): only the patch where the two references differ is compared, by
  normalised correlation, slid a few pixels to forgive a small misfit. A whole-card score
  would drown a numeral in the shared layout.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.cards_median import median_u8
from vision.cvcompat import warp_affine

COARSE_H = 64
FINE_SCALE = 2.5
SHARP = 2  # a look-alike duel too close to call is judged again at this many times fine
CELL_ROWS = 8
CHROMA_DEADBAND = 12.0  # Lab units (0..255 scale)
CHROMA_SCALE = 40.0  # Lab units of colour worth one unit of normalised lightness
BLUR = 0.02  # feature blur, as a fraction of the card height
FINE_BLUR = 0.008
RIM = 0.03  # ignored rim, as a fraction of the card height
DUEL_LEVEL = 0.1  # a look-alike duel looks where references differ this much (of the most)
DUEL_SLIDE = 0.02  # and slides the patch this far (fraction of the card height)
DUEL_CONTRAST = 0.25  # telling-pixel contrast (of 0.5) that settles a duel the correlations lean to
DUEL_SEEN = 0.6  # share of what tells two faces apart that must be seen for a verdict,
DUEL_SEEN_AREA = 0.015  # or else telling pixels seen, as a share of the card's area


@dataclass(frozen=True)
class MatchParams:
    """Tunables of the naming step (distances are 1 - correlation, 0 = identical).

    Attributes
    ----------
    max_distance : float
        Coarse distance above which a card matches no face (rejected, not unsure).
    max_fine_distance : float
        The same after alignment at the fine resolution: the final acceptance test.
    sure_distance : float
        Fine distance at or below which the match itself is fully trusted.
    keep_cells : float
        Least fraction of cells a distance keeps (tolerated occlusion is 1 - keep_cells).
    rivals : int
        Faces, besides the best, compared at the fine stage (look-alikes).
    rival_slack : float
        A face is a rival when its coarse distance is within this much of the best.
    close_distance : float
        Fine distances closer than this go to the look-alike duel.
    min_margin : float
        Duel margin (difference of correlations) the best face needs over a close rival.
    min_support : float
        Correlation the best face needs on the telling patch itself (else it is a card
        of another game in the deck's style, or too blurred to read: unsure).
    """

    max_distance: float = 0.6
    max_fine_distance: float = 0.42
    sure_distance: float = 0.35
    keep_cells: float = 0.7
    rivals: int = 3
    rival_slack: float = 0.3
    close_distance: float = 0.12
    min_margin: float = 0.04
    min_support: float = 0.85


@dataclass(frozen=True)
class Bank:
    """Reference features of a deck, built once by :func:`build_bank`.

    Attributes
    ----------
    ids : tuple of str
        Card id of each reference photo (several photos may share an id).
    coarse : ndarray of shape (2 * N, cells, dims), float32
        Cell features of every reference at 0 degrees (first N) then 180 degrees.
    coarse_sq : ndarray of shape (2 * N, cells), float32
        Squared norms of ``coarse`` per cell.
    light : ndarray of shape (2 * N, h, w), float32
        Lightness feature of every reference and flip at the coarse size (for alignment).
    fine : ndarray of shape (N, Hf, Wf, 3), float32
        Fine features at 0 degrees.
    size : tuple of int
        (coarse_h, coarse_w) of the canonical card.
    sharp : ndarray of shape (N, Hs, Ws, 3), uint8, BGR, or None
        The faces at :func:`sharp_size`, for look-alike duels too close to call at the
        fine size (``cards_name``); None when the deck has none.
    keys : (ndarray, ndarray, ndarray) or None
        The faces' SIFT keypoints as ``cards_keys.face_keys`` finds them (positions (K, 2)
        float32, face index (K,) int64, descriptors (K, 128) float32), kept in the deck's
        index; None: found on their first use.
    """

    ids: tuple[str, ...]
    coarse: np.ndarray
    coarse_sq: np.ndarray
    light: np.ndarray
    fine: np.ndarray
    size: tuple[int, int]
    sharp: np.ndarray | None = None
    keys: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None


@dataclass(frozen=True)
class Match:
    """Outcome of naming one hypothesis: ``card_id`` None means unsure.

    ``margin`` and ``support`` come from the look-alike duel (1.0 when there was none).
    """

    card_id: str | None
    best_id: str
    distance: float
    confidence: float
    runner_up: str | None
    flip: bool
    margin: float = 1.0
    support: float = 1.0



def canonical_size(aspect: float) -> tuple[tuple[int, int], tuple[int, int]]:
    """Coarse and fine (height, width) of the rectified card for a deck's aspect."""
    cw = max(16, 4 * round(COARSE_H * aspect / 4))
    return (COARSE_H, cw), (round(COARSE_H * FINE_SCALE), round(cw * FINE_SCALE))


def sharp_size(aspect: float) -> tuple[int, int]:
    """(height, width) of a face kept for the sharp look-alike duel: ``SHARP`` times fine."""
    (ch, cw), _ = canonical_size(aspect)
    return round(ch * FINE_SCALE * SHARP), round(cw * FINE_SCALE * SHARP)


def features(card: np.ndarray, blur: float = BLUR) -> np.ndarray:
    """Light-proof features of a rectified card.

    Parameters
    ----------
    card : ndarray of shape (h, w, 3), uint8, BGR

    Returns
    -------
    feats : ndarray of shape (h, w, 3), float32
        Channel 0: locally contrast-normalised lightness; 1, 2: chroma relative to the
        card's median colour, in the same units.
    """
    lab8 = cv2.cvtColor(card, cv2.COLOR_BGR2LAB)
    lab = lab8.astype(np.float32)
    sigma = card.shape[0] / 10
    light = lab[:, :, 0]
    mean = _wide_blur(light, sigma)
    centred = light - mean
    spread = np.sqrt(_wide_blur(centred * centred, sigma))
    floor = max(6.0, float(np.median(spread)))
    out = np.empty(card.shape, np.float32)
    out[:, :, 0] = centred / (spread + floor)
    # the card's white: its median colour (whole numbers, counted: ``cards_median``)
    white = median_u8(lab8[:, :, 1:].reshape(-1, 2).T)
    # weak tints (black ink, a camera's colour cast) say nothing: only real colour counts;
    # worked out once for each of the 256 levels of a channel and looked up (the same numbers)
    levels = np.arange(256, dtype=np.float32)[:, None] - white
    table = np.sign(levels) * np.maximum(np.abs(levels) - CHROMA_DEADBAND, 0) / CHROMA_SCALE
    out[:, :, 1] = table[lab8[:, :, 1], 0]
    out[:, :, 2] = table[lab8[:, :, 2], 1]
    # a little blur forgives an outline found a few pixels off or a soft focus
    out = cv2.GaussianBlur(out, (0, 0), card.shape[0] * blur)
    # the rim is where a slightly-off outline shows table instead of card: ignore it
    m = max(1, round(card.shape[0] * RIM))
    out[:m], out[-m:], out[:, :m], out[:, -m:] = 0, 0, 0, 0
    return out


def build_bank(ids: tuple[str, ...], faces: np.ndarray, aspect: float, *,
               sharp: np.ndarray | None = None,
               keys: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None) -> Bank:
    """Reference features from canonical faces (N, Hf, Wf, 3) uint8 BGR at fine size;
    ``sharp``: the same faces at :func:`sharp_size`, and ``keys`` their SIFT keypoints
    (``Bank.keys``), kept as they are."""
    (ch, cw), _ = canonical_size(aspect)
    fine = (np.stack([features(f, FINE_BLUR) for f in faces]) if len(faces)
            else np.zeros((0, 1, 1, 3)))
    from vision.cards_batch import features_many  # the same code the queries go through

    small = [cv2.resize(f, (cw, ch), interpolation=cv2.INTER_AREA) for f in faces]
    both = small + [np.ascontiguousarray(f[::-1, ::-1]) for f in small]
    feats = list(features_many(np.stack(both))) if both else []
    if feats:
        stack = np.stack([cells_of(f) for f in feats]).astype(np.float32)
        light = np.stack([f[:, :, 0] for f in feats]).astype(np.float32)
    else:
        stack, light = np.zeros((0, 1, 1), np.float32), np.zeros((0, ch, cw), np.float32)
    return Bank(ids=ids, coarse=stack, coarse_sq=(stack * stack).sum(-1), light=light,
                fine=fine.astype(np.float32), size=(ch, cw), sharp=sharp, keys=keys)


def cells_of(feats: np.ndarray) -> np.ndarray:
    """Split (h, w, c) features into (cells, dims): CELL_ROWS rows, square-ish cells."""
    h, w, c = feats.shape
    rows = CELL_ROWS
    cols = max(2, round(rows * w / h))
    ch, cw = h // rows, w // cols
    trimmed = feats[:ch * rows, :cw * cols]
    return trimmed.reshape(rows, ch, cols, cw, c).transpose(0, 2, 1, 3, 4).reshape(
        rows * cols, ch * cw * c)


_BLUR_ROWS: dict[tuple[int, float], np.ndarray] = {}


def _wide_blur(image: np.ndarray, sigma: float) -> np.ndarray:
    """``cv2.GaussianBlur(image, (0, 0), sigma)`` of a small float32 (h, w) image, as two
    matrix products (the kernel spans most of a rectified card: a 129-tap filter at the
    fine size costs four times as much as the products)."""
    h, w = image.shape
    return (_blur_rows(h, sigma) @ image @ _blur_rows(w, sigma).T).astype(np.float32)


def _blur_rows(n: int, sigma: float) -> np.ndarray:
    """(n, n) float32: row i holds the Gaussian weights OpenCV gives each of n samples when
    blurring sample i (its kernel size, borders reflected without repeating the edge)."""
    key = (n, float(sigma))
    hit = _BLUR_ROWS.get(key)
    if hit is not None:
        return hit
    ksize = int(round(sigma * 8 + 1)) | 1
    kernel = cv2.getGaussianKernel(ksize, sigma, cv2.CV_32F)[:, 0].astype(np.float64)
    r = ksize // 2
    src = np.arange(n)[:, None] + np.arange(-r, r + 1)[None]
    period = 2 * (n - 1) if n > 1 else 1
    src = np.abs(src) % period
    src = np.where(src >= n, period - src, src)  # reflected about the edges (101)
    out = np.zeros((n, n))
    np.add.at(out, (np.repeat(np.arange(n), ksize), src.ravel()), np.tile(kernel, n))
    if len(_BLUR_ROWS) > 16:
        _BLUR_ROWS.clear()
    _BLUR_ROWS[key] = out.astype(np.float32)
    return _BLUR_ROWS[key]



def fine_distance(query: np.ndarray, valid: np.ndarray, ref: np.ndarray, *,
                  keep: float, ref_cells: tuple[np.ndarray, np.ndarray] | None = None) -> float:
    """:func:`robust_distance` of fine features (h, w, 3) to one aligned reference;
    ``ref_cells`` is :func:`reference_cells` of ``ref`` when already at hand."""
    rc, rc_sq = reference_cells(ref) if ref_cells is None else ref_cells
    return float(robust_distance(cells_of(query), cells_of(valid[:, :, None].astype(np.float32)),
                                 rc, rc_sq, keep=keep)[0])


def reference_cells(ref: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """A reference's features (h, w, C) as :func:`robust_distance` takes them: its cells
    (1, cells, dims) and their squared norms (1, cells)."""
    rc = cells_of(ref)[None]
    return rc, (rc * rc).sum(-1)


def robust_distance(q: np.ndarray, seen_frac: np.ndarray, ref: np.ndarray,
                    ref_sq: np.ndarray, *, keep: float) -> np.ndarray:
    """1 - S, with S a normalised correlation that forgives hidden cells.

    The query's worst disagreeing cells (hidden by another card, a hand or glare; at
    most ``1 - keep`` of them) are left out of the sum, but the reference keeps all its
    energy: a blank query cannot resemble a sparse face (an ace), and a face only matches
    by showing what the reference shows.

    Parameters
    ----------
    q : ndarray of shape (cells, dims)
    seen_frac : ndarray of shape (cells, cell_pixels), fraction of each cell in the frame
    ref : ndarray of shape (n, cells, dims); ref_sq : its squared norms (n, cells)
    """
    seen = seen_frac.mean(-1) > 0.6
    if not seen.any():
        return np.full(len(ref), np.inf, np.float32)
    q, ref, ref_sq = q[seen], ref[:, seen], ref_sq[:, seen]
    q_sq = (q * q).sum(-1)
    dots = np.einsum("nck,ck->nc", ref, q)
    d = ref_sq + q_sq[None] - 2 * dots
    drop = d.shape[1] - max(1, int(round(keep * d.shape[1])))
    kept = np.ones_like(d, dtype=bool)
    if drop > 0:
        # only cells that disagree (correlation below 0.5) may be left out, worst first
        bad = d > 0.5 * (ref_sq + q_sq[None]) + 0.05 * q.shape[1]
        worst = np.partition(d, d.shape[1] - drop, axis=1)[:, d.shape[1] - drop]
        kept = ~(bad & (d >= worst[:, None]))
    num = (dots * kept).sum(1)
    q_energy = (q_sq[None] * kept).sum(1)
    eps = 0.005 * q.shape[1] * d.shape[1]
    sim = num / np.sqrt((q_energy + eps) * (ref_sq.sum(1) + eps))
    return (1.0 - sim).astype(np.float32)


def align(query: np.ndarray, ref: np.ndarray) -> np.ndarray:
    """Affine warp (2, 3) that best lays ``ref`` over ``query`` (both (h, w) float32).

    Absorbs an outline found a few pixels off and a reference photographed slightly
    askew; falls back to the identity when the fit fails or strays too far.
    """
    eye = np.eye(2, 3, dtype=np.float32)
    try:
        _, warp = cv2.findTransformECC(query, ref, eye.copy(), cv2.MOTION_AFFINE,
                                       (cv2.TERM_CRITERIA_EPS | cv2.TERM_CRITERIA_COUNT, 20, 1e-3),
                                       None, 1)
    except cv2.error:
        return eye
    h, w = query.shape
    lin = warp[:, :2]
    if np.abs(lin - np.eye(2)).max() > 0.12 or np.abs(warp[:, 2]).max() > 0.12 * max(h, w):
        return eye
    return warp


def warp_to_ref(query: np.ndarray, warp: np.ndarray, scale: float, *,
                border: int = cv2.BORDER_CONSTANT) -> np.ndarray:
    """Lay fine query features (or a mask) over the reference an :func:`align` warp fits.

    ``warp`` was fitted at the coarse size; its shift is scaled by ``scale``. Pixels the
    warp brings in from beyond the card are 0 (features) or, with ``border`` set to
    ``cv2.BORDER_REPLICATE``, copies of the edge (a validity mask).
    """
    m = warp.copy()
    m[:, 2] *= scale
    h, w = query.shape[:2]
    return warp_affine(query, m, (w, h), flags=cv2.INTER_LINEAR, borderMode=border,
                       borderValue=0)


def fine_duel(query_a: np.ndarray, query_b: np.ndarray, valid: np.ndarray, ref_a: np.ndarray,
              ref_b: np.ndarray, *, least: float = DUEL_SEEN_AREA) -> tuple[float, float]:
    """How well each of two look-alikes explains the query where they differ.

    Only the patch where the two references differ counts (a title word, a numeral, an
    icon). Each reference's patch is slid a few pixels over its own aligned query
    (``query_a``, ``query_b``) to forgive a small misfit, and the best squared
    weighted normalised correlations (c_a, c_b) are returned: c_a - c_b is the margin of
    ``ref_a``, and a low c_a says the card shows neither (a card of another game).
    (0, 0) when little of their difference is seen (under ``least`` of the card's area).
    """
    whole = ((ref_a - ref_b) ** 2).sum(-1)
    h, w = whole.shape
    pad = max(2, round(DUEL_SLIDE * h))
    if not valid.all():  # the slid patch must not reach the edge of what hides the card
        valid = cv2.erode(valid.astype(np.uint8), np.ones((2 * pad + 1, 2 * pad + 1), np.uint8),
                          borderType=cv2.BORDER_CONSTANT, borderValue=1) > 0
    diff = whole * valid
    peak = float(diff.max())
    # judged on the visible part only, when most of what tells them apart is seen or what
    # is seen of it is a readable patch by itself (a corner index beside a covered pip)
    if peak < 1e-6 or (diff.sum() < DUEL_SEEN * whole.sum() and np.count_nonzero(
            (whole > DUEL_LEVEL * whole.max()) & valid) < least * whole.size):
        return 0.0, 0.0
    ys, xs = np.nonzero(diff > DUEL_LEVEL * peak)
    y0, y1 = max(ys.min() - pad, pad), min(ys.max() + pad + 1, h - pad)
    x0, x1 = max(xs.min() - pad, pad), min(xs.max() + pad + 1, w - pad)
    if y1 <= y0 or x1 <= x0:
        return 0.0, 0.0
    weight = np.sqrt(diff[y0:y1, x0:x1] / peak)
    c_a = _best_fit(query_a[y0 - pad:y1 + pad, x0 - pad:x1 + pad], ref_a[y0:y1, x0:x1], weight)
    c_b = _best_fit(query_b[y0 - pad:y1 + pad, x0 - pad:x1 + pad], ref_b[y0:y1, x0:x1], weight)
    return c_a, c_b


def _best_fit(area: np.ndarray, patch: np.ndarray, weight: np.ndarray) -> float:
    """Best weighted normalised correlation of ``patch`` slid over ``area`` (contrast-proof:
    a blurred or dim print is not taken for the face with less ink)."""
    scores = cv2.matchTemplate(np.ascontiguousarray(area[:, :, 0]),
                               np.ascontiguousarray(patch[:, :, 0]), cv2.TM_CCOEFF_NORMED,
                               mask=weight.astype(np.float32))
    return float(np.nan_to_num(scores).max())


def duel_contrast(query: np.ndarray, valid: np.ndarray, ref_a: np.ndarray, ref_b: np.ndarray
                  ) -> float:
    """Where the query lies between two look-alikes on the pixels that tell them apart.

    The query's patch is fitted as ``k * (ref_a + ref_b) / 2 + t' * (ref_a - ref_b) + c``
    (least squares, the best of a few small shifts) and ``t = t' / k`` returned: +0.5 is
    ``ref_a`` exactly, -0.5 is ``ref_b``, 0 is neither (a matched filter for the
    difference, blind to the query's contrast). Lightness only; 0 when nothing is seen.
    """
    d = ref_a[:, :, 0] - ref_b[:, :, 0]
    m = (ref_a[:, :, 0] + ref_b[:, :, 0]) / 2
    diff = d * d * valid
    peak = float(diff.max())
    if peak < 1e-6:
        return 0.0
    ys, xs = np.nonzero(diff > DUEL_LEVEL * peak)
    h, w = d.shape
    pad = max(2, round(DUEL_SLIDE * h))
    y0, y1 = max(ys.min() - 2 * pad, pad), min(ys.max() + 2 * pad + 1, h - pad)
    x0, x1 = max(xs.min() - 2 * pad, pad), min(xs.max() + 2 * pad + 1, w - pad)
    if y1 <= y0 or x1 <= x0:
        return 0.0
    # the least-squares fit at every shift at once: correlations of the query with each
    # basis image (matchTemplate) against the basis' own Gram matrix
    area = np.ascontiguousarray(query[y0 - pad:y1 + pad, x0 - pad:x1 + pad, 0], np.float32)
    basis = [np.ascontiguousarray(b, np.float32) for b in
             (m[y0:y1, x0:x1], d[y0:y1, x0:x1], np.ones((y1 - y0, x1 - x0), np.float32))]
    flat = np.stack([b.ravel() for b in basis], 1).astype(np.float64)
    inverse = np.linalg.pinv(flat.T @ flat)
    qb = np.stack([cv2.matchTemplate(area, b, cv2.TM_CCORR) for b in basis], -1
                  ).astype(np.float64)  # (shifts_y, shifts_x, 3)
    qq = cv2.matchTemplate(area * area, basis[2], cv2.TM_CCORR).astype(np.float64)
    coef = qb @ inverse.T
    err = qq - (coef * qb).sum(-1)
    err[coef[:, :, 0] <= 0.2] = np.inf
    if not np.isfinite(err).any():
        return 0.0
    k = np.unravel_index(int(np.argmin(err)), err.shape)
    return float(coef[k][1] / coef[k][0])
