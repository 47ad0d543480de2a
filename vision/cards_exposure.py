"""How much of a card the camera saw at its ceiling (for teaching a deck).

A camera that exposes for a dark table can push a light card past the top of its range.
The paper then reads 255 in every channel, and so does any light print that the same
excess pushed past 255 in every channel: a pale art box, a light tint behind a title, a
thin light line become paper. Nothing measured afterwards brings them back, and evening
the light out (``cards_light``) cannot either: the face saved lacks an edge the printed
card has. Its look-alike, taught under a kinder exposure, keeps that edge, and every
later card of the pair then sides with the look-alike on it, whichever card it is: the
look-alike duel is decided by the lost edge, not by the title word (a deck taught live,
``bench/bench_teach.py --seed 141``: 4 BANK cards named BARK with a margin of 0.25).

Paper the camera read below its ceiling carries the sensor's noise and a light's fall-off:
its pixels scatter below 255, few of them reach the top level in all three channels at
once. Paper past the ceiling is flat there. :func:`clipped_share` measures the share of
the card (inside its rim, where the edge blends with the table) that is.

The paper need not reach the ceiling in every channel for light print to be lost. Under a
tinted light two channels can clip while the third stays below: green with red on a yellow
title band and on a pale art box, and the print's lightness is then mostly the ceiling's
(green with red or blue carries 0.79-0.93 of the luminance). A BANK face taught so (seed
45: two channels at the ceiling over 0.10 of the card, all three over 0.001) has its pale
art box's edge faint; a BARK card under a glare, its own light tones pushed up alike, then
sides with it on that edge, not on the title word (table 0029, margin 0.11).
``channels=2`` counts such pixels too.
"""

from __future__ import annotations

import numpy as np

from vision.frames import check_frame

RIM = 0.03  # the rim left out, a fraction of the card's height
CEILING = 254  # a channel at this grey level or above is at the camera's ceiling (JPEG
# decoding scatters a clipped 255 by a level or two)


def clipped_share(face: np.ndarray, *, channels: int = 3) -> float:
    """Share (0..1) of the card inside its rim at the ceiling in ``channels`` channels or
    more (3: every channel).

    Parameters
    ----------
    face : ndarray of shape (h, w, 3), uint8, BGR
        A card rectified upright as the camera saw it (before its light is evened out:
        the ceiling is the camera's, not the evened face's).

    Returns
    -------
    float
        0 for a card the camera read below its ceiling, about the share of plain paper
        on the card for one whose paper it read at 255.

    :raises ValueError: ``face`` is not an (h, w, 3) uint8 array, or ``channels`` is not
        1, 2 or 3.
    """
    check_frame(face, name="face")
    if channels not in (1, 2, 3):
        raise ValueError(f"channels must be 1, 2 or 3, not {channels!r}")
    h, w = face.shape[:2]
    m = round(RIM * h)
    inner = face[m:h - m, m:w - m] if min(h, w) > 2 * m + 2 else face
    at_ceiling = np.count_nonzero(inner >= CEILING, axis=2) >= channels
    return float(np.count_nonzero(at_ceiling)) / (inner.shape[0] * inner.shape[1])
