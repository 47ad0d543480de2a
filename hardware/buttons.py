"""GPIO push buttons as a queue of events: a short ``press`` or a ``hold``.

Wire each button between its GPIO pin and ground. Each is a gpiozero ``DigitalInputDevice``
with the pull-up on: gpiozero's ``Button`` minus its hold machinery, which starts a thread
per button waking every 0.1 s to time holds in real time (unused here, and closing a
``Button`` waits for it).

gpiozero callbacks run on gpiozero's own thread on a Pi and on the caller's thread under
``MockFactory``; ours only timestamp the edge with the injected clock and queue a
:class:`ButtonEvent`. Short press, hold and debounce come from those timestamps, not from
gpiozero's ``hold_time`` (real time) or ``bounce_time`` (which ``MockFactory`` ignores):

* a press that ends before `bounce_seconds` is contact chatter and is dropped;
* a release before `hold_seconds` queues ``press`` (at release time);
* a button held `hold_seconds` queues ``hold`` once: as soon as :meth:`Buttons.get` notices it
  is still down, or at the release at the latest.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
import warnings
from dataclasses import dataclass
from functools import partial
from typing import Any, Callable, Literal, Mapping, Self

_LOG = logging.getLogger("hardware.buttons")

# Default wiring, BCM numbers (docs/hardware.md has the table with header pins).
DEFAULT_PINS: dict[str, int] = {"bank": 17, "undo": 27, "next": 22, "timer": 23}


class GPIOUnavailable(Exception):
    """No GPIO on this machine (or the pins cannot be claimed); the message says which."""


@dataclass(frozen=True)
class ButtonEvent:
    """One button gesture: `kind` is ``"press"`` or ``"hold"``; `at` is the clock's time."""

    name: str
    kind: Literal["press", "hold"]
    at: float


_WAKE = object()


class _State:
    """Per-button bookkeeping, guarded by Buttons._lock."""

    __slots__ = ("pressed_at", "held")

    def __init__(self) -> None:
        self.pressed_at: float | None = None
        self.held = False


class Buttons:
    """Named GPIO buttons whose presses and holds arrive as :class:`ButtonEvent` in a queue.

    Parameters
    ----------
    mapping : dict of str to int
        Button name to BCM pin number, e.g. ``{"bank": 17, "undo": 27}``.
    pin_factory : gpiozero Factory, optional
        ``MockFactory()`` in tests; None uses gpiozero's default (lgpio on a Pi 5).
    clock : callable
        Monotonic seconds (``time.monotonic``); tests pass a fake clock.
    hold_seconds : float
        How long a button must stay down to count as a hold.
    bounce_seconds : float
        Presses shorter than this are contact bounce and ignored.

    :raises GPIOUnavailable: no GPIO here, or a pin is invalid or already in use.
    """

    def __init__(
        self,
        mapping: Mapping[str, int],
        *,
        pin_factory: Any = None,
        clock: Callable[[], float] = time.monotonic,
        hold_seconds: float = 1.0,
        bounce_seconds: float = 0.05,
    ) -> None:
        self.hold_seconds, self.bounce_seconds = hold_seconds, bounce_seconds
        self._clock = clock
        # Events, plus _WAKE after each press so a blocked get() starts timing the hold.
        self._queue: queue.Queue[ButtonEvent | object] = queue.Queue()
        self._lock = threading.Lock()
        self._states = {name: _State() for name in mapping}
        self._devices: dict[str, Any] = {}
        try:
            for name, pin in mapping.items():
                self._devices[name] = make_device("DigitalInputDevice", pin, pin_factory,
                                                  pull_up=True)
        except GPIOUnavailable:
            self.close()
            raise
        for name, device in self._devices.items():
            device.when_activated = partial(self._pressed, name)
            device.when_deactivated = partial(self._released, name)

    @property
    def names(self) -> tuple[str, ...]:
        """The button names, in mapping order."""
        return tuple(self._states)

    def _pressed(self, name: str) -> None:
        with self._lock:
            state = self._states[name]
            state.pressed_at, state.held = self._clock(), False
        self._queue.put(_WAKE)

    def _released(self, name: str) -> None:
        now = self._clock()
        with self._lock:
            state = self._states[name]
            start, held = state.pressed_at, state.held
            state.pressed_at, state.held = None, False
        if start is None or held:
            return
        duration = now - start
        if duration < self.bounce_seconds:
            return
        self._queue.put(ButtonEvent(name, "hold" if duration >= self.hold_seconds else "press",
                                    now))

    def _due_holds(self) -> float | None:
        """Queue holds for buttons down long enough; return seconds until the next could be."""
        now = self._clock()
        soonest: float | None = None
        with self._lock:
            for name, state in self._states.items():
                if state.pressed_at is None or state.held:
                    continue
                left = state.pressed_at + self.hold_seconds - now
                if left <= 0:
                    state.held = True
                    self._queue.put(ButtonEvent(name, "hold", now))
                elif soonest is None or left < soonest:
                    soonest = left
        return soonest

    def get(self, timeout: float | None = None) -> ButtonEvent | None:
        """Return the next event, waiting up to `timeout` seconds (None: forever), or None."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            soonest_hold = self._due_holds()
            try:
                item = self._queue.get_nowait()
            except queue.Empty:
                pass
            else:
                if isinstance(item, ButtonEvent):
                    return item
                continue
            waits = [w for w in (soonest_hold,) if w is not None]
            if deadline is not None:
                left = deadline - time.monotonic()
                if left <= 0:
                    return None
                waits.append(left)
            try:
                item = self._queue.get(timeout=min(waits) if waits else None)
            except queue.Empty:
                continue
            if isinstance(item, ButtonEvent):
                return item

    def is_pressed(self, name: str) -> bool:
        """Tell whether button `name` is down right now."""
        return bool(self._devices[name].is_active)

    def close(self) -> None:
        """Release the pins (idempotent)."""
        devices, self._devices = self._devices, {}
        for device in devices.values():
            device.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


def make_device(kind: str, pin: int, pin_factory: Any, **kwargs: Any) -> Any:
    """Build gpiozero's `kind` device on `pin`, turning gpiozero's failures into GPIOUnavailable."""
    import gpiozero  # type: ignore[import-untyped]
    from gpiozero.exc import GPIOZeroError, PinFactoryFallback  # type: ignore[import-untyped]

    try:
        with warnings.catch_warnings():
            # Off a Pi gpiozero warns for each pin library it cannot load, then gives up.
            warnings.simplefilter("ignore", PinFactoryFallback)
            return getattr(gpiozero, kind)(pin, pin_factory=pin_factory, **kwargs)
    except gpiozero.BadPinFactory:
        raise GPIOUnavailable("no GPIO on this machine (no usable gpiozero pin factory)") from None
    except (GPIOZeroError, ValueError, TypeError) as exc:
        raise GPIOUnavailable(f"GPIO pin {pin}: {exc}") from None


def open_buttons(
    mapping: Mapping[str, int] | None = None,
    *,
    log: Callable[[str], None] = _LOG.info,
    **kwargs: Any,
) -> Buttons | None:
    """Return :class:`Buttons` on `mapping` (default: ``DEFAULT_PINS``), or None without GPIO.

    `log` gets one line either way: the pins opened (checked against the wiring, it is the
    first test of it), or without GPIO (any machine but a Pi) why none were.
    """
    pins = DEFAULT_PINS if mapping is None else mapping
    try:
        buttons = Buttons(pins, **kwargs)
    except GPIOUnavailable as exc:
        log(f"buttons: not used ({exc})")
        return None
    log("buttons: " + ", ".join(f"{name} on GPIO{pin}" for name, pin in pins.items()))
    return buttons
