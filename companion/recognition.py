"""The recognition loop: the latest camera frame, read, settled, and handed to the game.

Runs on its own thread beside the capture thread, so recognition never blocks the web
server. It reads dice only while a Toss Up! game is running (other games' card link
plugs in the same way), votes over still frames with :class:`vision.settle.DiceSettler`
and gives one settled reading per roll to the :class:`~companion.camera_link.DiceLink`.
"""

from __future__ import annotations

import logging
import threading
import time
from typing import Any, Callable

import numpy as np

from companion.camera_link import DiceLink
from companion.session import Session
from vision.dice import read_dice
from vision.results import DiceReading
from vision.settle import DiceSettler, motion_score

log = logging.getLogger(__name__)

DICE_GAMES = frozenset({"toss-up"})


class Recognizer:
    """Reads the capture thread's latest frame a few times a second.

    Parameters
    ----------
    latest : returns the newest frame, (H, W, 3) uint8 BGR, or None (``CaptureThread.latest``).
    session : the table's session; its current game decides what to look for.
    link : where settled dice readings go.
    calibration : this table's dice calibration (``vision.calibrate``), or None.
    clock : monotonic seconds, for the settler's timing.
    interval : seconds between reads.
    """

    def __init__(self, latest: Callable[[], np.ndarray | None], session: Session, *,
                 link: DiceLink, calibration: Any = None,
                 clock: Callable[[], float] = time.monotonic, interval: float = 0.1) -> None:
        self._latest, self.session, self.link = latest, session, link
        self.calibration = calibration
        self.interval = interval
        self.settler = DiceSettler(clock=clock)
        self._lock = threading.Lock()
        self._frame: np.ndarray | None = None
        self._reading: DiceReading | None = None
        self._game: str | None = None
        self.frames = 0  # frames read (not counting repeats of the same frame)
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def snapshot(self) -> tuple[np.ndarray | None, DiceReading | None]:
        """The last frame looked at and what was read in it (for the live preview)."""
        with self._lock:
            return self._frame, self._reading

    def confirm(self) -> dict[str, Any]:
        """Apply what the camera offers (host tap or confirm button); the new state.

        :raises NotNow: nothing offered, or the game moved on.
        """
        return self.link.confirm()

    def step(self) -> None:
        """Look at the newest frame once: read it, feed the settler, pass on a decision."""
        frame = self._latest()
        game = self.session.state().get("game")
        if game != self._game:
            self._game = game
            self.settler.reset()
        if frame is None:
            return
        with self._lock:
            previous, last_reading = self._frame, self._reading
        if game not in DICE_GAMES:
            with self._lock:
                self._frame, self._reading = frame, None
            return
        if frame is previous and last_reading is not None:
            reading, motion = last_reading, 0.0  # the camera has no newer frame: still
        else:
            reading = read_dice(frame, calibration=self.calibration)
            motion = motion_score(previous, frame)
            self.frames += 1
        with self._lock:
            self._frame, self._reading = frame, reading
        decision = self.settler.feed(reading, motion=motion)
        if decision is not None:
            self.link.on_reading(decision.reading if decision.settled else None)

    # -- the thread ------------------------------------------------------------------

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name="recognition", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 5.0) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout)

    def _run(self) -> None:
        while not self._stop.is_set():
            started = time.monotonic()
            try:
                self.step()
            except Exception:  # a bad frame must not end recognition for the evening
                log.exception("recognition step failed")
            self._stop.wait(max(0.0, self.interval - (time.monotonic() - started)))
