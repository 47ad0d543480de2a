"""A plain peer for the benchmark: name cards by a perceptual hash, as card scanners do.

Same outline search and rectification as :func:`vision.cards.read_cards`; then each
rectified card is reduced to a 64-bit DCT hash (pHash: 32x32 gray, the 8x8 lowest
frequencies, one bit each against their median) and named after the deck face at the
smallest Hamming distance, if that distance is small enough. No alignment, no look-alike
duel, no occlusion tolerance: the yardstick ``read_cards`` is measured against.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.cards_stages import assignments, iou_quads, rectify
from vision.cards_find import find_card_quads
from vision.deck import Deck
from vision.results import CardReading, CardSighting

MAX_BITS = 10  # Hamming distance (of 64) up to which a hash names a face


def phash(card: np.ndarray) -> np.ndarray:
    """64-bit perceptual hash of a BGR card image, as a bool array of shape (64,)."""
    gray = cv2.cvtColor(card, cv2.COLOR_BGR2GRAY).astype(np.float32)
    small = cv2.resize(gray, (32, 32), interpolation=cv2.INTER_AREA)
    low = cv2.dct(small)[:8, :8].ravel()
    return low > np.median(low[1:])


def deck_hashes(deck: Deck) -> np.ndarray:
    """Hashes of every reference, upright then turned 180 degrees: shape (2 * N, 64)."""
    up = [phash(f) for f in deck.faces]
    down = [phash(np.ascontiguousarray(f[::-1, ::-1])) for f in deck.faces]
    return np.array(up + down, bool).reshape(-1, 64)


def read_cards_phash(frame: np.ndarray, deck: Deck, hashes: np.ndarray) -> CardReading:
    """Name the card faces in a frame by perceptual hash (see the module docstring)."""
    n = len(deck.ids)
    size = deck.faces.shape[1:3]
    found = []
    for quad in find_card_quads(frame, deck.aspect):
        best = None
        for order in assignments(quad):
            card, _ = rectify(frame, order, size)
            dist = np.count_nonzero(hashes != phash(card)[None], axis=1)
            i = int(np.argmin(dist))
            if best is None or dist[i] < best[0]:
                best = (int(dist[i]), i, order)
        if best is not None and best[0] <= MAX_BITS:
            d, i, order = best
            found.append(CardSighting(card_id=deck.ids[i % n], best_guess=deck.ids[i % n],
                                      confidence=1 - d / 64, runner_up=None, distance=d / 64,
                                      corners=tuple((float(x), float(y)) for x, y in order)))
    kept: list[CardSighting] = []
    for s in sorted(found, key=lambda s: s.distance):
        q = np.array(s.corners, np.float32)
        if all(iou_quads(q, np.array(k.corners, np.float32)) < 0.3 for k in kept):
            kept.append(s)
    return CardReading(cards=tuple(kept))
