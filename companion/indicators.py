"""Status LEDs and the buzzer follow the game: a session listener plus a tick.

================  ===========================================================
LED ``ready``     lit while the companion runs (from :meth:`Indicators.start` to ``close``)
LED ``reading``   lit while the camera delivers pictures
LED ``bust``      lit for a few seconds after a red light (Toss Up!) or a bust (Sorry!)
LED ``timer``     lit while a game timer runs (paused or none: off)
================  ===========================================================

The buzzer pips on each countdown call ("One, two, three", then a longer "Toss!"), pips
the last seconds of any running timer, sounds ``timer-end`` when it runs out, and one long
beep on a red light or a bust. Calls and deadlines lie in the future, so they are
scheduled at each change and fired by :meth:`Indicators.tick`, which ``companion serve``
calls a few times a second; a change flushes what was due before rescheduling, so the
timeout that ends a timer never swallows its beep.

The outputs come from ``hardware.outputs.open_outputs`` (``NullOutputs`` off a Pi); the
clock is the session's (epoch seconds), as game deadlines are.
"""

from __future__ import annotations

import threading
import time
from typing import Any, Callable, Iterable

from hardware.outputs import BeepPattern, Outputs

BUST_EVENTS = frozenset({"red-light", "bust"})
TOSS_BEEP = BeepPattern(0.3, 0.0, 1)  # the last countdown call, "Toss!"


class Indicators:
    """Drives `outputs` from the session's changes and the camera's status.

    Parameters
    ----------
    outputs : hardware.outputs.Outputs (or NullOutputs)
    clock : epoch seconds, the session's clock (``time.time``)
    bust_seconds : how long the bust LED stays lit after a red light or a bust
    pips : how many one-second pips come before a running timer's end
    """

    def __init__(self, outputs: Outputs, *, clock: Callable[[], float] = time.time,
                 bust_seconds: float = 3.0, pips: int = 3) -> None:
        self.outputs = outputs
        self.clock = clock
        self.bust_seconds = bust_seconds
        self.pips = pips
        self._lock = threading.RLock()
        self._due: list[tuple[float, str | BeepPattern]] = []  # (epoch second, beep), sorted
        self._bust_until: float | None = None

    def start(self, state: dict[str, Any]) -> None:
        """Light ``ready`` and show the current state (no events, so no beeps)."""
        with self._lock:
            self.outputs.set("ready", True)
        self.on_change(state, [])

    def on_change(self, state: dict[str, Any], events: Iterable[Any]) -> None:
        """The session listener: ``session.add_listener(indicators.on_change)``."""
        kinds = {getattr(e, "kind", None) or (e.get("kind") if isinstance(e, dict) else None)
                 for e in events}
        with self._lock:
            now = self.clock()
            self._fire_due(now)
            running = state.get("game") is not None and not state.get("over")
            self.outputs.set("timer", running and _timer_running(state))
            camera = state.get("camera")
            if isinstance(camera, dict):
                self.outputs.set("reading", bool(camera.get("online")))
            if kinds & BUST_EVENTS:
                self._bust_until = now + self.bust_seconds
                self.outputs.set("bust", True)
                self.outputs.beep("bust")
            elif kinds and self._bust_until is not None:
                self._end_bust()
            self._due = _schedule(state, now, self.pips) if running else []

    def on_camera(self, status: dict[str, Any]) -> None:
        """The capture thread's status callback: light ``reading`` while it is online."""
        with self._lock:
            self.outputs.set("reading", bool(status.get("online")))

    def tick(self) -> None:
        """Fire the beeps that are due and put the bust LED out when its time is up."""
        with self._lock:
            now = self.clock()
            self._fire_due(now)
            if self._bust_until is not None and now >= self._bust_until:
                self._end_bust()

    def next_due(self) -> float | None:
        """Epoch second of the next scheduled beep, or None."""
        with self._lock:
            return self._due[0][0] if self._due else None

    def close(self) -> None:
        """Everything off (the companion is stopping)."""
        with self._lock:
            self._due = []
            self.outputs.all_off()

    def _fire_due(self, now: float) -> None:
        due = [beep for at, beep in self._due if at <= now]
        self._due = [(at, beep) for at, beep in self._due if at > now]
        if due:  # several due at once (a late tick): one beep says it
            beep = due[-1]
            if isinstance(beep, BeepPattern):
                self.outputs.play(beep)
            else:
                self.outputs.beep(beep)

    def _end_bust(self) -> None:
        self._bust_until = None
        self.outputs.set("bust", False)


def _timer_running(state: dict[str, Any]) -> bool:
    timer = state.get("timer")
    return isinstance(timer, dict) and bool(timer.get("running"))


def _schedule(state: dict[str, Any], now: float, pips: int
              ) -> list[tuple[float, str | BeepPattern]]:
    """The beeps to come for this state: countdown calls, or a running timer's last seconds."""
    beeps: list[tuple[float, str | BeepPattern]] = []
    calls = state.get("calls")
    if isinstance(calls, list) and calls:
        times = [float(c["at"]) for c in calls if isinstance(c, dict) and "at" in c]
        beeps += [(at, "countdown") for at in times[:-1]]
        beeps += [(at, TOSS_BEEP) for at in times[-1:]]
    elif _timer_running(state) and state["timer"].get("deadline") is not None:
        end = float(state["timer"]["deadline"])
        beeps += [(end - k, "countdown") for k in range(pips, 0, -1)]
        beeps.append((end, "timer-end"))
    return sorted((b for b in beeps if b[0] > now), key=lambda b: b[0])
