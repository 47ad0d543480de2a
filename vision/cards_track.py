"""Read the frames of one camera in turn, redoing only the work the picture's changes need.

A camera over a card table sees the same picture most of the time: between plays nothing
moves, and a card that lands changes only its own part of the table. :class:`CardReader`
keeps what it learnt from the last frame it read:

- a frame whose every tile (``TrackParams.tile`` work pixels square) is as it was gets
  the last reading back at once (a still table costs a resize and a difference);
- otherwise the frame is read afresh (:func:`vision.cards.read_keyed`), but the keypoint
  search (``cards_keys``, the costliest stage) looks only at the tiles that changed and
  keeps the keypoints found elsewhere before, with their nearest reference descriptors.

Each frame is compared with the frame last read, not the one before it: a slow drift of
the light adds up until it counts as a change.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.cards import read_keyed
from vision.cards_keys import (FrameKeys, find_keypoint_quads, frame_keys, with_nearest,
                               work_gray)
from vision.cards_stages import CardParams, check_frame
from vision.deck import Deck
from vision.results import CardReading


@dataclass(frozen=True)
class TrackParams:
    """Tunables of :class:`CardReader`.

    Attributes
    ----------
    tile : int
        Side of the square tiles compared between frames, work pixels
        (``KeyParams.work_side``, 640 by default).
    still : float
        A tile whose grey level moved less than this on average (0-255, after a light
        blur against sensor noise) has not changed.
    """

    tile: int = 32
    still: float = 6.0


class CardReader:
    """Names the deck's cards in a camera's frames, one frame after another.

    Parameters
    ----------
    deck : Deck
    params : CardParams
        As for :func:`vision.cards.read_cards`.
    track : TrackParams

    Attributes
    ----------
    reads : int
        Frames read afresh (a frame found unchanged is not counted).
    """

    def __init__(self, deck: Deck, *, params: CardParams = CardParams(),
                 track: TrackParams = TrackParams()) -> None:
        self.deck, self.params, self.track = deck, params, track
        self.reads = 0
        self._gray: np.ndarray | None = None  # blurred work frame of the last frame read
        self._keys: FrameKeys | None = None
        self._reading: CardReading | None = None

    def read(self, frame: np.ndarray) -> CardReading:
        """The cards in ``frame`` (H, W, 3) uint8 BGR, as :func:`read_cards` names them.

        :raises ValueError: ``frame`` is not an (H, W, 3) uint8 array.
        """
        check_frame(frame)
        keys_params = self.params.keys
        gray, scale = work_gray(frame) if keys_params is None else work_gray(frame, keys_params)
        soft = cv2.GaussianBlur(gray, (5, 5), 0)
        changed = self._changed(soft)
        if changed is not None and not changed.any() and self._reading is not None:
            return self._reading
        keyed: list = []
        if keys_params is not None and self.deck.ids:
            keys = with_nearest(frame_keys(gray, scale, keys_params, reuse=self._keys,
                                           changed=changed, tile=self.track.tile),
                                self.deck.faces, self.deck.bank, keys_params)
            keyed = find_keypoint_quads(frame, self.deck.faces, self.deck.bank,
                                        params=keys_params, keys=keys)
            self._keys = keys
        reading = (read_keyed(frame, self.deck, keyed, params=self.params) if self.deck.ids
                   else CardReading(cards=(), unsure=()))
        self._gray, self._reading = soft, reading
        self.reads += 1
        return reading

    def _changed(self, soft: np.ndarray) -> np.ndarray | None:
        """Per tile, True where the picture moved since the last frame read; None when
        there is no such frame (or it had another size)."""
        if self._gray is None or self._gray.shape != soft.shape:
            return None
        t = self.track.tile
        h, w = soft.shape
        diff = cv2.absdiff(soft, self._gray).astype(np.float32)
        rows, cols = -(-h // t), -(-w // t)
        padded = np.zeros((rows * t, cols * t), np.float32)
        padded[:h, :w] = diff
        mean = padded.reshape(rows, t, cols, t).sum(axis=(1, 3))
        area = np.zeros_like(padded)
        area[:h, :w] = 1
        return mean / area.reshape(rows, t, cols, t).sum(axis=(1, 3)) >= self.track.still
