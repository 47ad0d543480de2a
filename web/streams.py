"""A cap on the live streams open at once, so they never take every server thread.

Every open stream (``/api/events``, the camera preview ``/api/camera/preview.mjpeg``)
holds one waitress worker thread for as long as it lasts (web/server.py). Unbounded, 110
open streams took all 96 threads and the host's ``/api/state`` and undo timed out. Both
kinds count against one cap (they take the same threads): streams beyond
``SSE_MAX_STREAMS`` are refused with 503 and Retry-After (a browser's EventSource, or the
host page's preview, then tries again later); the host's own streams may use
``SSE_HOST_STREAMS`` more slots so the host page stays live when phones fill the cap.
The remaining threads always serve ordinary requests (state, actions, undo, pages).
"""

from __future__ import annotations

import threading
from typing import Any, Callable, Iterator, Mapping

from flask import Response, jsonify

#: The refusal past the cap: a sentence, and when to try again (seconds).
BUSY = "Too many screens are watching the table right now; this one tries again shortly."
RETRY_AFTER = "5"


def open_capped(slots: StreamSlots, config: Mapping[str, Any], *, host: bool,
                stream: Callable[[], Iterator[Any]], **response: Any) -> Any:
    """A streaming Response of ``stream()`` holding one of ``slots``, or 503 + Retry-After.

    The cap is ``SSE_MAX_STREAMS`` from ``config``, plus ``SSE_HOST_STREAMS`` for the host.
    ``stream`` is called only once a slot is taken; ``response`` goes to ``Response``
    (mimetype, headers).
    """
    limit = int(config["SSE_MAX_STREAMS"]) + (int(config["SSE_HOST_STREAMS"]) if host else 0)
    if not slots.take(limit):
        return jsonify(error=BUSY), 503, {"Retry-After": RETRY_AFTER,
                                          "Cache-Control": "no-store"}
    try:
        held = slots.held(stream())
    except BaseException:
        slots._give_back()
        raise
    return Response(held, **response)


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

    def held(self, stream: Iterator[Any]) -> Iterator[Any]:
        """``stream``, giving its slot back once when it ends or is closed (the client went;
        the server closes a response even if it never started, which a generator's
        ``finally`` would miss)."""
        return _Held(self, stream)

    def _give_back(self) -> None:
        with self._lock:
            self.open -= 1


class _Held:
    """An iterator over a stream that gives its slot back exactly once."""

    def __init__(self, slots: StreamSlots, stream: Iterator[Any]) -> None:
        self._slots = slots
        self._stream = stream
        self._done = False

    def __iter__(self) -> _Held:
        return self

    def __next__(self) -> Any:
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
