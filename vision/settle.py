"""Settling: turn a stream of per-frame dice readings into one reading per roll.

The camera loop feeds every frame with its motion and a hand flag:

>>> settler = DiceSettler(clock=time.monotonic)
>>> mean, peak = motion_scores(previous, frame)
>>> result = settler.feed(reading, motion=peak, hand=False)
>>> if result is not None and result.settled: offer(result.reading)

A reading is emitted only after the table has been still for ``still_frames`` frames and
``still_seconds`` seconds with no hand in view, and then only if ``agree`` of the last
``window`` readings show the same counts with enough confidence. If they do not agree the
settler says "unsure" once instead of guessing. After emitting it waits for the next roll
(motion or a hand) before emitting again, so each roll gives one result.

Only some frames' readings can count: those of still frames while a roll awaits its
decision (a window of still frames that show no dice ends the wait too: dice thrown onto
the table move it). ``settler.can_use_reading(motion=..., hand=...)`` says so before the
frame is read, and ``feed(None, ...)`` takes a frame that was not read (the dice or a hand
moving, or the roll already decided), so a camera loop reads only the frames that matter.
"""

from __future__ import annotations

import time
from collections import Counter, deque
from dataclasses import dataclass
from typing import Callable

import numpy as np

import cv2

from vision.results import DiceReading


@dataclass(frozen=True)
class SettleResult:
    """What the settler decided for a roll: a reading, or "unsure" (``reading`` is None)."""

    kind: str  # "settled" or "unsure"
    reading: DiceReading | None
    at: float  # clock time of the decision
    votes: int  # frames that agreed with the winning counts
    window: int  # frames considered

    @property
    def settled(self) -> bool:
        """True when the frames agreed on one reading."""
        return self.kind == "settled"


class DiceSettler:
    """A vote over consecutive still frames, one decision per roll.

    Parameters
    ----------
    window : frames in the vote
    agree : frames of the window that must show the same (green, yellow, red, other)
    still_frames, still_seconds : how long the table must be quiet before voting; the
        seconds count from the frame the first still frame was compared with (at the camera
        loop's 10 frames a second the 3rd still frame comes 0.3 s after it, give or take
        the thread's timing: 0.25 s lets three frames decide)
    quick : the vote also closes as soon as the first ``quick`` still frames are all sure
        and show the same counts (None: only ``agree`` of ``window`` close it)
    max_motion : a peak motion (``motion_scores``) above this means something moves
    min_confidence : readings whose least sure die is below this do not vote
    clock : callable returning seconds (``time.monotonic``; a fake one in tests)
    """

    def __init__(self, *, window: int = 5, agree: int = 4, still_frames: int = 3,
                 still_seconds: float = 0.25, quick: int | None = 3, max_motion: float = 4.0,
                 min_confidence: float = 0.5, clock: Callable[[], float] = time.monotonic
                 ) -> None:
        if not 1 <= agree <= window:
            raise ValueError(f"agree must be between 1 and window ({window}), not {agree}")
        if quick is not None and not 1 <= quick <= window:
            raise ValueError(f"quick must be between 1 and window ({window}), not {quick}")
        self.window, self.agree, self.quick = window, agree, quick
        self.still_frames, self.still_seconds = still_frames, still_seconds
        self.max_motion, self.min_confidence = max_motion, min_confidence
        self._clock = clock
        self._votes: deque[DiceReading] = deque(maxlen=window)
        self._still = 0
        self._still_since: float | None = None
        self._last_at: float | None = None  # when the previous frame was fed
        self._armed = True  # a new roll may be reported

    def reset(self) -> None:
        """Forget everything (a new game, or the camera was moved)."""
        self._votes.clear()
        self._still, self._still_since, self._armed = 0, None, True
        self._last_at = None

    def can_use_reading(self, *, motion: float, hand: bool = False) -> bool:
        """Whether a frame with this motion and hand flag needs its reading: still, and a
        roll awaiting its decision (else ``feed(None, ...)`` takes the frame unread)."""
        return self._armed and not hand and motion <= self.max_motion

    def feed(self, reading: DiceReading | None, *, motion: float, hand: bool = False
             ) -> SettleResult | None:
        """Take one frame's reading; return a decision when this frame settles a roll.

        `reading` may be None for a frame whose reading cannot count (``can_use_reading``).

        :raises ValueError: `reading` is None for a frame whose reading is needed.
        """
        now = self._clock()
        before, self._last_at = self._last_at, now
        if hand or motion > self.max_motion:
            self._votes.clear()
            self._still, self._still_since, self._armed = 0, None, True
            return None
        self._still += 1
        if self._still_since is None:  # unchanged since the frame before: still since then
            self._still_since = now if before is None else before
        if not self._armed:
            return None  # decided: the votes are cleared before the next roll counts any
        if reading is None:
            raise ValueError("The settler needs this still frame's reading: "
                             "read it when can_use_reading says so.")
        self._votes.append(reading)
        if self._still < self.still_frames or now - self._still_since < self.still_seconds:
            return None
        return self._decide(now)

    def _decide(self, now: float) -> SettleResult | None:
        """The decision on the votes, or None while the vote is open.

        The vote closes when the window is full, or sooner once ``agree`` sure frames
        show the same counts and ``agree`` is more than half the window (then no later
        frame of the window could change the counts decided), or once the first
        ``quick`` frames are all sure and agree.
        """
        full = len(self._votes) >= self.window
        if full and all(r.count == 0 for r in self._votes):
            self._armed = False  # an empty table is not a roll: wait for the next motion
            return None
        sure = [r for r in self._votes if r.count > 0 and r.confidence >= self.min_confidence]
        tally = Counter(r.counts() for r in sure)
        counts, votes = tally.most_common(1)[0] if tally else ((), 0)
        unanimous = self.quick is not None and votes == len(self._votes) >= self.quick
        if not full and not unanimous and (votes < self.agree or 2 * self.agree <= self.window):
            return None
        self._armed = False
        if votes < self.agree and not unanimous:
            return SettleResult("unsure", None, now, votes, len(self._votes))
        latest = next(r for r in reversed(sure) if r.counts() == counts)
        return SettleResult("settled", latest, now, votes, len(self._votes))


def motion_score(previous: np.ndarray | None, frame: np.ndarray) -> float:
    """Mean absolute change (0-255) between two frames, seen small and grey.

    Parameters
    ----------
    previous, frame : ndarray of shape (H, W, 3), uint8, BGR (``previous`` may be None)
    """
    return motion_scores(previous, frame)[0]


def motion_scores(previous: np.ndarray | None, frame: np.ndarray) -> tuple[float, float]:
    """(mean, peak) absolute change (0-255) between two frames, seen 160x120 and grey.

    The mean is over the whole picture (a new scene moves it, a few dice barely do);
    the peak is the largest mean over 20x20-pixel tiles of the small picture, about
    three dice wide at the usual distance: one die rolling, tumbling or sliding by its
    own width raises it as much as a hand does, while camera noise stays near the mean.
    Two frames of different sizes, or no previous frame, give (255, 255).

    Parameters
    ----------
    previous, frame : ndarray of shape (H, W, 3), uint8, BGR (``previous`` may be None)
    """
    if previous is None or previous.shape != frame.shape:
        return 255.0, 255.0
    return small_motion(small_grey(previous), small_grey(frame))


def small_grey(frame: np.ndarray) -> np.ndarray:
    """A BGR frame as the 160x120 grey picture the motion scores compare."""
    return cv2.cvtColor(cv2.resize(frame, (160, 120), interpolation=cv2.INTER_AREA),
                        cv2.COLOR_BGR2GRAY)


def small_motion(previous: np.ndarray, frame: np.ndarray) -> tuple[float, float]:
    """:func:`motion_scores` of two pictures already made small (``small_grey``)."""
    change = cv2.absdiff(previous, frame)
    tiles = change.reshape(6, 20, 8, 20).mean(axis=(1, 3))
    return float(change.mean()), float(tiles.max())


class CardSettler:
    """One decision per change of the cards on the table: a vote over still frames.

    Feed each frame's named card ids (sorted tuple) with a motion score; once the table
    has been still for ``still_frames`` frames and ``agree`` of the last ``window`` frames
    name the same cards, that set is returned, once. Cards that disagree give nothing:
    for a card a wrong guess costs more than waiting for a better frame.
    """

    def __init__(self, *, window: int = 4, agree: int = 3, still_frames: int = 2,
                 max_motion: float = 4.0) -> None:
        if not 1 <= agree <= window:
            raise ValueError(f"agree must be between 1 and window ({window}), not {agree}")
        self.window, self.agree = window, agree
        self.still_frames, self.max_motion = still_frames, max_motion
        self._votes: deque[tuple[str, ...]] = deque(maxlen=window)
        self._still = 0
        self._reported: tuple[str, ...] | None = None

    def reset(self) -> None:
        """Forget everything (a new game, a new deck)."""
        self._votes.clear()
        self._still, self._reported = 0, None

    def feed(self, ids: tuple[str, ...], *, motion: float, hand: bool = False
             ) -> tuple[str, ...] | None:
        """Take one frame's card ids; return the settled set when it has just changed.

        A hand in view counts as motion: the cards under it are not settled.
        """
        if hand or motion > self.max_motion:
            self._votes.clear()
            self._still = 0
            return None
        self._still += 1
        self._votes.append(tuple(sorted(ids)))
        if self._still < self.still_frames or len(self._votes) < self.window:
            return None
        ids, votes = Counter(self._votes).most_common(1)[0]
        if votes < self.agree or ids == self._reported:
            return None
        self._reported = ids
        return ids
