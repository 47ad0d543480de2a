"""Server-Sent Events: the state stream every phone holds open.

Wire format (one message per change, ``id`` is the state's version)::

    event: state
    id: 42
    data: {"game": "toss-up", "version": 42, ..., "now": 1790000000.123}

and, when only the live extras change (camera status, what the camera saw; they are not
journaled and do not change the version)::

    event: live
    id: 42
    data: {"version": 42, "camera": {...}, "dice": {...}, "now": ...}

``now`` is the server's wall clock when the message was sent, so phones can correct for
their own clock when they count down to a timer's deadline.

plus ``: keep-alive`` comment lines every ``keepalive`` seconds on a quiet stream. A
stream starts with a ``: hello`` comment so a production server sends the headers at once.
"""

from __future__ import annotations

import json
import threading
import time
from typing import Any, Callable, Iterator

from companion.session import Session

#: Tell a browser to retry after 1.5 s when the stream drops (Wi-Fi hiccup, server restart).
RETRY_MS = 1500


def format_event(state: dict[str, Any], kind: str = "state") -> str:
    """One SSE message carrying ``state``; the JSON holds no raw newlines."""
    data = json.dumps({**state, "now": round(time.time(), 3)}, separators=(",", ":"),
                      ensure_ascii=False)
    return f"event: {kind}\nid: {state['version']}\ndata: {data}\n\n"


def parse_last_event_id(value: str | None) -> int | None:
    """The version a reconnecting browser last saw, or None if absent or not a number."""
    if value is None:
        return None
    value = value.strip()
    if not value.isdigit() or len(value) > 18:
        return None
    return int(value)


def state_stream(session: Session, *, last_seen: int | None, keepalive: float,
                 max_seconds: float | None, stop: threading.Event, poll: float = 0.5,
                 clock: Callable[[], float] = time.monotonic) -> Iterator[str]:
    """Yield SSE text: the state at once (unless ``last_seen`` is its version), then changes.

    Ends when ``max_seconds`` have passed (tests) or ``stop`` is set (app shutdown); the
    client disconnecting ends it at the next write. ``poll`` bounds how long a stream
    waits before looking at ``stop`` again; changes are sent as soon as they happen.
    """
    start = clock()
    deadline = None if max_seconds is None else start + max_seconds
    yield f"retry: {RETRY_MS}\n: hello\n\n"
    extras_seq, _ = session.extras()
    state = session.state()
    shown = state["version"]
    if last_seen != shown:
        yield format_event(state)
    last_write = clock()
    while not stop.is_set():
        now = clock()
        if deadline is not None and now >= deadline:
            return
        wait = min(poll, keepalive - (now - last_write))
        if deadline is not None:
            wait = min(wait, deadline - now)
        new, seq = session.wait_any(shown, extras_seq, max(wait, 0.0))
        if new["version"] > shown:
            extras_seq = seq
            for missed in session.states_after(shown):  # each change, in order
                shown = missed["version"]
                yield format_event(missed)
            last_write = clock()
        elif seq > extras_seq:
            extras_seq, extras = session.extras()
            yield format_event({"version": shown, **extras}, "live")
            last_write = clock()
        elif clock() - last_write >= keepalive:
            yield ": keep-alive\n\n"
            last_write = clock()
