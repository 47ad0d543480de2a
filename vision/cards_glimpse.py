"""A look-alike duel judged on a glimpse: less of the telling detail seen than a patch.

``cards_match.fine_duel`` gives a verdict on a partly hidden card only when most of what
tells two look-alikes apart is seen, or a readable patch of it (``DUEL_SEEN_AREA`` of the
card, about a corner index). A strip of a fanned ace often shows less: its corner index
and part of its one big pip, the rest under the card on top. The correlations on so
little can still be clear, but a small patch fits many shapes (half a club is much like
half a diamond), so a glimpse's margin counts only in proportion to how much of a
readable patch was seen, the contrast statistic (``cards_match.duel_contrast``) does not
raise it, and the colour of the ink (``cards_ink``), when it tells the two faces apart,
has the last word.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.cards_ink import ink_duel
from vision.cards_match import DUEL_LEVEL, DUEL_SEEN_AREA, DUEL_SLIDE, fine_duel


def glimpse_duel(aligned: dict, masks: dict, a: str, b: str, min_margin: float, *,
                 askew: float = 0.0) -> tuple[float, float] | None:
    """(margin of face ``a`` over ``b``, how well ``a`` explains the telling pixels) from a
    glimpse of them, or None when nothing of them is seen.

    ``aligned`` maps each face to its (card, reference) fine features laid over each
    other and ``masks`` to where the card is seen (``cards_name``). The margin is the
    difference of the two correlations times the share of a readable patch seen (below
    1: a glimpse); the ink's verdict (``min_margin`` either way) replaces it when the two
    faces' inks clash and the card's is alike one of them. The margin of the lightness
    is divided by ``askew`` when above 1 (``cards_name``: how much of the two references'
    difference is misfit); the ink's verdict is no matter of registration.
    """
    (qa, ra), (qb, rb) = aligned[a], aligned[b]
    seen = masks[a] & masks[b]
    share = glimpse_share(seen, ra, rb)
    if share <= 0:
        return None
    ink = ink_duel(aligned, masks, a, b, min_margin)
    if ink is not None:
        return ink
    c_a, c_b = fine_duel(qa, qb, seen, ra, rb, least=0.0)
    return (c_a - c_b) * min(share, 1.0) / max(1.0, askew), c_a


def glimpse_share(seen: np.ndarray, ref_a: np.ndarray, ref_b: np.ndarray) -> float:
    """Telling pixels of two aligned references (fine features (h, w, 3)) seen a slide's
    width inside ``seen`` ((h, w) bool), as a share of a readable patch (``DUEL_SEEN_AREA``
    of the card): 1.0 and more is a patch, below it a glimpse."""
    whole = ((ref_a - ref_b) ** 2).sum(-1)
    peak = float(whole.max())
    if peak < 1e-6:
        return 0.0
    pad = max(2, round(DUEL_SLIDE * whole.shape[0]))
    inner = cv2.erode(seen.astype(np.uint8), np.ones((2 * pad + 1, 2 * pad + 1), np.uint8),
                      borderType=cv2.BORDER_CONSTANT, borderValue=1) > 0
    told = np.count_nonzero((whole > DUEL_LEVEL * peak) & inner)
    return told / (DUEL_SEEN_AREA * whole.size)
