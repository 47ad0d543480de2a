"""Buttons through gpiozero's MockFactory: press, hold and bounce, timed by a fake clock."""

from __future__ import annotations

import time

import pytest

from hardware.buttons import DEFAULT_PINS, ButtonEvent, Buttons, GPIOUnavailable, open_buttons


@pytest.fixture
def buttons(mock_factory, clock):
    with Buttons({"bank": 17, "undo": 27}, pin_factory=mock_factory, clock=clock,
                 hold_seconds=1.0, bounce_seconds=0.05) as b:
        yield b


def tap(pin, clock, seconds: float) -> None:
    """Press the button wired to `pin` for `seconds` of fake time."""
    pin.drive_low()
    clock.advance(seconds)
    pin.drive_high()


def test_short_press_queues_one_press_at_release(buttons, mock_factory, clock):
    pin = mock_factory.pin(17)
    pin.drive_low()
    assert buttons.is_pressed("bank")
    assert buttons.get(timeout=0) is None  # nothing until we know it is not a hold
    clock.advance(0.25)
    pin.drive_high()
    assert buttons.get(timeout=0) == ButtonEvent("bank", "press", clock.now)
    assert buttons.get(timeout=0) is None


def test_each_button_reports_its_own_name(buttons, mock_factory, clock):
    tap(mock_factory.pin(27), clock, 0.125)
    tap(mock_factory.pin(17), clock, 0.125)
    assert [buttons.get(timeout=0).name for _ in range(2)] == ["undo", "bank"]


def test_hold_is_reported_while_still_down_and_only_once(buttons, mock_factory, clock):
    pin = mock_factory.pin(27)
    pin.drive_low()
    clock.advance(0.875)
    assert buttons.get(timeout=0) is None
    clock.advance(0.125)
    assert buttons.get(timeout=0) == ButtonEvent("undo", "hold", clock.now)
    clock.advance(2.0)
    pin.drive_high()
    assert buttons.get(timeout=0) is None


def test_hold_released_before_anyone_asked_is_still_a_hold(buttons, mock_factory, clock):
    tap(mock_factory.pin(17), clock, 1.5)
    event = buttons.get(timeout=0)
    assert (event.name, event.kind) == ("bank", "hold")
    assert buttons.get(timeout=0) is None


def test_contact_bounce_is_ignored(buttons, mock_factory, clock):
    pin = mock_factory.pin(17)
    # Chatter as the contacts close: two blips shorter than bounce_seconds, then the press.
    tap(pin, clock, 0.01)
    clock.advance(0.005)
    tap(pin, clock, 0.01)
    clock.advance(0.005)
    tap(pin, clock, 0.25)
    # Chatter as the contacts open.
    clock.advance(0.005)
    tap(pin, clock, 0.005)
    assert buttons.get(timeout=0).kind == "press"
    assert buttons.get(timeout=0) is None


def test_a_press_just_over_the_bounce_time_counts(buttons, mock_factory, clock):
    tap(mock_factory.pin(17), clock, 0.0625)
    assert buttons.get(timeout=0).kind == "press"


def test_get_waits_for_an_event_from_another_thread(buttons, mock_factory, clock):
    import threading

    pin = mock_factory.pin(17)
    worker = threading.Thread(target=tap, args=(pin, clock, 0.25))
    worker.start()
    event = buttons.get(timeout=5)  # returns as soon as the press is queued
    worker.join()
    assert event is not None and event.kind == "press"


def test_a_press_wakes_a_blocked_get_to_time_the_hold(mock_factory, clock):
    import threading

    with Buttons({"undo": 27}, pin_factory=mock_factory, clock=clock, hold_seconds=0.0) as b:
        worker = threading.Timer(0.01, mock_factory.pin(27).drive_low)
        worker.start()
        started = time.monotonic()
        event = b.get(timeout=10)  # blocked with nothing to time when the press comes
        waited = time.monotonic() - started
        worker.join()
    assert event is not None and (event.name, event.kind) == ("undo", "hold")
    assert waited < 5, "the press did not wake get(); the hold only came at its timeout"


def test_close_releases_the_pins_and_is_idempotent(mock_factory, clock):
    b = Buttons({"bank": 17}, pin_factory=mock_factory, clock=clock)
    b.close()
    b.close()
    again = Buttons({"next": 17}, pin_factory=mock_factory, clock=clock)  # pin 17 free again
    again.close()


def test_a_pin_used_twice_is_a_clear_error(mock_factory):
    with pytest.raises(GPIOUnavailable, match="GPIO pin 17"):
        Buttons({"bank": 17, "undo": 17}, pin_factory=mock_factory)
    # The first button was released when the second failed.
    Buttons({"bank": 17}, pin_factory=mock_factory).close()


def test_an_invalid_pin_is_a_clear_error(mock_factory):
    with pytest.raises(GPIOUnavailable, match="GPIO pin 99"):
        Buttons({"bank": 99}, pin_factory=mock_factory)


def test_default_wiring_has_four_distinct_pins():
    assert set(DEFAULT_PINS) == {"bank", "undo", "next", "timer"}  # companion/controls.py
    assert len(set(DEFAULT_PINS.values())) == 4


def test_open_buttons_on_mock_pins_logs_the_pins_it_opened(mock_factory, clock):
    # the log line is the first check of the wiring against docs/hardware.md
    lines: list[str] = []
    b = open_buttons(pin_factory=mock_factory, clock=clock, log=lines.append)
    assert b is not None and b.names == ("bank", "undo", "next", "timer")
    b.close()
    assert lines == ["buttons: bank on GPIO17, undo on GPIO27, next on GPIO22, timer on GPIO23"]


def test_open_buttons_without_gpio_logs_one_line_and_returns_none(monkeypatch):
    from gpiozero import Device

    lines: list[str] = []
    monkeypatch.setattr(Device, "pin_factory", None)
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "no-such-factory")
    assert open_buttons({"bank": 17}, log=lines.append) is None
    assert len(lines) == 1 and lines[0].startswith("buttons: not used (")
