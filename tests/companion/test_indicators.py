"""LEDs and buzzer following the game: real Outputs on gpiozero's MockFactory pins."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from companion.indicators import TOSS_BEEP, Indicators
from companion.journal import Journal
from companion.session import Session
from hardware.outputs import BEEPS, DEFAULT_BUZZER, DEFAULT_LEDS, NullOutputs, Outputs
from tests.support.clock import FakeClock


class RecordingOutputs(Outputs):
    """Real gpiozero LEDs and buzzer that also note each beep pattern played."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(DEFAULT_LEDS, buzzer=DEFAULT_BUZZER, **kwargs)
        self.played: list[Any] = []

    def play(self, pattern: Any, *, wait: bool = False) -> None:
        self.played.append(pattern)
        super().play(pattern, wait=wait)


@pytest.fixture
def table(tmp_path: Path, clock: FakeClock, mock_factory: Any) -> Any:
    outputs = RecordingOutputs(pin_factory=mock_factory)
    session = Session(Journal(tmp_path), clock=clock)
    indicators = Indicators(outputs, clock=clock, bust_seconds=3.0)
    session.add_listener(indicators.on_change)
    indicators.start(session.state())
    yield session, indicators, outputs, clock, mock_factory
    outputs.close()
    session.journal.close()


def lit(factory: Any, name: str) -> bool:
    """The LED's GPIO pin level, read from the mock pin itself."""
    return bool(factory.pin(DEFAULT_LEDS[name]).state)


def test_ready_is_lit_from_start_to_close_and_nothing_beeps(table: Any) -> None:
    session, indicators, outputs, _, factory = table
    assert lit(factory, "ready") and not lit(factory, "bust") and not lit(factory, "timer")
    session.start("toss-up", ["Ann", "Ben"])
    assert lit(factory, "ready") and not lit(factory, "bust") and not lit(factory, "timer")
    assert outputs.played == []
    indicators.close()
    assert not lit(factory, "ready")


def test_a_red_light_lights_bust_and_beeps_until_its_time_is_up(table: Any) -> None:
    session, indicators, outputs, clock, factory = table
    session.start("toss-up", ["Ann", "Ben"])
    session.act({"type": "roll", "green": 0, "yellow": 7, "red": 3})
    assert lit(factory, "bust") and outputs.played == [BEEPS["bust"]]
    clock.advance(2.9)
    indicators.tick()
    assert lit(factory, "bust")
    clock.advance(0.2)
    indicators.tick()
    assert not lit(factory, "bust") and lit(factory, "ready")


def test_the_next_action_puts_bust_out_early(table: Any) -> None:
    session, _, _, _, factory = table
    session.start("toss-up", ["Ann", "Ben"])
    session.act({"type": "roll", "green": 0, "yellow": 7, "red": 3})
    session.act({"type": "roll", "green": 5, "yellow": 5, "red": 0})
    assert not lit(factory, "bust")


def test_the_countdown_pips_each_call_and_toss_is_longer(table: Any) -> None:
    session, indicators, outputs, clock, factory = table
    session.start("toss-your-cookies", ["Ann", "Ben", "Cleo"],
                  {"countdown_seconds": 5, "scramble_seconds": 10})
    session.act({"type": "toss"})
    assert lit(factory, "timer")
    heard = []
    for _ in range(24):  # 6 seconds in quarters, as the serve loop ticks
        clock.advance(0.25)
        indicators.tick()
        heard.append(len(outputs.played))
    assert outputs.played == [BEEPS["countdown"]] * 3 + [TOSS_BEEP]
    # the calls come one second apart, the first 2 s after the roll ("One" at 5 - 3)
    assert [heard.index(n) for n in (1, 2, 3, 4)] == [7, 11, 15, 19]


def test_a_timer_end_beeps_even_when_the_timeout_comes_first(table: Any) -> None:
    session, indicators, outputs, clock, factory = table
    session.start("toss-your-cookies", ["Ann", "Ben", "Cleo"],
                  {"countdown_seconds": 5, "scramble_seconds": 10})
    session.act({"type": "toss"})
    clock.advance(5.0)
    assert session.tick() is not None  # "Toss!": the scramble timer starts
    assert outputs.played[-1] == TOSS_BEEP  # flushed by the change, not lost
    assert lit(factory, "timer")
    outputs.played.clear()
    clock.advance(7.0)
    indicators.tick()
    assert outputs.played == [BEEPS["countdown"]]  # 3 s left: one pip (late ticks merge)
    clock.advance(3.0)
    assert session.tick() is not None  # the scramble ends before the indicators tick
    assert outputs.played[-1] == BEEPS["timer-end"]
    assert not lit(factory, "timer")


def test_a_paused_timer_is_dark_and_silent(table: Any) -> None:
    session, indicators, outputs, clock, factory = table
    session.start("toss-your-cookies", ["Ann", "Ben", "Cleo"])
    session.act({"type": "toss"})
    session.act({"type": "pause"})
    assert not lit(factory, "timer") and indicators.next_due() is None
    clock.advance(30)
    indicators.tick()
    assert outputs.played == []


def test_undo_of_a_red_light_clears_bust(table: Any) -> None:
    session, _, _, _, factory = table
    session.start("toss-up", ["Ann", "Ben"])
    session.act({"type": "roll", "green": 0, "yellow": 7, "red": 3})
    session.undo()
    assert not lit(factory, "bust")


def test_reading_follows_the_camera(table: Any) -> None:
    _, indicators, _, _, factory = table
    indicators.on_camera({"online": True, "status": "camera online (replay:x)"})
    assert lit(factory, "reading")
    indicators.on_camera({"online": False, "status": "camera offline: unplugged"})
    assert not lit(factory, "reading")


def test_close_puts_everything_out(table: Any) -> None:
    session, indicators, _, _, factory = table
    session.start("toss-up", ["Ann", "Ben"])
    indicators.on_camera({"online": True})
    indicators.close()
    assert not any(lit(factory, name) for name in DEFAULT_LEDS)


def test_without_gpio_the_listener_still_runs(tmp_path: Path, clock: FakeClock,
                                              open_journal: Any) -> None:
    session = Session(open_journal(tmp_path), clock=clock)
    indicators = Indicators(NullOutputs(), clock=clock)
    session.add_listener(indicators.on_change)
    state = session.start("toss-your-cookies", ["Ann", "Ben", "Cleo"])
    assert state["version"] == 1
    session.act({"type": "toss"})
    clock.advance(10)
    indicators.tick()
    assert indicators.next_due() is None
