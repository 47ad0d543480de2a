"""The clean cards named before the keypoint search, and the tiles they leave to it.

The fast path (``cards_fast``) sends a frame whose table is not bare to the full read, and
with ``FastParams.busy_keys`` the keypoint search looks only at the busy tiles: those with
edges beyond the *clean* outlines (cleanly outlined, near a face by the coarse ranking).
A clean outline is not yet a named card, though: a face whose print is sparse (a number
card's few pips) can rank close by the coarse ranking and still be left unsure or refused
by the naming, and then only its keypoints place it, on tiles that show no edges once its
outline is cleared. So the clean outlines are named first (snapped and named as the full
read names them, :func:`cards_stages.fine_stage`), each one's answer kept by a
:func:`recalling` stand-in that the full read is handed (``read_keyed(..., fine=)``), so
no outline is named twice; the tiles of those not named (:func:`unnamed_tiles`) are
searched for keypoints like the busy ones.
"""

from __future__ import annotations

from collections.abc import Callable

import cv2
import numpy as np

from vision.cards_part import WorkView
from vision.cards_stages import CardParams, edges_at, fine_stage, snap_stages
from vision.deck import Deck


def recalling() -> Callable:
    """A stand-in for :func:`cards_stages.fine_stage` (same arguments) that names each
    outline once: an outline met again (the same corner order, no ``usable`` mask) gets
    its first answer back, whatever batch its coarse ranking came from (a card's coarse
    distances move by a few hundredths with the cards ranked beside it)."""
    kept: dict[bytes, object] = {}

    def fine(frame: np.ndarray, coarse: tuple, deck: Deck, params, *,
             usable: np.ndarray | None = None):
        if usable is not None:
            return fine_stage(frame, coarse, deck, params, usable=usable)
        key = np.ascontiguousarray(coarse[1], np.float64).tobytes()
        if key not in kept:
            kept[key] = fine_stage(frame, coarse, deck, params)
        return kept[key]

    return fine


def unnamed_tiles(frame: np.ndarray, deck: Deck, clean: list, view: WorkView, *,
                  params: CardParams, grow: float, tile: int, fine: Callable,
                  halved: np.ndarray | None) -> np.ndarray:
    """Per ``tile`` x ``tile`` tile of the work frame (rows, cols; bool), whether it lies
    under a ``clean`` outline (first rankings, as ``cards_stages.coarse_all`` gives them;
    grown by ``grow`` about its centre) that the naming, through ``fine``, leaves unnamed
    or unsure once snapped."""
    h, w = view.maps[3].shape
    mask = np.zeros((h, w), np.uint8)
    if clean:
        edges = edges_at(frame, params.find.work_side, halved)
        for stage in snap_stages(frame, clean, deck, params, halved=halved, edges=edges):
            named = fine(frame, stage, deck, params.match)
            if named is not None and named[0].card_id is not None:
                continue
            quad = stage[1].astype(np.float64)
            centre = quad.mean(axis=0)
            grown = (centre + (quad - centre) * grow) * view.scale
            cv2.fillConvexPoly(mask, np.round(grown).astype(np.int32), 1)
    ph, pw = -h % tile, -w % tile
    padded = np.pad(mask, ((0, ph), (0, pw)))
    return padded.reshape((h + ph) // tile, tile, (w + pw) // tile, tile).any(axis=(1, 3))
