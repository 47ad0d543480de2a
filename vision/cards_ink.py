"""The colour of a card's ink where it is seen, against a reference face's.

Look-alike faces that differ in ink colour (a red suit and a black one) can show the
same few dark strokes on a strip of a card (a corner index beside a covered pip): their
lightness cannot tell them apart, and colour counts for little next to lightness in
the whole-card distance. The ink itself can: the mean chroma of the dark pixels, in the
features' units (chroma relative to the card's own white, weak tints ignored, so warm or
cool light and a camera's cast do not colour black ink), is either about neutral (black
or grey ink) or clearly coloured, and then has a hue. A face whose ink, over the part of
the card that is seen, is of another kind or hue than the card's is not that card.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.cards_match import DUEL_SLIDE

INK_LIGHT = -1.0  # normalised lightness below which a pixel is ink (features' channel 0)
INK_PIXELS = 24  # least ink pixels, each side, for a judgement (at the fine size)
NEUTRAL = 0.12  # mean ink chroma (features' units, 1 = 40 Lab units beyond the dead band)
COLOURED = 0.4  # at or below NEUTRAL the ink is black or grey, at or above COLOURED coloured
HUE_APART = 60.0  # degrees of hue between two coloured inks that tells them apart,
HUE_SAME = 30.0  # and within which they are one ink (a washed-out print's red included)


def ink_chroma(feats: np.ndarray, seen: np.ndarray) -> np.ndarray | None:
    """Mean chroma of the ink seen on a card, weighted by how dark each ink pixel is.

    Parameters
    ----------
    feats : ndarray of shape (h, w, 3), float32
        Features (``cards_match.features``): lightness, then chroma relative to the white.
    seen : ndarray of shape (h, w), bool
        Where the card is seen; pixels within a slide's width of its edge are left out
        (the shadow of a card on top is dark but no ink).

    Returns
    -------
    ndarray of shape (2,), float32, or None
        None when fewer than ``INK_PIXELS`` ink pixels are seen.
    """
    if feats.ndim != 3 or feats.shape[2] != 3 or seen.shape != feats.shape[:2]:
        raise ValueError("feats must be (h, w, 3) features and seen an (h, w) mask of them.")
    pad = max(2, round(DUEL_SLIDE * feats.shape[0]))
    inner = cv2.erode(seen.astype(np.uint8), np.ones((2 * pad + 1, 2 * pad + 1), np.uint8),
                      borderType=cv2.BORDER_CONSTANT, borderValue=1) > 0
    weight = np.clip(INK_LIGHT - feats[:, :, 0], 0, None) * inner
    if np.count_nonzero(weight) < INK_PIXELS:
        return None
    return ((feats[:, :, 1:] * weight[:, :, None]).sum((0, 1)) / weight.sum()).astype(np.float32)


def ink_kind(chroma: np.ndarray | None) -> float | None:
    """The ink's hue in degrees (coloured), -1.0 (neutral: black or grey), or None (unclear)."""
    if chroma is None:
        return None
    size = float(np.hypot(chroma[0], chroma[1]))
    if size <= NEUTRAL:
        return -1.0
    if size >= COLOURED:
        return float(np.degrees(np.arctan2(chroma[1], chroma[0])) % 360.0)
    return None


def ink_clash(query: np.ndarray, ref: np.ndarray, seen: np.ndarray) -> bool:
    """True when the card's ink and a reference's, over the same seen part, clearly differ.

    ``query`` is the card's features laid over the reference ``ref`` (both (h, w, 3)
    float32, ``cards_name``'s aligned pair) and ``seen`` where the card is seen. Black
    against coloured ink clashes, and two coloured inks ``HUE_APART`` or more apart; an
    ink in between, or too little of it, never does.
    """
    return _apart(query, ref, seen) == 1


def ink_alike(query: np.ndarray, ref: np.ndarray, seen: np.ndarray) -> bool:
    """True when the card's ink and a reference's are clearly one: both black or grey, or
    both coloured within ``HUE_SAME`` of hue (arguments as :func:`ink_clash`)."""
    return _apart(query, ref, seen) == -1


def _apart(query: np.ndarray, ref: np.ndarray, seen: np.ndarray) -> int:
    """1: the two inks clash; -1: they are alike; 0: neither is clear."""
    a, b = ink_kind(ink_chroma(query, seen)), ink_kind(ink_chroma(ref, seen))
    if a is None or b is None:
        return 0
    if a < 0 or b < 0:
        return 1 if (a < 0) != (b < 0) else -1
    turn = abs((a - b + 180.0) % 360.0 - 180.0)
    return 1 if turn >= HUE_APART else -1 if turn <= HUE_SAME else 0


def ink_duel(aligned: dict, masks: dict, a: str, b: str, min_margin: float
             ) -> tuple[float, float] | None:
    """A look-alike duel of faces ``a`` and ``b`` judged by the colour of the ink seen.

    ``aligned`` maps each face to its (card, reference) features, ``masks`` to where the
    card is seen (``cards_name``). Judged only when the two references' inks clash over
    the part of the card both see: the card's ink alike ``a``'s and clashing with ``b``'s
    gives (``min_margin``, 1.0), the other way round (``-min_margin``, 0.0); otherwise
    None (no verdict: inks alike, mixed or unclear, or too little ink seen).
    """
    seen = masks[a] & masks[b]
    if not ink_clash(aligned[a][1], aligned[b][1], seen):
        return None
    for_a, for_b = _apart(*aligned[a], masks[a]), _apart(*aligned[b], masks[b])
    if (for_a, for_b) == (-1, 1):
        return min_margin, 1.0
    if (for_a, for_b) == (1, -1):
        return -min_margin, 0.0
    return None
