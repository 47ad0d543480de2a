"""Status LEDs and buzzer through gpiozero's MockFactory."""

from __future__ import annotations

import pytest

from hardware.outputs import (BEEPS, DEFAULT_BUZZER, DEFAULT_LEDS, LED_NAMES, BeepPattern,
                              NullOutputs, Outputs, open_outputs)
from hardware.buttons import DEFAULT_PINS, GPIOUnavailable


@pytest.fixture
def outputs(mock_factory):
    with Outputs(DEFAULT_LEDS, buzzer=DEFAULT_BUZZER, pin_factory=mock_factory) as out:
        yield out


def test_set_drives_only_the_named_led(outputs, mock_factory):
    outputs.set("bust", True)
    lit = {name: mock_factory.pin(pin).state for name, pin in DEFAULT_LEDS.items()}
    assert lit == {"ready": False, "reading": False, "bust": True, "timer": False}
    assert outputs.is_lit("bust") and not outputs.is_lit("ready")
    outputs.set("bust", False)
    assert not mock_factory.pin(DEFAULT_LEDS["bust"]).state


def test_all_off(outputs, mock_factory):
    for name in LED_NAMES:
        outputs.set(name, True)
    outputs.all_off()
    assert not any(mock_factory.pin(pin).state for pin in DEFAULT_LEDS.values())


def test_beep_plays_the_pattern_on_the_buzzer_pin(outputs, mock_factory):
    pin = mock_factory.pin(DEFAULT_BUZZER)
    pin.clear_states()
    outputs.play(BeepPattern(0.0, 0.0, 3), wait=True)  # zero-length beeps: no real waiting
    assert [s.state for s in pin.states] == [False, True, False, True, False, True, False]


def test_named_beeps_exist_and_unknown_ones_are_refused(outputs):
    assert {"countdown", "timer-end"} <= set(BEEPS)
    assert all(p.on_seconds > 0 and p.count >= 1 for p in BEEPS.values())
    with pytest.raises(ValueError, match="No beep named 'siren'"):
        outputs.beep("siren")


def test_unknown_led_name_is_a_clear_error(mock_factory):
    with pytest.raises(ValueError, match="No LED named 'blue'"):
        Outputs({"blue": 5}, pin_factory=mock_factory)


def test_unwired_leds_and_missing_buzzer_are_ignored(mock_factory):
    with Outputs({"ready": 5}, pin_factory=mock_factory) as out:
        out.set("timer", True)  # not wired: nothing happens
        out.beep("timer-end")  # no buzzer: nothing happens
        assert not out.has_buzzer and not out.is_lit("timer")
        with pytest.raises(ValueError):
            out.set("tiemr", True)


def test_blink_starts_in_the_background_and_set_stops_it(outputs, mock_factory):
    outputs.blink("timer", on_seconds=60, off_seconds=60)
    # gpiozero's blink thread turns the LED on first; set() stops the thread and holds a value.
    outputs.set("timer", False)
    assert not mock_factory.pin(DEFAULT_LEDS["timer"]).state


def test_close_releases_pins_and_is_idempotent(mock_factory):
    out = Outputs(DEFAULT_LEDS, buzzer=DEFAULT_BUZZER, pin_factory=mock_factory)
    out.set("ready", True)
    out.close()
    out.close()
    Outputs(DEFAULT_LEDS, pin_factory=mock_factory).close()  # the pins are free again


def test_a_pin_shared_with_a_button_is_a_clear_error(mock_factory):
    from hardware.buttons import Buttons

    with Buttons({"bank": 17}, pin_factory=mock_factory):
        with pytest.raises(GPIOUnavailable, match="GPIO pin 17"):
            Outputs({"ready": 17}, pin_factory=mock_factory)


def test_default_wiring_uses_distinct_pins():
    pins = [*DEFAULT_LEDS.values(), DEFAULT_BUZZER, *DEFAULT_PINS.values()]
    assert len(pins) == len(set(pins))


def test_without_gpio_open_outputs_gives_a_null_object_and_one_line(monkeypatch):
    from gpiozero import Device

    lines: list[str] = []
    monkeypatch.setattr(Device, "pin_factory", None)
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "no-such-factory")
    out = open_outputs(buzzer=DEFAULT_BUZZER, log=lines.append)
    assert isinstance(out, NullOutputs)
    assert len(lines) == 1 and "not used" in lines[0]
    out.set("ready", True)
    out.beep("countdown")
    assert not out.is_lit("ready") and not out.has_buzzer
    with pytest.raises(ValueError):
        out.set("nope", True)
    out.close()


def test_open_outputs_on_mock_pins_logs_the_pins_it_opened(mock_factory):
    lines: list[str] = []
    out = open_outputs(buzzer=DEFAULT_BUZZER, pin_factory=mock_factory, log=lines.append)
    assert type(out) is Outputs and out.has_buzzer
    out.close()
    assert lines == ["status LEDs and buzzer: ready LED on GPIO5, reading LED on GPIO6, "
                     "bust LED on GPIO13, timer LED on GPIO19, buzzer on GPIO26"]
