"""A look-alike duel judged window by window: each pip's own patch, a vote of the windows.

Two faces of one rank in two suits of one colour (a nine of hearts and a nine of diamonds)
share their layout: every pip lies in the same place, and only each pip's shape differs
(a heart's lobes and notch against a diamond's straight sides). ``cards_match.fine_duel``
compares them on one patch spanning every pip, slid rigidly by a few pixels. That patch is
explained well only when all the pips line up at once and all are seen: a card bent a
little by perspective, or with one row of pips under another card, explains it at 0.5
however clearly each pip it shows is a heart.

:func:`window_duel` compares the two faces on each window alone: the connected pieces of
their difference (one per pip, the lobes of a heart joined), each slid over its own small
neighbourhood. A window that neither face explains (``SHOWN`` below) is not the card's
print where it lies (a card or a hand on top, glare) and abstains; the others vote, by
how much of the two faces' difference they hold. The verdict is the windows' weighted
margin and how well the winner explains them, and there is none when too little of the
difference is in the windows that vote (``DUEL_SEEN``) or when a window that votes leans
the other way: an outline taking in two cards, or a face of another deck, is no verdict.
:func:`vote_windows` asks it only of a duel the one patch left short of the support floor.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.cards_match import DUEL_LEVEL, DUEL_SEEN, DUEL_SLIDE, MatchParams

#: Share of the card two references differ on only by lying askew (a deck taught with the
#: camera) that a duel's margin forgives: the one patch's (``cards_name``) and the windows'.
DUEL_ASKEW = 0.05

#: A window whose pixels neither face explains at this correlation or more abstains (hidden
#: under another card or a hand: 0.06-0.6 measured; the card's own pips 0.85-0.99, the other
#: suit's pip shape on them 0.3-0.65).
SHOWN = 0.7
WINDOW_AREA = 0.002  # least difference pixels of a window, a share of the card's area
#: Most difference pixels of a window (a share of the card's area; a pip's is 0.01, a
#: pair of pips joined 0.03). Two references photographed apart differ around every pip
#: and their difference joins into one region of the card: no pip is judged alone there.
WINDOW_MAX = 0.04


def window_duel(query_a: np.ndarray, query_b: np.ndarray, valid: np.ndarray,
                ref_a: np.ndarray, ref_b: np.ndarray, min_margin: float
                ) -> tuple[float, float] | None:
    """(margin of ``ref_a`` over ``ref_b``, how well ``ref_a`` explains the windows that
    vote), or None when the windows give no verdict.

    Parameters
    ----------
    query_a, query_b : ndarray of shape (h, w, 3), float32
        The card's fine features laid over each reference (``cards_name``).
    valid : ndarray of shape (h, w), bool
        Where the card is in the frame.
    ref_a, ref_b : ndarray of shape (h, w, 3), float32
        The two references' features.
    min_margin : float
        A voting window leaning to ``ref_b`` by half of it or more leaves no verdict.
    """
    windows = _windows(query_a, query_b, valid, ref_a, ref_b)
    if windows is None:
        return None
    total = sum(mass for mass, _, _ in windows)
    voting = [(mass, c_a, c_b) for mass, c_a, c_b in windows if max(c_a, c_b) >= SHOWN]
    mass = sum(m for m, _, _ in voting)
    if total <= 0 or mass < DUEL_SEEN * total:
        return None
    lean = [c_a - c_b for _, c_a, c_b in voting]
    margin = sum(m * d for (m, _, _), d in zip(voting, lean)) / mass
    if any(d * np.sign(margin) <= -min_margin / 2 for d in lean):  # a window votes the other way
        return None
    support = sum(m * c_a for m, c_a, _ in voting) / mass
    return float(margin), float(support)


def vote_windows(aligned: dict, masks: dict, a: str, b: str, verdict: tuple[float, float],
                 min_margin: float, misfit: float = 0.0) -> tuple[float, float]:
    """``verdict`` (margin, support) of face ``a`` over ``b`` on one patch, or the
    windows' when that patch leans to ``a`` but ``a`` explains it under
    ``MatchParams.min_support`` and the windows name ``a`` surely.

    ``aligned`` maps each face to its (card, reference) fine features laid over each other
    and ``masks`` to where the card is seen (``cards_name``); the windows' margin is
    divided by how askew the references lie (``misfit`` over ``DUEL_ASKEW``, at least 1),
    as the patch's was.
    """
    margin, support = verdict
    if support >= MatchParams.min_support or margin <= 0:
        return verdict
    (qa, ra), (qb, rb) = aligned[a], aligned[b]
    vote = window_duel(qa, qb, masks[a] & masks[b], ra, rb, min_margin)
    if vote is None:
        return verdict
    vote_margin = vote[0] / max(1.0, misfit / DUEL_ASKEW)
    if vote_margin < min_margin or vote[1] < MatchParams.min_support:
        return verdict
    return vote_margin, vote[1]


def _windows(query_a: np.ndarray, query_b: np.ndarray, valid: np.ndarray,
             ref_a: np.ndarray, ref_b: np.ndarray) -> list[tuple[float, float, float]] | None:
    """(mass, c_a, c_b) of each window: the weight of the two references' difference it
    holds, and each reference's best correlation with its own laid card slid within it;
    a window not wholly in the frame has correlations of 0. None when a window is larger
    than ``WINDOW_MAX``."""
    whole = ((ref_a - ref_b) ** 2).sum(-1)
    h, w = whole.shape
    peak = float(whole.max())
    if peak < 1e-6:
        return []
    pad = max(2, round(DUEL_SLIDE * h))
    level = (whole > DUEL_LEVEL * peak).astype(np.uint8)
    # a pip's pieces (a heart's two lobes beside a diamond's sides) are one window
    joined = cv2.dilate(level, np.ones((2 * pad + 1, 2 * pad + 1), np.uint8))
    n, label, boxes, _ = cv2.connectedComponentsWithStats(joined)
    inner = cv2.erode(valid.astype(np.uint8), np.ones((2 * pad + 1, 2 * pad + 1), np.uint8),
                      borderType=cv2.BORDER_CONSTANT, borderValue=1) > 0
    out = []
    for k in range(1, n):
        x, y, bw, bh, _ = boxes[k]
        y0, y1, x0, x1 = max(y, pad), min(y + bh, h - pad), max(x, pad), min(x + bw, w - pad)
        if y1 <= y0 or x1 <= x0:
            continue
        own = (label[y0:y1, x0:x1] == k) & (level[y0:y1, x0:x1] > 0)
        if np.count_nonzero(own) > WINDOW_MAX * h * w:
            return None
        if np.count_nonzero(own) < WINDOW_AREA * h * w:
            continue
        weight = np.sqrt(np.where(own, whole[y0:y1, x0:x1], 0) / peak).astype(np.float32)
        if not inner[y0:y1, x0:x1][own].all():
            out.append((float(weight.sum()), 0.0, 0.0))
            continue
        c_a = _fit(query_a[y0 - pad:y1 + pad, x0 - pad:x1 + pad], ref_a[y0:y1, x0:x1], weight)
        c_b = _fit(query_b[y0 - pad:y1 + pad, x0 - pad:x1 + pad], ref_b[y0:y1, x0:x1], weight)
        out.append((float(weight.sum()), c_a, c_b))
    return out


def _fit(area: np.ndarray, patch: np.ndarray, weight: np.ndarray) -> float:
    """Best weighted normalised correlation of ``patch``'s lightness slid over ``area``'s."""
    scores = cv2.matchTemplate(np.ascontiguousarray(area[:, :, 0]),
                               np.ascontiguousarray(patch[:, :, 0]), cv2.TM_CCOEFF_NORMED,
                               mask=weight)
    return float(np.nan_to_num(scores).max())
