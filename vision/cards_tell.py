"""What tells two look-alike references apart when a user photographed them.

Two faces that differ by a title word share the rest of their print. Between clean scans
the pixels where they differ are the word. Between two faces taught with the camera they
differ a little everywhere: each was cut a few pixels differently off its card (a shift, a
stretch), each was lit and exposed its own way (the print's contrast differs from region to
region) and each carries its own sensor noise. The word is then a small part of their
difference, and a duel judged on all of it is decided by the noise.

:func:`telling` lays one reference onto the other (an affine fit of their lightness), takes
the light out (the laid reference's lightness fitted to the other's by a local gain and
offset, over windows larger than a letter, which a stroke that one has and the other has
not survives), and smooths what is left over a slide's width: noise does not gather there,
a letter's stroke does. A window larger than a letter does not follow a soft patch of
shade one photo has and the other has not, so only the parts of what is left that are
print count: the parts still there when the light is fitted again over windows of a
stroke's size (``TELL_SHADE``), which follow any shading but not a stroke one face has
and the other lacks. The telling pixels are those at ``TELL_LEVEL`` of the peak or more.
:func:`tell_duel` then correlates the card, laid over the first reference, with both
references on those pixels: the same pixels of the card against two references in one frame.
A duel between references whose difference is noise has no clear peak and no clear margin:
it answers unsure. What is left may still hold a difference of light the fit could not take
out (an edge one photo shows faintly, overexposed, and the other clearly) beside the word;
:func:`tell_parts` judges each part of the telling pixels alone, and a verdict that a part
contradicts is unsure (``cards_name``). References that do not share their print once laid
onto each other (laid out differently) duel as before, on their whole difference
(``cards_match.fine_duel``).
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.cards_match import DUEL_SEEN, DUEL_SEEN_AREA, DUEL_SLIDE, RIM
from vision.cvcompat import warp_affine

TELL_LEVEL = 0.5  # telling pixels: the smoothed difference at this share of its peak or more
TELL_WINDOW = 0.1  # window of the light fit, a fraction of the card height (a title is ~0.06)
#: Below this peak (squared contrast-normalised lightness) nothing tells the references apart
#: in lightness: a stroke one face has and the other has not gives 0.01-1, two prints alike
#: but for their ink 0.001 (``cards_ink`` judges those).
TELL_FLOOR = 0.003
#: Two references share their print when laid onto each other their lightness correlates
#: this well (look-alikes taught with the camera: 0.93-1; a 9 and a 10 of spades photographed
#: apart, laid out differently: 0.80; different faces: 0.2-0.3).
SHARED = 0.92
PART_LEVEL, PART_AREA = 0.3, 0.002  # parts of the telling pixels judged alone (share of card)
#: Window of the second light fit (Gaussian sigma, a fraction of the card height; a title's
#: stroke is ~0.015, a letter ~0.06): a difference it takes out is shading, not print, and
#: pixels where only such a difference is left are not telling (:func:`telling`).
TELL_SHADE = 0.02


def laid_onto(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Features ``b`` (h, w, C) warped onto ``a`` (h, w, C') by an affine fit of their
    lightness (channel 0); ``b`` itself when the fit fails."""
    return _laid(a, b)[0]


def _laid(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, float, np.ndarray]:
    """(:func:`laid_onto`, the correlation of the two lightnesses so laid, the (2, 3)
    warp; 0 and the identity when the fit fails)."""
    eye = np.eye(2, 3, dtype=np.float32)
    try:
        agree, warp = cv2.findTransformECC(np.ascontiguousarray(a[:, :, 0]),
                                           np.ascontiguousarray(b[:, :, 0]), eye.copy(),
                                           cv2.MOTION_AFFINE,
                                           (cv2.TERM_CRITERIA_EPS | cv2.TERM_CRITERIA_COUNT,
                                            30, 1e-4), None, 5)
    except cv2.error:
        return b, 0.0, eye
    laid = warp_affine(b, warp, (b.shape[1], b.shape[0]),
                       flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP)
    return laid.reshape(b.shape), float(agree), warp


def telling(ref_a: np.ndarray, ref_b: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """(``ref_b`` laid onto ``ref_a``, where they differ) for two fine features (h, w, 3),
    or None when they do not share their print (laid onto each other, their lightness
    correlates under ``SHARED``: faces laid out differently, such as a 9 and a 10 of pips).

    The second is (h, w) float32: the squared difference of their lightness once laid and
    lit alike, smoothed over a slide's width, 0 in the rim and outside the parts where the
    print differs (the parts of the same difference with the light fitted over windows of
    ``TELL_SHADE``: a soft patch of shade on one photo is no part).
    """
    h = ref_a.shape[0]
    laid, agree, warp = _laid(ref_a, ref_b)
    if agree < SHARED:
        return None
    a, b = ref_a[:, :, 0], laid[:, :, 0]
    # the rim is 0 in each; laid over the other it is a false edge, wherever the fit took it
    m = round(RIM * h) + 2
    inside = np.zeros_like(a)
    inside[m:-m, m:-m] = 1
    inside = warp_affine(inside, warp, inside.shape[::-1],
                         flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP) * inside
    diff = _smoothed_energy(a - _lit_like(b, a, TELL_WINDOW * h), inside, h)
    # where the print differs: what is left once the light is fitted over a stroke's width
    # (a soft patch of shade the larger window did not follow goes; a stroke stays)
    printed = _smoothed_energy(a - _lit_like(b, a, TELL_SHADE * h), inside, h)
    return laid, diff * _parts_mask(printed)


def _parts_mask(energy: np.ndarray) -> np.ndarray:
    """(h, w) float32: 1 on the parts of ``energy`` (connected pieces at ``PART_LEVEL`` of
    its peak or more, each of ``PART_AREA`` of the card or more), 0 elsewhere."""
    n, label, boxes, _ = cv2.connectedComponentsWithStats(
        (energy > PART_LEVEL * float(energy.max())).astype(np.uint8))
    keep = boxes[:, cv2.CC_STAT_AREA] >= PART_AREA * energy.size
    keep[0] = False
    return keep[label].astype(np.float32)


def _smoothed_energy(left: np.ndarray, inside: np.ndarray, h: int) -> np.ndarray:
    """``left`` (h, w) squared, 0 where ``inside`` is under 1 (the rims), smoothed over a
    slide's width."""
    return cv2.GaussianBlur(np.where(inside >= 0.999, left * left, 0), (0, 0), DUEL_SLIDE * h)


def _lit_like(b: np.ndarray, a: np.ndarray, sigma: float) -> np.ndarray:
    """``b`` (h, w) with a local gain and offset (Gaussian windows of ``sigma`` pixels)
    making it most like ``a``."""
    def mean(x: np.ndarray) -> np.ndarray:
        return cv2.GaussianBlur(x, (0, 0), sigma)

    ma, mb = mean(a), mean(b)
    gain = (mean(a * b) - ma * mb) / (mean(b * b) - mb * mb + 1e-3)
    return gain * b + (ma - gain * mb)


def tell_duel(query: np.ndarray, valid: np.ndarray, ref_a: np.ndarray, laid_b: np.ndarray,
              told: np.ndarray) -> tuple[tuple[float, float], np.ndarray]:
    """((c_a, c_b), the patch) as :func:`vision.cards_match.fine_duel`, on telling pixels.

    ``query`` is the card's fine features laid over ``ref_a``, ``laid_b`` the other
    reference laid onto ``ref_a`` and ``told`` their difference (:func:`telling`). The
    patch (h, w) bool is where the correlations were taken (all False without a verdict).
    ((0, 0), ...) when nothing tells them apart in lightness (``TELL_FLOOR``) or little of
    the telling pixels is seen (under ``DUEL_SEEN`` of them and under ``DUEL_SEEN_AREA`` of
    the card).
    """
    h, w = told.shape
    patch = np.zeros((h, w), bool)
    pad = max(2, round(DUEL_SLIDE * h))
    if not valid.all():  # the slid patch must not reach the edge of what hides the card
        valid = cv2.erode(valid.astype(np.uint8), np.ones((2 * pad + 1, 2 * pad + 1), np.uint8),
                          borderType=cv2.BORDER_CONSTANT, borderValue=1) > 0
    peak_all = float(told.max())
    diff = told * valid
    peak = float(diff.max())
    telling_all = told > TELL_LEVEL * peak_all
    shown = np.count_nonzero(telling_all & valid)
    if peak_all < TELL_FLOOR or peak < 1e-6 or (
            shown < DUEL_SEEN * np.count_nonzero(telling_all)
            and shown < DUEL_SEEN_AREA * told.size):
        return (0.0, 0.0), patch
    ys, xs = np.nonzero(diff > TELL_LEVEL * peak)
    y0, y1 = max(ys.min() - pad, pad), min(ys.max() + pad + 1, h - pad)
    x0, x1 = max(xs.min() - pad, pad), min(xs.max() + pad + 1, w - pad)
    if y1 <= y0 or x1 <= x0:
        return (0.0, 0.0), patch
    part = diff[y0:y1, x0:x1]
    weight = np.sqrt(np.where(part > TELL_LEVEL * peak, part, 0) / peak).astype(np.float32)
    area = np.ascontiguousarray(query[y0 - pad:y1 + pad, x0 - pad:x1 + pad, 0])
    patch[y0:y1, x0:x1] = True
    return (_fit(area, ref_a[y0:y1, x0:x1, 0], weight),
            _fit(area, laid_b[y0:y1, x0:x1, 0], weight)), patch


def tell_parts(query: np.ndarray, valid: np.ndarray, ref_a: np.ndarray, laid_b: np.ndarray,
               told: np.ndarray) -> list[float]:
    """Margins (c_a - c_b, as :func:`tell_duel`) of each part of the telling pixels alone:
    the connected pieces of ``told`` at ``PART_LEVEL`` of its peak (seen) or more, each of
    ``PART_AREA`` of the card or more.

    A title letter that one face has and the other has not and, elsewhere, an edge one
    reference shows faintly (photographed overexposed) and the other clearly may both be
    telling pixels; when their parts clearly disagree, the duel cannot tell.
    """
    h, w = told.shape
    pad = max(2, round(DUEL_SLIDE * h))
    diff = told * valid
    peak = float(diff.max())
    if peak < 1e-6:
        return []
    n, label, boxes, _ = cv2.connectedComponentsWithStats((diff > PART_LEVEL * peak
                                                           ).astype(np.uint8))
    margins = []
    for k in range(1, n):
        x, y, bw, bh, area = boxes[k]
        y0, y1 = max(y - pad, pad), min(y + bh + pad, h - pad)
        x0, x1 = max(x - pad, pad), min(x + bw + pad, w - pad)
        if area < PART_AREA * h * w or y1 <= y0 or x1 <= x0:
            continue
        part = np.where(label[y0:y1, x0:x1] == k, diff[y0:y1, x0:x1], 0)
        weight = np.sqrt(part / peak).astype(np.float32)
        seen = np.ascontiguousarray(query[y0 - pad:y1 + pad, x0 - pad:x1 + pad, 0])
        margins.append(_fit(seen, ref_a[y0:y1, x0:x1, 0], weight)
                       - _fit(seen, laid_b[y0:y1, x0:x1, 0], weight))
    return margins


#: How much more of ``min_margin`` a told duel must lean before its telling pixels' contrast
#: may raise it to a verdict, when its winner explains the telling pixels only at
#: ``min_support`` (:func:`lift_lean`).
LIFT_SHORT = 0.75


def lift_lean(support: float, min_margin: float, min_support: float) -> float:
    """The lean a told duel needs for the telling pixels' contrast to settle it.

    A quarter of ``min_margin`` when the winner explains the telling pixels fully
    (``support`` 1), rising by ``LIFT_SHORT`` of it as ``support`` falls to
    ``min_support``: a tiny lean of a face that barely shows its own telling detail (an
    outline taking in table, glare washing the letter out) is a guess, and the duel is
    then unsure.
    """
    short = float(np.clip((1.0 - support) / (1.0 - min_support), 0.0, 1.0))
    return min_margin * (0.25 + LIFT_SHORT * short)


def _fit(area: np.ndarray, ref: np.ndarray, weight: np.ndarray) -> float:
    """Best weighted normalised correlation of ``ref`` slid over ``area``."""
    scores = cv2.matchTemplate(area, np.ascontiguousarray(ref), cv2.TM_CCOEFF_NORMED,
                               mask=weight)
    return float(np.nan_to_num(scores).max())


#: Bytes of telling pixels kept per bank (the laid reference's lightness and the difference,
#: 8 bytes a pixel: 0.14 MB a fine pair, 0.56 MB a sharp one; the 92 pairs duelled over the
#: 30 bench frames take 10 MB); the least recently used pair is dropped first.
TOLD_BYTES = 16 << 20
_TOLD: dict[int, tuple[object, dict[tuple, tuple[np.ndarray, np.ndarray] | None]]] = {}


def telling_of(bank: object, i: int, j: int, ref_a: np.ndarray, ref_b: np.ndarray
               ) -> tuple[np.ndarray, np.ndarray] | None:
    """:func:`telling` of references ``i`` and ``j`` of ``bank`` (indices with their turn),
    ``ref_a`` and ``ref_b`` at their size, computed once per pair and size while kept; the
    laid reference is its lightness only (h, w, 1), all the duels read."""
    memo = bank_memo(_TOLD, bank)
    key = (i, j, ref_a.shape)
    if key in memo:
        memo[key] = memo.pop(key)  # now the most recently used (a dict keeps its order)
        return memo[key]
    told = telling(ref_a, ref_b)
    if told is not None:
        told = np.ascontiguousarray(told[0][:, :, :1]), told[1]
    memo[key] = told
    while len(memo) > 1 and sum(_nbytes(v) for v in memo.values()) > TOLD_BYTES:
        del memo[next(iter(memo))]  # the least recently used
    return told


def _nbytes(told: tuple[np.ndarray, np.ndarray] | None) -> int:
    """Bytes held by one answer of :func:`telling_of`."""
    return 0 if told is None else told[0].nbytes + told[1].nbytes


def bank_memo(store: dict, bank: object) -> dict:
    """The answers kept in ``store`` for ``bank`` (by its id, the bank itself kept to tell
    a new bank at a reused id; the store is emptied past 8 banks)."""
    hit = store.get(id(bank))
    if hit is None or hit[0] is not bank:
        if len(store) > 8:
            store.clear()
        hit = store[id(bank)] = (bank, {})
    return hit[1]
