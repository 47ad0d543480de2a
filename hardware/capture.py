"""The capture loop: a thread that keeps reading the camera and survives it failing.

All the work is in :meth:`CaptureThread.step`, one iteration with no sleeping; the thread
only loops over it and waits (interruptibly) for the delay each step asks for. Tests call
``step()`` themselves with a fake clock.

Example::

    with CaptureThread(lambda: open_camera("auto"), on_frame=recognize) as capture:
        ...                      # capture.online, capture.status, capture.latest()
"""

from __future__ import annotations

import logging
import threading
import time
from types import TracebackType
from typing import Callable, Self

import numpy as np

from hardware.camera import Camera

_LOG = logging.getLogger("hardware.capture")

IDLE_SECONDS = 0.05  # pause after a read that gave no frame


class CaptureThread:
    """Read frames from a camera in a thread, reopening it when it fails.

    Parameters
    ----------
    open_fn : callable
        Returns an open :class:`Camera`; may raise (missing or unplugged device).
    on_frame : callable, optional
        Called with each new frame, (H, W, 3) uint8 BGR, on the capture thread. An exception
        it raises is logged and the loop goes on.
    clock : callable
        Monotonic seconds (``time.monotonic``).
    retry_seconds : float
        Wait between attempts to open a camera that failed.
    stall_seconds : float
        A camera that gives no frame for this long is closed and reopened.
    on_status : callable, optional
        Called with ``{"online": bool, "status": str}`` (JSON-ready) each time the status
        changes, on the capture thread.
    log : callable
        Receives one line each time the camera's status changes.
    """

    def __init__(
        self,
        open_fn: Callable[[], Camera],
        *,
        on_frame: Callable[[np.ndarray], None] | None = None,
        clock: Callable[[], float] = time.monotonic,
        retry_seconds: float = 2.0,
        stall_seconds: float = 5.0,
        on_status: Callable[[dict[str, object]], None] | None = None,
        log: Callable[[str], None] = _LOG.info,
    ) -> None:
        self._open_fn, self._on_frame, self._clock, self._log = open_fn, on_frame, clock, log
        self.retry_seconds = retry_seconds
        self.stall_seconds = stall_seconds
        self._on_status = on_status
        self._camera: Camera | None = None
        self._next_open = float("-inf")
        self._last_frame_at = 0.0
        self._lock = threading.Lock()
        self._latest: np.ndarray | None = None
        self._online = False
        self._status = "camera starting"
        self.frames = 0  # frames read since start
        self._stopping = threading.Event()
        self._thread: threading.Thread | None = None

    # --- what other threads read -------------------------------------------------------

    @property
    def online(self) -> bool:
        """True while the camera delivers frames."""
        return self._online

    @property
    def status(self) -> str:
        """One line for people: "camera online (opencv:0)", "camera offline: ...", ..."""
        return self._status

    def latest(self) -> np.ndarray | None:
        """The newest frame (H, W, 3) uint8 BGR, or None before the first; do not modify it."""
        with self._lock:
            return self._latest

    # --- one iteration ---------------------------------------------------------------

    def step(self) -> float:
        """Open the camera if needed and read one frame; return seconds to wait until the next."""
        now = self._clock()
        if self._camera is None:
            if now < self._next_open:
                return self._next_open - now
            try:
                self._camera = self._open_fn()
            except Exception as exc:
                return self._go_offline(_one_line(exc), now)
            self._last_frame_at = now
            self._set_status(False, f"camera starting ({self._camera.name})")
        try:
            frame = self._camera.read()
        except Exception as exc:
            return self._go_offline(_one_line(exc), now)
        if frame is None:
            if now - self._last_frame_at >= self.stall_seconds:
                return self._go_offline(
                    f"no frames from {self._camera.name} for {self.stall_seconds:g} s", now)
            return IDLE_SECONDS
        self._last_frame_at = now
        # Online is told before the frame is handed out: whoever sees the frame (the
        # recognizer, the preview) also finds the camera online in the session.
        self._set_status(True, f"camera online ({self._camera.name})")
        with self._lock:
            self._latest = frame
        self.frames += 1
        if self._on_frame is not None:
            try:
                self._on_frame(frame)
            except Exception as exc:  # recognition trouble must not stop the camera
                self._log(f"capture: frame handler failed: {_one_line(exc)}")
        return 0.0

    def _go_offline(self, reason: str, now: float) -> float:
        """Close the camera, report it offline and schedule the next attempt."""
        self._close_camera()
        self._next_open = now + self.retry_seconds
        self._set_status(False, f"camera offline: {reason}; retrying every "
                                f"{self.retry_seconds:g} s")
        return self.retry_seconds

    def _set_status(self, online: bool, status: str) -> None:
        if status == self._status and online == self._online:
            return
        self._log(status)
        self._online, self._status = online, status
        if self._on_status is not None:
            try:
                self._on_status({"online": online, "status": status})
            except Exception as exc:
                self._log(f"capture: status handler failed: {_one_line(exc)}")

    def _close_camera(self) -> None:
        camera, self._camera = self._camera, None
        if camera is not None:
            try:
                camera.close()
            except Exception as exc:
                self._log(f"capture: closing {camera.name} failed: {_one_line(exc)}")

    # --- the thread ------------------------------------------------------------------

    def start(self) -> None:
        """Start the capture thread (once)."""
        if self._thread is not None:
            raise RuntimeError("the capture thread is already started")
        self._thread = threading.Thread(target=self._run, name="companion-capture")
        self._thread.start()

    def _run(self) -> None:
        try:
            while not self._stopping.is_set():
                delay = self.step()
                if delay > 0:
                    self._stopping.wait(delay)
        finally:
            self._close_camera()

    def stop(self, timeout: float = 5.0) -> bool:
        """Stop the loop, close the camera and join the thread; False if it did not end in time."""
        self._stopping.set()
        if self._thread is None:
            self._close_camera()
            return True
        self._thread.join(timeout)
        return not self._thread.is_alive()

    def __enter__(self) -> Self:
        self.start()
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.stop()


def _one_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return text[0] if text else type(exc).__name__
