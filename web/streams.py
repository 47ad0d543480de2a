"""A cap on the live streams open at once, so they never take every server thread.

Every open ``/api/events`` stream holds one waitress worker thread for as long as it lasts
(web/server.py). Unbounded, 110 open streams took all 96 threads and the host's
``/api/state`` and undo timed out. Streams beyond ``limit`` are refused with 503 and
Retry-After (a browser's EventSource then tries again later); the host's own stream may
use a few more slots (``host_extra``) so the host page stays live when phones fill the cap.
The remaining threads always serve ordinary requests (state, actions, undo, pages).
"""

from __future__ import annotations

import threading
from typing import Iterator


class StreamSlots:
    """Counts the streams open now; ``take`` one before streaming, ``held`` gives it back."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.open = 0

    def take(self, limit: int) -> bool:
        """Take a slot if fewer than ``limit`` are open; False (nothing taken) otherwise."""
        with self._lock:
            if self.open >= limit:
                return False
            self.open += 1
            return True

    def held(self, stream: Iterator[str]) -> Iterator[str]:
        """``stream``, giving its slot back once when it ends or is closed (the client went;
        the server closes a response even if it never started, which a generator's
        ``finally`` would miss)."""
        return _Held(self, stream)

    def _give_back(self) -> None:
        with self._lock:
            self.open -= 1


class _Held:
    """An iterator over a stream that gives its slot back exactly once."""

    def __init__(self, slots: StreamSlots, stream: Iterator[str]) -> None:
        self._slots = slots
        self._stream = stream
        self._done = False

    def __iter__(self) -> _Held:
        return self

    def __next__(self) -> str:
        try:
            return next(self._stream)
        except BaseException:
            self.close()
            raise

    def close(self) -> None:
        if self._done:
            return
        self._done = True
        try:
            getattr(self._stream, "close", lambda: None)()
        finally:
            self._slots._give_back()
