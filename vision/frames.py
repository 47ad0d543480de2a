"""The check every recognizer makes first: is this an (H, W, 3) uint8 BGR frame?

One rule and one set of sentences for ``read_dice``, ``read_cards``, the card tracker,
the hand detector, the rim snapper, the face lighting and the preview overlay.
"""

from __future__ import annotations

import numpy as np


def check_frame(frame: object, *, name: str = "frame", min_side: int = 1) -> None:
    """Refuse anything but an (H, W, 3) uint8 array at least ``min_side`` pixels a side.

    Parameters
    ----------
    frame : the value to check; an ndarray of shape (H, W, 3), uint8, BGR passes.
    name : the parameter's name, as the sentences say it ("frame", "face").
    min_side : the fewest pixels of the shorter side (H or W) the caller can look at.

    :raises ValueError: one sentence naming ``name`` and what is wrong: not an array,
        another shape, another dtype, or too small.
    """
    if not isinstance(frame, np.ndarray):
        raise ValueError(f"{name} must be an (H, W, 3) numpy array, not "
                         f"{type(frame).__name__}")
    if frame.ndim != 3 or frame.shape[2] != 3:
        raise ValueError(f"{name} must be an (H, W, 3) BGR array, not shape {frame.shape}")
    if frame.dtype != np.uint8:
        raise ValueError(f"{name} must be uint8, not {frame.dtype}")
    if min(frame.shape[:2]) < min_side:
        raise ValueError(f"{name} is too small ({frame.shape[1]}x{frame.shape[0]} pixels)")
