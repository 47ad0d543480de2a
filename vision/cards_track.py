"""Read the frames of one camera in turn, redoing only the work the picture's changes need.

A camera over a card table sees the same picture most of the time: between plays nothing
moves, and a card that lands changes only its own part of the table. :class:`CardReader`
keeps what it learnt from the last frame it read:

- a frame whose every tile (``TrackParams.tile`` work pixels square) is as it was gets
  the last reading back at once (a still table costs a resize and a difference);
- otherwise the frame is read afresh (:func:`vision.cards.read_keyed`), but the keypoint
  search (``cards_keys``, the costliest stage) looks only at the tiles that changed and
  keeps the keypoints found elsewhere before, with their nearest reference descriptors;
  and an outline lying wholly on unchanged tiles, nearly where an outline was named (or
  found to be no card) last time, gets that answer back instead of being named again;
  optionally (``crop_below``) the card outlines are searched afresh only in a box around
  the change, on the whole frame's thresholds (``cards_part``), those lying wholly on
  unchanged tiles being kept from the last read with their coarse ranking, while the
  frame's card-white level holds;
- optionally (``TrackParams.part_below``) only a box around the change and the cards it
  touches is read again, and the cards seen elsewhere before are kept.

Each frame is compared with the frame last read, not the one before it: a slow drift of
the light adds up until it counts as a change.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

import cv2
import numpy as np

from vision.cards import read_keyed
from vision.cards_find import FindParams
from vision.cards_keys import (FrameKeys, find_keypoint_quads, frame_keys, with_nearest,
                               work_gray)
from vision.cards_landing import (LandParams, is_inside_box, landed_reading, share_under,
                                  tile_means, touched_tiles)
from vision.cards_part import WorkView, work_view, view_quads
from vision.cards_stages import CardParams, Evidence, check_frame, coarse_all, fine_stage
from vision.deck import Deck
from vision.results import CardReading, CardSighting


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
    margin : float
        The part of the frame read again is the box around the change and the cards it
        touches, grown on every side by this fraction of the frame's longer side.
    part_below : float
        Only a box smaller than this fraction of the frame is read on its own; a larger
        change reads the whole frame. 0 (the default) always reads the whole frame: a
        part read alone costs about a third less but, on the project's landing scenes,
        misses a card in 1-2 of 30-80 (cut by the box, or a look-alike left unsure).
    same_outline : float
        An outline on unchanged tiles whose corners all lie within this fraction of its
        longer side of an outline named last time is that card again; 0 names every
        outline afresh.
    crop_below : float
        When the box around the change (as for ``part_below``) is smaller than this
        fraction of the frame, the card outlines are searched afresh in that box only, and
        those lying wholly on unchanged tiles are kept from the last read (at most
        ``carry_reads`` reads in a row, and their coarse ranking with them); the box is
        searched on the whole frame's thresholds (``cards_part``). 0 (the default)
        searches the whole frame every time. 0.7 reads the project's landing scenes as a
        fresh read reads them (as the default does), at 0-15% less CPU per landing frame
        in same-hour pairs (docs/benchmarks.md, speed round 6): not yet a clear gain.
    carry_reads : int
        Reads an outline is kept over; then the whole frame is searched again.
    level_drift : float
        Outlines are kept only while the frame's card-white level (Otsu's, on the whole
        frame, 0-255) is within this of the level they were found at: the thresholds
        they came from would be another search's.
    land : LandParams or None
        A frame whose change is cards landing is read from the change alone
        (``cards_landing``: the new cards' outlines near it, named, the last reading's
        cards kept); None reads every changed frame in full.
    """

    tile: int = 32
    still: float = 6.0
    margin: float = 0.1
    part_below: float = 0.0
    same_outline: float = 0.02
    crop_below: float = 0.0
    carry_reads: int = 30
    level_drift: float = 2.0
    land: LandParams | None = LandParams()


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
        self._named: list[_Named] = []  # what the last read's naming said of each outline
        self._quads: list[tuple[np.ndarray, int]] = []  # last read's outlines, reads kept
        self._level = -np.inf  # card-white level of the last whole outline search
        self._ranked: dict[bytes, tuple] = {}  # last read's coarse ranking, per outline
        self._stale: np.ndarray | None = None  # tiles changed since the keypoints were searched

    def read(self, frame: np.ndarray) -> CardReading:
        """The cards in ``frame`` (H, W, 3) uint8 BGR, as :func:`read_cards` names them.

        :raises ValueError: ``frame`` is not an (H, W, 3) uint8 array.
        """
        check_frame(frame)
        keys_params = self.params.keys
        gray, scale = work_gray(frame) if keys_params is None else work_gray(frame, keys_params)
        soft = cv2.GaussianBlur(gray, (5, 5), 0)
        diff, changed = self._changed(soft)
        if changed is not None and not changed.any() and self._reading is not None:
            return self._reading
        view = None
        if changed is not None and self._reading is not None and self.track.land is not None:
            reading, view = self._landed(frame, soft, scale, diff, changed)
            if reading is not None:
                return reading
        keyed: list = []
        if keys_params is not None and self.deck.ids:
            if changed is not None and self._stale is not None:
                changed = changed | self._stale  # and what landing reads left unsearched
            keys = with_nearest(frame_keys(gray, scale, keys_params, reuse=self._keys,
                                           changed=changed, tile=self.track.tile),
                                self.deck.faces, self.deck.bank, keys_params)
            keyed = find_keypoint_quads(frame, self.deck.faces, self.deck.bank,
                                        params=keys_params, keys=keys)
            self._keys, self._stale = keys, None
        box = (None if changed is None or self.track.part_below <= 0
               else self._part(changed, scale, frame.shape[:2], self.track.part_below))
        named: list[_Named] = []  # only a whole read notes what it named, for the next
        quads: list[tuple[np.ndarray, int]] = []
        ranked: dict[bytes, tuple] = {}
        if not self.deck.ids:
            reading = CardReading(cards=(), unsure=())
        elif box is None:
            recall = self._recall(changed, scale, named)
            quads = self._outlines(frame, changed, scale, view)
            reading = read_keyed(frame, self.deck, keyed, params=self.params, fine=recall,
                                 quads=[q for q, _ in quads],
                                 coarse=self._ranking(quads, ranked), view=view)
        else:
            reading = self._read_part(frame, box, keyed, changed, scale)
        self._gray, self._reading, self._named = soft, reading, named
        self._quads, self._ranked = quads, ranked
        self.reads += 1
        return reading

    def _landed(self, frame: np.ndarray, soft: np.ndarray, scale: float, diff: np.ndarray,
                changed: np.ndarray) -> tuple[CardReading | None, WorkView | None]:
        """The frame read from its change alone (``cards_landing``), noted as the last
        read; None (and the outline search's view, when made) to read it in full."""
        if not self.deck.ids:
            return None, None
        named: list[_Named] = []
        reading, view = landed_reading(frame, self.deck, self._reading, diff, changed, scale,
                                       still=self.track.still, tile=self.track.tile,
                                       params=self.params, land=self.track.land,
                                       fine=self._recall(changed, scale, named))
        if reading is None:
            return None, view
        t = self.track.tile
        # what was named on unchanged tiles stays known; the keypoints there are stale
        self._named = [n for n in self._named if _still(n.quad, changed, scale, t)] + named
        self._stale = changed if self._stale is None else self._stale | changed
        self._gray, self._reading, self._quads, self._ranked = soft, reading, [], {}
        self.reads += 1
        return reading, view

    def _recall(self, changed: np.ndarray | None, scale: float, named: list[_Named]
                ) -> Callable:
        """A stand-in for ``fine_stage`` that answers an outline on unchanged tiles as it
        was answered last time (when one lies close enough), and notes every answer."""
        t = self.track.tile
        known = [] if changed is None or self.track.same_outline <= 0 else [
            n for n in self._named if _still(n.quad, changed, scale, t)]

        def fine(frame, coarse, deck, params, *, usable=None):
            quad = coarse[1]
            if usable is not None:  # a card seen beneath named ones: its own view
                return fine_stage(frame, coarse, deck, params, usable=usable)
            side = float(np.hypot(*(quad - np.roll(quad, -1, axis=0)).T).max())
            for n in known:
                if np.abs(n.quad - quad).max() <= self.track.same_outline * side:
                    named.append(n)
                    return n.result
            result = fine_stage(frame, coarse, deck, params)
            named.append(_Named(quad.astype(np.float32), result))
            return result

        return fine

    def _ranking(self, quads: list[tuple[np.ndarray, int]], ranked: dict[bytes, tuple]
                 ) -> Callable:
        """A stand-in for ``coarse_all`` that gives an outline kept from the last read (on
        unchanged tiles) its ranking of then, ranks the others, and notes every ranking."""
        kept = {q.tobytes() for q, age in quads if age > 0}

        def coarse(frame, batch, deck, *, halved=None):
            keys = [q.tobytes() for q in batch]
            new = [q for q, k in zip(batch, keys) if k not in kept or k not in self._ranked]
            fresh = iter(coarse_all(frame, new, deck, halved=halved))
            out = [self._ranked[k] if k in kept and k in self._ranked else next(fresh)
                   for k in keys]
            ranked.update(zip(keys, out))
            return out

        return coarse

    def _outlines(self, frame: np.ndarray, changed: np.ndarray | None, scale: float,
                  view: WorkView | None = None) -> list[tuple[np.ndarray, int]]:
        """The frame's edge outlines (``cards_find``), each with the reads it was kept
        over: those touching a changed tile found afresh in a box around the change (on
        the whole frame's thresholds, ``cards_part``), those wholly on unchanged tiles
        kept from the last read while the frame's card-white level holds."""
        find, t = self.params.find, self.track.tile
        view = view or work_view(frame, find)
        if (changed is None or self.track.crop_below <= 0 or not self._quads
                or abs(view.level - self._level) > self.track.level_drift):
            self._level = view.level
            return [(q, 0) for q in view_quads(view, self.deck.aspect, params=find)]
        still = [_still(q, changed, scale, t) for q, _ in self._quads]
        kept = [(q, age + 1) for (q, age), s in zip(self._quads, still) if s]
        # the box holds every outline of the last read that the change touches
        box = self._part(changed, scale, frame.shape[:2], self.track.crop_below,
                         tuple(q for (q, _), s in zip(self._quads, still) if not s))
        if box is None or any(age > self.track.carry_reads for _, age in kept):
            self._level = view.level
            return [(q, 0) for q in view_quads(view, self.deck.aspect, params=find)]
        part = view_quads(view, self.deck.aspect, box, params=find)
        # a card cut by the box's edge inside the frame is cut short there: an outline
        # drawn along that edge is none of the table's
        d = 0.5 * self.track.margin * max(frame.shape[:2])
        return kept + [(q, 0) for q in part if is_inside_box(q, box, frame.shape[:2], d)
                       and not _still(q, changed, scale, t)]

    def _changed(self, soft: np.ndarray) -> tuple[np.ndarray | None, np.ndarray | None]:
        """The grey difference from the last frame read (work frame, float32) and, per
        tile, True where the picture moved since; (None, None) when there is no such frame
        (or it had another size)."""
        if self._gray is None or self._gray.shape != soft.shape:
            return None, None
        diff = cv2.absdiff(soft, self._gray).astype(np.float32)
        return diff, tile_means(diff, self.track.tile) >= self.track.still

    def _touched(self, changed: np.ndarray, scale: float) -> list[bool]:
        """Per sighting of the last reading (cards, then unsure), whether its outline
        lies on a changed tile."""
        t = self.track.tile
        out = []
        for s in self._reading.cards + self._reading.unsure:
            grid = np.zeros(changed.shape, np.uint8)
            cv2.fillConvexPoly(grid, np.round(np.array(s.corners) * scale / t - 0.5
                                              ).astype(np.int32), 1)
            out.append(bool((grid.astype(bool) & changed).any()))
        return out

    def _part(self, changed: np.ndarray, scale: float, shape: tuple[int, int], below: float,
              more: tuple[np.ndarray, ...] = ()) -> tuple[int, int, int, int] | None:
        """The box (x0, y0, x1, y1), frame pixels, to read again: the changed tiles and
        the cards last seen on them, with a margin; None to read the whole frame (the
        box is not smaller than ``below`` of the frame). ``more``: outlines it holds too."""
        if self._reading is None:
            return None
        t = self.track.tile / scale
        rows, cols = np.nonzero(changed)
        pts = [np.array([[cols.min() * t, rows.min() * t],
                         [(cols.max() + 1) * t, (rows.max() + 1) * t]])]
        sightings = self._reading.cards + self._reading.unsure
        pts += [np.array(s.corners) for s, hit in zip(sightings, self._touched(changed, scale))
                if hit] + list(more)
        (x0, y0), (x1, y1) = np.concatenate(pts).min(axis=0), np.concatenate(pts).max(axis=0)
        h, w = shape
        g = self.track.margin * max(h, w)
        x0, y0 = max(0, int(x0 - g)), max(0, int(y0 - g))
        x1, y1 = min(w, int(np.ceil(x1 + g))), min(h, int(np.ceil(y1 + g)))
        if (x1 - x0) * (y1 - y0) >= below * h * w:
            return None
        return x0, y0, x1, y1

    def _read_part(self, frame: np.ndarray, box: tuple[int, int, int, int], keyed: list,
                   changed: np.ndarray, scale: float) -> CardReading:
        """Read the box again and keep the last reading's cards away from the change."""
        x0, y0, x1, y1 = box
        shift = np.array([x0, y0], np.float32)
        params = replace(self.params, find=_cropped(self.params.find, box, frame.shape[:2]))
        inside = [(q - shift, cid) for q, cid in keyed
                  if q[:, 0].max() > x0 and q[:, 0].min() < x1
                  and q[:, 1].max() > y0 and q[:, 1].min() < y1]
        part = read_keyed(np.ascontiguousarray(frame[y0:y1, x0:x1]), self.deck, inside,
                          params=params)
        old = self._reading.cards + self._reading.unsure
        kept = [s for s, hit in zip(old, self._touched(changed, scale)) if not hit]
        new = [_moved(s, shift) for s in part.cards + part.unsure]
        # a card seen again whole before and cut by the box now: the whole view stays
        new = [s for s in new if not any(share_under(s, k) > 0.5 for k in kept)]
        every = kept + new
        return CardReading(cards=tuple(s for s in every if s.card_id is not None),
                           unsure=tuple(s for s in every if s.card_id is None))


def _cropped(find: FindParams, box: tuple[int, int, int, int], shape: tuple[int, int]
             ) -> FindParams:
    """The outline search's tunables for the part ``box`` (x0, y0, x1, y1) of a frame of
    ``shape`` (h, w): seen at the scale of the whole frame, the same work pixels per
    frame pixel and the same card sizes."""
    x0, y0, x1, y1 = box
    h, w = shape
    ratio = max(h, w) / max(x1 - x0, y1 - y0)
    part = h * w / ((x1 - x0) * (y1 - y0))
    return replace(find, work_side=max(16, round(find.work_side / ratio)),
                   min_card_frac=find.min_card_frac * part,
                   max_card_frac=min(1.0, find.max_card_frac * part))


@dataclass(frozen=True)
class _Named:
    """An outline (corners (x, y), frame pixels, as named) and what naming it gave."""

    quad: np.ndarray
    result: tuple[CardSighting, Evidence] | None


def _still(quad: np.ndarray, changed: np.ndarray, scale: float, tile: int) -> bool:
    """Whether every tile the outline touches (``touched_tiles``) is unchanged."""
    touched = touched_tiles(quad, changed.shape, scale, tile)
    return touched.any() and not (touched & changed).any()


def _moved(s: CardSighting, shift: np.ndarray) -> CardSighting:
    """The sighting with its corners moved by ``shift`` (x, y)."""
    return replace(s, corners=tuple((float(x + shift[0]), float(y + shift[1]))
                                    for x, y in s.corners))
