"""Status LEDs and an optional buzzer on GPIO, through gpiozero ``LED`` and ``Buzzer``.

LEDs (default wiring in docs/hardware.md, BCM numbers):

=========  ====  ==========================================
``ready``  5     the companion is up and a game can be played
``reading`` 6    the camera is reading the table
``bust``   13    red light / bust: the turn ended badly
``timer``  19    a timer is running
=========  ====  ==========================================

Everything here is optional: :func:`open_outputs` returns :class:`NullOutputs` (same methods,
doing nothing) with one log line when the machine has no GPIO.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any, Callable, Mapping, Self

from hardware.buttons import GPIOUnavailable, make_device

_LOG = logging.getLogger("hardware.outputs")

LED_NAMES = ("ready", "reading", "bust", "timer")
DEFAULT_LEDS: dict[str, int] = {"ready": 5, "reading": 6, "bust": 13, "timer": 19}
DEFAULT_BUZZER = 26


@dataclass(frozen=True)
class BeepPattern:
    """`count` beeps of `on_seconds` each, separated by `off_seconds` of silence."""

    on_seconds: float
    off_seconds: float
    count: int


BEEPS: dict[str, BeepPattern] = {
    "countdown": BeepPattern(0.08, 0.0, 1),  # one short pip per second of a countdown
    "timer-end": BeepPattern(0.4, 0.2, 3),  # three long beeps when a timer runs out
    "bust": BeepPattern(0.6, 0.0, 1),  # one low-key long beep on a red light
}


def _check_led(name: str) -> None:
    if name not in LED_NAMES:
        raise ValueError(f"No LED named {name!r}; the LEDs are {', '.join(LED_NAMES)}.")


def _check_beep(kind: str) -> BeepPattern:
    try:
        return BEEPS[kind]
    except KeyError:
        raise ValueError(f"No beep named {kind!r}; the beeps are {', '.join(BEEPS)}.") from None


class Outputs:
    """Status LEDs and an optional buzzer.

    Parameters
    ----------
    leds : dict of str to int
        LED name (one of ``LED_NAMES``) to BCM pin; LEDs left out are simply not wired.
    buzzer : int, optional
        BCM pin of an active buzzer, or None for no buzzer.
    pin_factory : gpiozero Factory, optional
        ``MockFactory()`` in tests; None uses gpiozero's default (lgpio on a Pi 5).

    :raises GPIOUnavailable: no GPIO here, or a pin is invalid or already in use.
    :raises ValueError: an LED name that is not one of ``LED_NAMES``.
    """

    def __init__(
        self,
        leds: Mapping[str, int] = DEFAULT_LEDS,
        *,
        buzzer: int | None = None,
        pin_factory: Any = None,
    ) -> None:
        for name in leds:
            _check_led(name)
        self._leds: dict[str, Any] = {}
        self._buzzer: Any = None
        try:
            for name, pin in leds.items():
                self._leds[name] = make_device("LED", pin, pin_factory)
            if buzzer is not None:
                self._buzzer = make_device("Buzzer", buzzer, pin_factory)
        except GPIOUnavailable:
            self.close()
            raise

    @property
    def has_buzzer(self) -> bool:
        """True when a buzzer is wired."""
        return self._buzzer is not None

    def set(self, name: str, on: bool) -> None:
        """Turn LED `name` on or off (stops its blinking); an LED not wired is ignored.

        :raises ValueError: `name` is not one of ``LED_NAMES``.
        """
        _check_led(name)
        led = self._leds.get(name)
        if led is not None:
            led.value = bool(on)

    def blink(self, name: str, on_seconds: float = 0.5, off_seconds: float = 0.5) -> None:
        """Blink LED `name` in the background until the next ``set``.

        :raises ValueError: `name` is not one of ``LED_NAMES``.
        """
        _check_led(name)
        led = self._leds.get(name)
        if led is not None:
            led.blink(on_time=on_seconds, off_time=off_seconds, background=True)

    def is_lit(self, name: str) -> bool:
        """Tell whether LED `name` is on now (False for an LED not wired)."""
        _check_led(name)
        led = self._leds.get(name)
        return bool(led is not None and led.is_lit)

    def beep(self, kind: str, *, wait: bool = False) -> None:
        """Sound beep pattern `kind` (a key of ``BEEPS``); nothing without a buzzer.

        With ``wait=False`` (default) it plays in gpiozero's background thread.

        :raises ValueError: `kind` is not a key of ``BEEPS``.
        """
        self.play(_check_beep(kind), wait=wait)

    def play(self, pattern: BeepPattern, *, wait: bool = False) -> None:
        """Sound a :class:`BeepPattern`; nothing without a buzzer."""
        if self._buzzer is not None:
            self._buzzer.beep(on_time=pattern.on_seconds, off_time=pattern.off_seconds,
                              n=pattern.count, background=not wait)

    def all_off(self) -> None:
        """Turn every LED and the buzzer off."""
        for led in self._leds.values():
            led.off()
        if self._buzzer is not None:
            self._buzzer.off()

    def close(self) -> None:
        """Turn everything off and release the pins (idempotent)."""
        devices = [*self._leds.values(), *([self._buzzer] if self._buzzer else [])]
        self._leds, self._buzzer = {}, None
        for device in devices:
            device.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


class NullOutputs(Outputs):
    """Outputs with nothing wired: every method checks its arguments and does nothing."""

    def __init__(self) -> None:
        self._leds, self._buzzer = {}, None


def open_outputs(
    leds: Mapping[str, int] | None = None,
    *,
    buzzer: int | None = None,
    log: Callable[[str], None] = _LOG.info,
    **kwargs: Any,
) -> Outputs:
    """Return :class:`Outputs` (default: ``DEFAULT_LEDS``), or :class:`NullOutputs` without GPIO.

    `log` gets one line either way: the pins opened (checked against the wiring, it is the
    first test of it), or without GPIO (any machine but a Pi) why none were.
    """
    pins = DEFAULT_LEDS if leds is None else leds
    try:
        outputs = Outputs(pins, buzzer=buzzer, **kwargs)
    except GPIOUnavailable as exc:
        log(f"status LEDs and buzzer: not used ({exc})")
        return NullOutputs()
    wired = [f"{name} LED on GPIO{pin}" for name, pin in pins.items()]
    log("status LEDs and buzzer: " + ", ".join(
        wired + [f"buzzer on GPIO{buzzer}" if buzzer is not None else "no buzzer"]))
    return outputs
