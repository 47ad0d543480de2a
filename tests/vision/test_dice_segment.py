"""Exposure and table model of the dice reader (``vision.dice_segment``)."""

from __future__ import annotations

import numpy as np

from vision.dice_segment import normalise_exposure


def _dark_table_with_dice(seam: int) -> np.ndarray:
    """A dark wooden table (brightness 70) with a 2x2 block of light dice (200) whose
    tops are parted by seams of brightness ``seam``, covering 1.5% of the frame."""
    frame = np.full((480, 640, 3), 70, np.uint8)
    frame[200:246, 300:346] = 200
    frame[222:224, 300:346] = frame[200:246, 322:324] = seam
    return frame


def test_a_dim_frame_is_brightened():
    frame = np.full((480, 640, 3), 60, np.uint8)
    out = normalise_exposure(frame)
    assert 150 <= int(out[0, 0, 0]) <= 210


def test_brightening_a_dark_table_does_not_blow_out_the_dice_on_it():
    # the dice are too few to set the frame's bright level (its 97th percentile is the
    # table), yet the seams between touching dice must stay darker than their tops
    out = normalise_exposure(_dark_table_with_dice(seam=110))
    assert int(out[0, 0, 0]) > 90  # the table is brightened
    top, seam = int(out[210, 310, 0]), int(out[222, 310, 0])
    assert top - seam >= 40
